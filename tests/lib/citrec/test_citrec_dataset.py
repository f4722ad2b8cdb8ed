"""The evaluation data set: candidate thresholds, the temporal split, test items and Table 6's statistics."""

import pytest

from citeworth_assets.lib.citrec.dataset import (
    CitrecDatasetSettings,
    build_eval_dataset,
    dataset_statistics,
)
from citeworth_assets.lib.context_csv import CitationContext
from citeworth_assets.lib.read_issues import IssueLog


def ctx(cited, citing_arxiv, adjacent=(), text="a context MAINCIT ."):
    return CitationContext(cited, tuple(adjacent), f"arXiv:{citing_arxiv}", citing_arxiv, text, "mem", 1)


@pytest.fixture
def contexts():
    rows = []
    # work A: 6 train contexts from 3 papers (2015/2016), 2 test contexts (2017)
    for paper in ["1501.00001", "1501.00001", "1601.00002", "1601.00002", "1602.00003", "1602.00003"]:
        rows.append(ctx("A", paper))
    rows += [ctx("A", "1701.00009", adjacent=["B"]), ctx("A", "1801.00010")]
    # work B: 3 contexts but from one paper only: not a candidate at m = 2
    rows += [ctx("B", "1501.00001")] * 3 + [ctx("B", "1701.00009")]
    # work C: 2 train contexts from 2 papers: a candidate at k = 2, m = 2, never tested
    rows += [ctx("C", "1501.00001"), ctx("C", "1601.00002")]
    # a context whose citing paper has no year
    rows.append(CitationContext("A", (), "123", None, "no year MAINCIT", "mem", 99))
    return rows


def test_candidates_split_and_items(contexts):
    issues = IssueLog()
    settings = CitrecDatasetSettings(name="toy", min_contexts=2, min_citing_papers=2, split_year=2016)
    data = build_eval_dataset(lambda: iter(contexts), settings, issues=issues)
    assert data.candidates == ["A", "C"]
    assert len(data.train["A"]) == 6 and len(data.train["C"]) == 2
    assert [(t.cited, t.adjacent) for t in data.test] == [("A", ("B",)), ("A", ())]
    assert not data.train_citing & data.test_citing
    assert issues.counts == {"no_citing_year": 1}  # reported once although there are two passes
    stats = dataset_statistics(data)
    assert (stats.split, stats.candidates, stats.tested, stats.test_items) == ("<=2016 / >=2017", 2, 1, 2)
    assert stats.mean_contexts_per_candidate == 4.0 and stats.sd_contexts_per_candidate == 2.0


def test_thresholds_apply_to_training_contexts_only(contexts):
    data = build_eval_dataset(lambda: iter(contexts), CitrecDatasetSettings(min_contexts=7, min_citing_papers=1))
    assert data.candidates == []  # A has 8 contexts in all but only 6 in training
    assert data.test == []
    assert dataset_statistics(data).mean_contexts_per_candidate == 0.0


def test_split_year_moves_papers_not_contexts(contexts):
    data = build_eval_dataset(
        lambda: iter(contexts), CitrecDatasetSettings(min_contexts=1, min_citing_papers=1, split_year=2015)
    )
    assert data.candidates == ["A", "B", "C"]
    assert all(c.citing == "arXiv:1501.00001" for work in data.candidates for c in data.train[work])
    assert not data.train_citing & data.test_citing


def test_citing_field_filter_needs_and_uses_the_catalogue(contexts):
    from citeworth_assets.lib.citrec.contexts import WorkInfo

    settings = CitrecDatasetSettings(min_contexts=1, min_citing_papers=1, citing_fields=("Computer Science",))
    with pytest.raises(ValueError, match="catalogue"):
        build_eval_dataset(lambda: iter(contexts), settings)
    catalogue = {
        "arXiv:1501.00001": WorkInfo(2015, None, ("Computer Science",)),
        "arXiv:1701.00009": WorkInfo(2017, None, ("computer science", "Mathematics")),
        "arXiv:1601.00002": WorkInfo(2016, None, ("Physics",)),
    }
    data = build_eval_dataset(lambda: iter(contexts), settings, catalogue)
    assert data.train_citing == {"arXiv:1501.00001"} and data.test_citing == {"arXiv:1701.00009"}
    assert data.candidates == ["A", "B", "C"]
