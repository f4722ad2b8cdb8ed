"""Queries with no term left (real unarXive contexts) and the TREC run files / qrels, checked with ir-measures."""

import math

import pytest
from click.testing import CliRunner

from citeworth_assets.cli import main
from citeworth_assets.lib.citrec.contexts import read_catalogue
from citeworth_assets.lib.citrec.dataset import CitrecDatasetSettings, dataset_from_csv
from citeworth_assets.samples.citrec import CitrecSampleSettings, write_citrec_sample
from citeworth_models.citrec import trec
from citeworth_models.citrec.evaluate import result_rows, run_model
from citeworth_models.citrec.metrics import item_metrics
from citeworth_models.citrec.nlp import parser_available
from citeworth_models.citrec.registry import MODELS, PARSER_MODELS, create_model

# Real unarXive 2020 contexts (citing sentence only) that keep no term once stop words and markers are gone.
NO_TERM_CONTEXTS = ["MAINCIT .", "See MAINCIT .", "See also MAINCIT .", "CIT , MAINCIT ."]


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    return write_citrec_sample(tmp_path_factory.mktemp("citrec_trec"), CitrecSampleSettings(works=30, citing_papers=90))


@pytest.fixture(scope="module")
def dataset(sample):
    return dataset_from_csv(
        [sample.contexts_path], CitrecDatasetSettings("generated", 5, 3, 2016), read_catalogue(sample.catalogue_path)
    )


@pytest.mark.parametrize("name", sorted(MODELS))
def test_every_model_answers_a_query_with_no_term_by_an_empty_ranking(name, dataset):
    if name in PARSER_MODELS and not parser_available():
        pytest.skip("no spaCy English pipeline installed")
    model = create_model(name).fit(dataset.candidate_texts())
    assert [ranking.size for ranking in model.rank(NO_TERM_CONTEXTS)] == [0] * len(NO_TERM_CONTEXTS)


def test_empty_rankings_are_counted_items_with_zero_metrics(dataset):
    from dataclasses import replace

    from citeworth_assets.lib.citrec.dataset import TestItem

    item = dataset.test[0]
    hard = [TestItem(replace(item.context, text=text), item.cited, item.adjacent) for text in NO_TERM_CONTEXTS]
    small = type(dataset)(dataset.settings, dataset.candidates, dataset.train, [dataset.test[0], *hard])
    run = run_model(create_model("bm25"), small)
    assert len(run.rankings) == 5 and run.empty == 4
    rows = {(r["metric"], r["k"]): r for r in result_rows(run, small)}
    assert rows[("recall", 10)]["items"] == 5 and rows[("recall", 10)]["value"] <= 0.2


