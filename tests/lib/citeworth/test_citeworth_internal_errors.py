"""No paper can abort a run: an unexpected exception while cleaning one paper drops that paper as internal_error."""

import json

import pytest
from click.testing import CliRunner

from citeworth_assets.cli import main
from citeworth_assets.lib.citeworth.cleaning import clean_papers
from citeworth_assets.lib.citeworth.paper_files import read_paper_files
from citeworth_assets.lib.citeworth.partition import rejection_rows, rejection_schema
from citeworth_assets.lib.citeworth.reasons import REASONS
from citeworth_assets.lib.citeworth.rules import CITEWORTH_2021, CITEWORTH_IMPROVED
from citeworth_assets.lib.sentences import splitter

TEXT = (
    "Remote sensing images are important data sources [1]. They detect land changes efficiently in every region. "
    "Change detection compares two or more phases [2], [3]."
)


def record(paper_id, empty_span=False):
    """A pdf_parses record of two Introduction paragraphs with six citations.

    ``empty_span`` adds a zero-length citation span with empty text at the end of the second sentence
    (where no rule drops the paragraph before splitting): the reader accepts it (its offsets are inside
    the paragraph), and the published context-only test reads the span text's first character, which
    raises IndexError. No other input is known to raise."""
    spans = [
        {"start": TEXT.index(p), "end": TEXT.index(p) + 3, "text": p, "ref_id": f"BIBREF{i}"}
        for i, p in enumerate(["[1]", "[2]", "[3]"])
    ]
    if empty_span:
        at = TEXT.index("every region.") + len("every region")
        spans.insert(1, {"start": at, "end": at, "text": "", "ref_id": "BIBREF9"})
    body = [
        {"section": "Introduction", "text": TEXT, "cite_spans": [dict(s) for s in spans], "ref_spans": []}
        for _ in range(2)
    ]
    return {"paper_id": paper_id, "body_text": body, "bib_entries": {}}


@pytest.fixture
def papers(tmp_path):
    for name, bad in (("a", False), ("b", True), ("c", False)):
        (tmp_path / f"{name}.json").write_text(json.dumps(record(f"paper-{name}", bad)))
    return tmp_path


@pytest.mark.parametrize("rules", [CITEWORTH_2021, CITEWORTH_IMPROVED], ids=lambda rules: rules.name)
def test_the_paper_that_raises_is_dropped_as_internal_error_and_the_others_are_cleaned(papers, rules):
    results = list(clean_papers(read_paper_files([papers], []), rules, splitter()))
    assert [r.paper.paper_id for r in results] == ["paper-a", "paper-b", "paper-c"]
    good, bad, other = results
    assert bad.paper_reason == "internal_error" and not bad.accepted
    (drop,) = bad.drops
    assert drop.level == "paper" and drop.detail.startswith("IndexError: ") and " in brackets_only" in drop.detail
    assert len(good.accepted) == len(other.accepted) == 2
    alone = list(clean_papers(read_paper_files([papers / "a.json"], []), rules, splitter()))
    assert [a.verdict.samples for a in alone[0].accepted] == [a.verdict.samples for a in good.accepted]
    (row,) = rejection_rows(rules, bad)
    assert (row["reason"], row["source_file"], row["line"]) == ("internal_error", "b.json", 1)
    assert set(row) <= set(rejection_schema().names) and "IndexError" in row["detail"]
    assert REASONS["internal_error"].level == "paper"


def test_an_error_in_a_batched_step_loses_only_the_paper_that_raises(papers, monkeypatch):
    """The batch fails as a whole in the tokenizer; retried one paper at a time, only the poisoned paper is lost."""
    nlp = splitter()
    tokenize = nlp.tokenize

    def fragile(texts):
        texts = list(texts)
        if any("poison" in text for text in texts):
            raise RuntimeError("tokenizer failed")
        return tokenize(texts)

    monkeypatch.setattr(nlp, "tokenize", fragile)
    poisoned = record("paper-p")
    poisoned["body_text"][0]["text"] = TEXT.replace("every region", "every poison region")
    (papers / "b.json").write_text(json.dumps(poisoned))
    results = list(clean_papers(read_paper_files([papers], []), CITEWORTH_2021, nlp))
    assert [(r.paper.paper_id, r.paper_reason) for r in results] == [
        ("paper-a", None),
        ("paper-p", "internal_error"),
        ("paper-c", None),
    ]
    assert results[1].drops[0].detail.startswith("RuntimeError: tokenizer failed")
    assert results[0].accepted and results[2].accepted


def test_clean_paper_reports_the_error_and_prints_the_other_papers(papers):
    result = CliRunner().invoke(main, ["clean-paper", str(papers), "--rules", "citeworth_2021"])
    assert result.exit_code == 1  # other papers' output complete, the error visible in the status
    printed = [json.loads(line)["paper_id"] for line in result.stdout.splitlines()]
    assert printed == ["paper-a", "paper-a", "paper-c", "paper-c"]
    assert "b.json: internal_error in paper paper-b: IndexError" in result.stderr


def test_the_rule_comparison_counts_internal_errors(papers):
    from citeworth_assets.lib.citeworth.quality import compare_rule_sets, comparison_schema

    rows = compare_rule_sets(list(read_paper_files([papers], [])), [CITEWORTH_2021], splitter())
    assert [(row["candidate_papers"], row["internal_errors"], row["papers_per_1000"]) for row in rows] == [
        (3, 1, 666.7)
    ]
    assert set(rows[0]) == set(comparison_schema().names)
