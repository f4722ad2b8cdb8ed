"""CiteWorth over arXiv: real unarXive 2022 papers through the candidate filter and the published rule set."""

from collections import Counter

from citeworth_assets.lib.citeworth.partition import clean_partition
from citeworth_assets.lib.citeworth.rules import rule_set
from citeworth_assets.lib.citeworth.unarxive_input import arxiv_paper_inputs
from citeworth_assets.lib.sentences import splitter


class Rows:
    def __init__(self):
        self.rows = []

    def write(self, row):
        self.rows.append(row)


def test_real_unarxive_2022_papers_give_citeworth_paragraphs(shared_data):
    path = shared_data / "unarxive-2022" / "arXiv_src_2212_086.first20.jsonl"
    rules = rule_set("citeworth_2021")
    accepted, dropped, turned_away = Rows(), Rows(), Counter()
    papers = arxiv_paper_inputs(path, rules.name, dropped, turned_away)
    tally = clean_partition(papers, rules, splitter("scispacy_pysbd"), accepted, dropped)
    # three of the twenty papers have no bibliography entries: the candidate filter (CiteWorth §3.1) turns them away
    assert turned_away == Counter({"has_pdf_parsed_bib_entries": 3})
    assert tally.papers == 17 and not tally.errors
    assert accepted.rows, "no paragraph of 17 real papers accepted"
    for row in accepted.rows:
        assert row["paper_id"].startswith("2212.") and row["source_file"] == str(path)
        assert "{{cite:" not in row["original_text"] and "{{formula:" not in row["original_text"]
        assert row["mag_field_of_study"]  # unarXive's discipline
    reasons = Counter(row["reason"] for row in dropped.rows)
    assert reasons["has_pdf_parsed_bib_entries"] == 3 and sum(reasons.values()) == len(dropped.rows)
