"""CiteWorth over arXiv: real unarXive 2022 papers through the candidate filter and the published rule set."""

from collections import Counter

from citeworth_assets.lib.citeworth.partition import clean_partition
from citeworth_assets.lib.citeworth.reasons import REASONS
from citeworth_assets.lib.citeworth.rules import rule_set
from citeworth_assets.lib.citeworth.unarxive_input import arxiv_paper_inputs
from citeworth_assets.lib.filters import FilterRun
from citeworth_assets.lib.s2orc.candidate_filter import REASONS as CANDIDATE_REASONS
from citeworth_assets.lib.sentences import splitter


class Rows:
    def __init__(self):
        self.rows = []

    def write(self, row):
        self.rows.append(row)


def test_real_unarxive_2022_papers_give_citeworth_paragraphs(shared_data):
    path = shared_data / "unarxive-2022" / "arXiv_src_2212_086.first20.jsonl"
    rules = rule_set("citeworth_2021")
    accepted, dropped = Rows(), Rows()
    run = FilterRun(accepted, dropped, [REASONS, CANDIDATE_REASONS])
    papers = arxiv_paper_inputs(path, rules.name, run)
    cleaned, errors = clean_partition(papers, rules, splitter("scispacy_pysbd"), run)
    # three of the twenty papers have no bibliography entries: the candidate filter (CiteWorth §3.1) turns them away
    candidates = run.tallies["s2orc"]
    assert candidates.dropped == Counter({"has_pdf_parsed_bib_entries": 3}) and candidates.kept == 17
    assert cleaned == 17 and not errors
    assert run.tally.kept == len(accepted.rows) and run.tally.dropped.total() == len(dropped.rows) - 3
    assert accepted.rows, "no paragraph of 17 real papers accepted"
    for row in accepted.rows:
        assert row["paper_id"].startswith("2212.") and row["source_file"] == str(path)
        assert "{{cite:" not in row["original_text"] and "{{formula:" not in row["original_text"]
        assert row["mag_field_of_study"]  # unarXive's discipline
    reasons = Counter(row["reason"] for row in dropped.rows)
    assert reasons["has_pdf_parsed_bib_entries"] == 3 and sum(reasons.values()) == len(dropped.rows)
