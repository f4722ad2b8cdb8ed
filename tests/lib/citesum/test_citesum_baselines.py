import json

import pytest

from citeworth_assets.lib.citesum.baselines import (
    TldrFormatError,
    best_f1,
    ext_heuristic,
    ext_lead,
    ext_oracle,
    format_table,
    read_tldr_jsonl,
    score_baselines,
    tldr_record,
    tldr_records,
)
from citeworth_assets.lib.sentences import splitter

SOURCE = [
    "Deep networks are popular.",
    "We introduce a sparse graph network.",
    "It improves parsing accuracy on five treebanks.",
]
PARSING = "improves parsing accuracy on treebanks"
GRAPH = "a sparse graph network"


def test_lead_and_heuristic_picks():
    assert ext_lead(SOURCE, [PARSING]) == SOURCE[0]
    assert ext_heuristic(SOURCE, [PARSING]) == SOURCE[1]
    assert (
        ext_heuristic(["Background.", "IN THIS PAPER we study graphs.", "We propose more."], [])
        == "IN THIS PAPER we study graphs."
    )
    assert ext_heuristic(["Graphs are common.", "We study them."], []) == "Graphs are common."  # falls back to LEAD


def test_oracle_takes_best_rouge2_over_references_and_earliest_on_ties():
    # ROUGE-2 F1: sentence 3 vs PARSING = 3 of 6 and 3 of 4 bigrams: 0.6; sentence 2 vs GRAPH = 3 of 5 and 3 of 3: 0.75.
    assert ext_oracle(SOURCE, [PARSING]) == SOURCE[2]
    assert ext_oracle(SOURCE, [PARSING, GRAPH]) == SOURCE[1]
    assert ext_oracle(["x y", "z w"], ["q r"]) == "x y"
    assert ext_oracle(["the same words", "the same words"], ["the same words"]) == "the same words"


def test_scores_are_the_best_over_references():
    assert best_f1(GRAPH, ["something else entirely", GRAPH]) == {"rouge1": 1.0, "rouge2": 1.0, "rougeL": 1.0}
    assert best_f1("", [GRAPH]) == {"rouge1": 0.0, "rouge2": 0.0, "rougeL": 0.0}


def test_means_are_times_100_and_an_empty_source_scores_zero():
    records = [
        {"source": ["the cat sat on the mat"], "target": ["the cat sat on the mat"]},
        {"source": ["dogs bark loudly"], "target": ["birds sing"]},
        {"source": [], "target": ["birds sing"]},
    ]
    scores = score_baselines(records)
    assert scores == {
        name: {"rouge1": 33.33, "rouge2": 33.33, "rougeL": 33.33}
        for name in ("EXT-LEAD", "EXT-HEURISTIC", "EXT-ORACLE")
    }
    table = format_table(scores).splitlines()
    assert table[0].split() == ["Method", "R-1", "R-2", "R-L"]
    assert table[3].split() == ["EXT-ORACLE", "33.33", "33.33", "33.33"]


def test_citesum_examples_become_tldr_records():
    abstract = "We propose a graph network. It parses quickly."
    assert tldr_record(abstract, "REF proposes a graph network.", splitter()) == {
        "source": ["We propose a graph network.", "It parses quickly."],
        "target": ["REF proposes a graph network."],
    }
    examples = [{"abstract": abstract, "target": "t1"}, {"abstract": None, "target": "t2"}]
    assert [r["source"] for r in tldr_records(examples, splitter())] == [
        ["We propose a graph network.", "It parses quickly."],
        [],
    ]


def test_reading_jsonl_names_file_and_line_of_a_bad_record(tmp_path):
    good = {"source": ["a b"], "target": ["a"], "paper_id": "x"}
    path = tmp_path / "test.jsonl"
    path.write_text(json.dumps(good) + "\n\n" + json.dumps(good) + "\n")
    assert list(read_tldr_jsonl(path)) == [good, good]
    path.write_text(json.dumps(good) + "\n{not json\n")
    with pytest.raises(TldrFormatError, match=rf"{path}:2: not valid JSON"):
        list(read_tldr_jsonl(path))
    path.write_text(json.dumps(good) + "\n" + json.dumps(good) + "\n" + json.dumps({"source": ["a"]}) + "\n")
    with pytest.raises(TldrFormatError, match=rf"{path}:3: missing field 'target'"):
        list(read_tldr_jsonl(path))
    path.write_text(json.dumps({"source": "a b", "target": ["a"]}) + "\n")
    with pytest.raises(TldrFormatError, match=rf"{path}:1: field 'source' must be a list of strings"):
        list(read_tldr_jsonl(path))