def test_citrec_eval_with_default_models_finishes_on_queries_without_terms(sample, dataset, tmp_path):
    lines = sample.contexts_path.read_text(encoding="utf-8").splitlines()
    # a test context of a candidate, its text replaced by each real no-term pattern
    fields = lines[dataset.test[0].context.line - 1].split("\u241e")
    extra = ["\u241e".join([*fields[:6], text]) for text in NO_TERM_CONTEXTS]
    csv = tmp_path / "contexts.csv"
    csv.write_text("\n".join([*lines, *extra]) + "\n", encoding="utf-8")
    args = ["citrec-eval", "--contexts", str(csv), "--min-citing-papers", "3", "--out", str(tmp_path / "out")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    header = next(line.split() for line in result.output.splitlines() if line.split()[:1] == ["model"])
    bm25 = next(line.split() for line in result.output.splitlines() if line.split()[:1] == ["bm25"])
    assert int(bm25[header.index("empty")]) >= len(NO_TERM_CONTEXTS)
    assert (tmp_path / "out" / "runs" / "bm25.run").is_file() and (tmp_path / "out" / "qrels.txt").is_file()


def _graded_example():
    """Test items with adjacent citations and rankings that place the cited work at different ranks."""
    from types import SimpleNamespace

    items = [
        SimpleNamespace(cited="a", adjacent=("b", "c")),
        SimpleNamespace(cited="d", adjacent=()),
        SimpleNamespace(cited="e", adjacent=("a",)),
        SimpleNamespace(cited="f", adjacent=()),
    ]
    rankings = [["b", "x", "a", "c"], ["d", "a"], ["a", "y", "z", "w", "v", "u", "t", "s", "r", "q", "e"], []]
    return items, rankings


def test_run_files_and_qrels_agree_with_ir_measures_where_the_definitions_coincide(tmp_path):
    ir_measures = pytest.importorskip("ir_measures")
    from ir_measures import RR, R, nDCG

    from citeworth_models.citrec.evaluate import ModelRun

    items, rankings = _graded_example()
    run = ModelRun("bow", list(enumerate(rankings)))
    qrels = list(ir_measures.read_trec_qrels(str(trec.write_lines(trec.qrels_lines(items), tmp_path / "qrels.txt"))))
    scored = list(ir_measures.read_trec_run(str(trec.write_lines(trec.run_lines(run), tmp_path / "bow.run"))))
    assert {(q.query_id, q.doc_id, q.relevance) for q in qrels} >= {("q0", "a", 2), ("q0", "b", 1), ("q2", "a", 1)}
    ours = [item_metrics(r, i.cited, i.adjacent) for i, r in zip(items, rankings)]
    per_query = lambda measure, rel: {m.query_id: m.value for m in ir_measures.iter_calc([measure], rel, scored)}
    for k in (1, 3, 5, 10):
        recall, mrr = per_query(R(rel=2) @ k, qrels), per_query(RR(rel=2) @ k, qrels)
        for index, values in enumerate(ours):
            qid = trec.query_id(index)
            assert math.isclose(values["recall"][k - 1], recall.get(qid, 0.0))
            assert math.isclose(values["mrr"][k - 1], mrr.get(qid, 0.0))
    binary = [q for q in qrels if q.relevance == 2]  # without adjacent citations the NDCG definitions coincide
    plain = [item_metrics(r, i.cited, (), 10) for i, r in zip(items, rankings)]
    for k in (1, 3, 10):
        ndcg = per_query(nDCG @ k, binary)
        for index, values in enumerate(plain):
            assert math.isclose(values["ndcg"][k - 1], ndcg.get(trec.query_id(index), 0.0), abs_tol=1e-12)


@pytest.mark.slow  # a few seconds: make test runs it, make test-fast leaves it out
def test_real_unarxive_contexts_without_terms_get_empty_rankings_from_the_default_models(shared_data, tmp_path):
    """The citing-sentence contexts of the real unarXive 2020 sample include 14 with no term left ("See MAINCIT .",
    "CIT , CIT , MAINCIT , CIT ."): bm25 raised IndexError on them and citrec-eval printed nothing."""
    from citeworth_assets.defs.citrec.settings import DEFAULT_MODELS
    from citeworth_assets.lib.arxiv.context_extraction import contexts_2020
    from citeworth_assets.lib.arxiv.context_windows import PRESETS
    from citeworth_assets.lib.arxiv.csv_export import write_contexts_csv
    from citeworth_assets.lib.read_issues import IssueLog
    from citeworth_models.citrec.text import bow_terms

    folder = shared_data / "unarxive-2020" / "papers"
    csv = tmp_path / "contexts.csv"
    rows = contexts_2020(folder, folder / "refs.db", PRESETS["unarxive_published"], IssueLog())
    write_contexts_csv((row.as_row() for row in rows), csv)
    dataset = dataset_from_csv([csv], CitrecDatasetSettings("real", 1, 1, 2100))  # every context a training context
    texts = [c.text for work in dataset.candidates for c in dataset.train[work]]
    no_terms = [text for text, terms in zip(texts, bow_terms(texts)) if not terms]
    assert len(no_terms) >= 10 and "See MAINCIT ." in no_terms
    for name in DEFAULT_MODELS:
        model = create_model(name).fit(dataset.candidate_texts())
        assert all(ranking.size == 0 for ranking in model.rank(no_terms)), name
