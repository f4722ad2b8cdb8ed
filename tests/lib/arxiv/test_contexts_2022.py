"""unarXive 2022 contexts: whole citation groups, placeholders as unarXive 2020's tokens, and the shipped OpenAlex
ids (and DOIs) carried to the export and to citation recommendation, on the real 2022 sample."""

import re

import pytest

from citeworth_assets.lib.arxiv import unarxive2022
from citeworth_assets.lib.arxiv.context_extraction import Candidate, contexts_2022, text_contexts
from citeworth_assets.lib.arxiv.context_windows import (
    UNARXIVE_2022,
    ContextWindow,
    group_adjacent_ids,
    replace_placeholders,
)
from citeworth_assets.lib.arxiv.csv_export import write_contexts_csv
from citeworth_assets.lib.citrec.contexts import read_contexts
from citeworth_assets.lib.context_csv import CsvRepairs, context_csv_line, mag_or_openalex, parse_context_line
from citeworth_assets.lib.read_issues import IssueLog

SAMPLE = "arXiv_src_2212_086.first20.jsonl"


def _marker(ref: str) -> str:
    return "{{cite:" + ref + "}}"


@pytest.fixture(scope="module")
def papers(shared_data):
    return list(unarxive2022.iter_papers(shared_data / "unarxive-2022" / SAMPLE, IssueLog()))


def test_a_group_of_16_markers_lists_all_others_in_reading_order():
    refs = [f"{n:040x}" for n in range(1, 17)]
    separators = [", ", ",", "; ", " ", ",\n"]  # at most 5 characters apart, as real groups are written
    text = "Many works " + "".join(_marker(r) + separators[i % 5] for i, r in enumerate(refs)) + "study this."
    links = {r: (None, None, f"W{n}") for n, r in enumerate(refs, 1)}
    for index in (0, 7, 15):
        start = text.index(refs[index]) - 7
        found = group_adjacent_ids(text, start, start + 49, UNARXIVE_2022, links)
        assert found == [links[r] for r in refs if r != refs[index]]


def test_an_unlinked_citation_inside_a_group_does_not_split_it(papers):
    """Real 2212.11770: "such as [370b7d],[87dfff],[80f086]" where the middle entry ships no link."""
    paper = next(p for p in papers if p.arxiv_id == "2212.11770")
    linked = {r["ref_id"]: r for r in paper.references if r["linked_openalex_id"] or r["linked_mag_id"]}
    text = paper.paragraphs[0]["text"]
    group = [m for m in UNARXIVE_2022.cite_pattern.finditer(text) if m.group(1)[:6] in ("370b7d", "87dfff", "80f086")]
    assert [m.group(1) in linked for m in group] == [True, False, True]
    rows = {}
    for row in contexts_2022(paper, ContextWindow()):  # paragraph 0 comes first: its contexts are kept
        rows.setdefault(row.ref_id, row)
    first, last = rows[group[0].group(1)], rows[group[2].group(1)]
    assert [a[2] for a in first.adjacent] == [last.cited_openalex_id]
    assert [a[2] for a in last.adjacent] == [first.cited_openalex_id]


def test_placeholders_become_unarxive_2020_tokens():
    uuid = "ce5f3c27-1e2b-4c3d-9e8f-0123456789ab"
    text = (
        f"where {{{{formula:{uuid}}}}} holds (see {{{{figure:{uuid}}}}}, {{{{table:{uuid}}}}} and {{{{ref:{uuid}}}}})."
    )
    assert replace_placeholders(text) == "where FORMULA holds (see FIGURE, TABLE and REF)."
    cited = "c" * 40
    text = f"The bound {{{{formula:{uuid}}}}} follows {_marker(cited)}. Next."
    candidate = Candidate(cited, None, None, None, "2212.1", "W9", None)
    (row,) = text_contexts(text, [((0,), candidate)], {cited: (None, None, "W9")}, ContextWindow(), UNARXIVE_2022)
    assert row.text == "The bound FORMULA follows MAINCIT ." and row.cited_openalex_id == "W9"


def test_real_2022_contexts_have_no_placeholder_ids_and_all_carry_a_usable_cited_id(papers, tmp_path):
    rows = [row for paper in papers for row in contexts_2022(paper, ContextWindow())]
    assert len(rows) > 300
    assert not any(re.search(r"\{\{(formula|figure|table|ref):|[0-9a-f]{8}-[0-9a-f]{4}-", r.text) for r in rows)
    assert sum("FORMULA" in r.text for r in rows) > 20
    assert all(r.cited_openalex_id and re.fullmatch(r"W\d+", r.cited_openalex_id) for r in rows)
    assert sum(bool(r.cited_doi) for r in rows) > 0.5 * len(rows)
    out = tmp_path / "contexts.csv"
    write_contexts_csv((r.as_row() for r in rows), out)
    issues = IssueLog()
    usable = list(read_contexts(out, issues))
    assert len(usable) == len(rows) and not issues.total  # was 0 usable where no cited arXiv id was shipped
    assert {c.cited for c in usable} == {r.cited_openalex_id[1:] for r in rows if not r.cited_mag_id}
    assert all(line.count("\u241e") == 6 for line in out.read_text(encoding="utf-8").splitlines())


def test_an_openalex_only_work_is_named_by_its_number_in_the_mag_id_fields():
    assert mag_or_openalex(None, "W2741809807") == "2741809807"
    assert mag_or_openalex("7", "W9") == "7" and mag_or_openalex(None, None) is None
    assert mag_or_openalex(None, "not-an-id") is None
    cited = "c" * 40
    candidate = Candidate(cited, None, None, None, "2212.1", "W9", None)
    (row,) = text_contexts(
        f"It follows {_marker(cited)}.",
        [((0,), candidate)],
        {cited: (None, None, "W9")},
        ContextWindow(),
        UNARXIVE_2022,
    )
    line = context_csv_line(row.as_row(), CsvRepairs())
    assert line.count("\u241e") == 6
    assert parse_context_line(line).cited == "9"
