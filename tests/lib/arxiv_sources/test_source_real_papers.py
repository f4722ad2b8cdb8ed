"""The shared real papers' sources (11 papers in arXiv's bulk layout, 3 damaged submissions) against the counts in
their ground truth: the issue's targets, per paper where the target is per paper."""

import json

import pytest

from citeworth_assets.lib.arxiv_sources.archive import iter_sources
from citeworth_assets.lib.arxiv_sources.runner import convert_all


@pytest.fixture(scope="module")
def converted(shared_data):
    folder = shared_data / "arxiv-sources"
    if not (folder / "groundtruth.jsonl").exists():
        pytest.skip(f"no arxiv-sources sample at {folder}")
    truth = {json.loads(line)["arxiv_id"]: json.loads(line) for line in (folder / "groundtruth.jsonl").open()}
    results = list(convert_all(iter_sources(sorted(folder.glob("arXiv_src_*.tar"))), workers=2))
    return truth, {row["arxiv_id"]: (row, json.loads(record) if record else None) for row, record in results}


@pytest.mark.slow  # a few seconds: make test runs it, make test-fast leaves it out
def test_every_real_paper_converts_and_the_damaged_ones_say_why(converted):
    truth, results = converted
    assert all(results[i][0]["outcome"] == "converted" for i in truth)
    damaged = {i: row["outcome"] for i, (row, _) in results.items() if i not in truth}
    assert damaged == {"2101.00012": "pdf_only", "2101.00013": "corrupt_archive", "2101.00014": "no_tex"}


def test_markers_links_and_entries_meet_the_targets(converted):
    truth, results = converted
    keys = markers = linked = entries = expected_entries = 0
    for arxiv_id, expected in truth.items():
        row, record = results[arxiv_id]
        found = [s["ref_id"] for p in record["body_text"] for s in p["cite_spans"]]
        assert len(found) <= expected["n_cite_keys_total"], arxiv_id  # never more markers than citations
        keys += expected["n_cite_keys_total"]
        markers += len(found)
        linked += sum(m in record["bib_entries"] for m in found)
        entries += len(record["bib_entries"])
        expected_entries += expected["n_bibitems"] + expected["n_biblatex_entries"]
    assert markers >= 0.97 * keys
    assert linked >= 0.95 * markers
    assert entries >= 0.97 * expected_entries


def test_stale_bbl_keys_stay_unlinked_markers(converted):
    truth, results = converted
    row, record = results["2101.00004"]  # its .bbl lacks 5 cited keys
    assert row["n_markers"] - row["n_markers_linked"] == len(truth["2101.00004"]["cited_keys_without_bibitem"])


def test_little_latex_is_left_in_the_text(converted):
    truth, results = converted
    import re

    words = commands = 0
    for arxiv_id in truth:
        for paragraph in results[arxiv_id][1]["body_text"]:
            text = re.sub(r"\{\{[a-z]+:[^{}]*\}\}", " ", paragraph["text"])
            words += len(text.split())
            commands += len(re.findall(r"\\[A-Za-z]+", text))
    assert 1000 * commands / words <= 1.0
