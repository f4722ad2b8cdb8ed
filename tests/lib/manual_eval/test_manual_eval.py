import json
import math

import duckdb
import pytest

from citeworth_assets.defs.warehouse.assets import SQL_MODELS_DIR
from citeworth_assets.lib.citeworth.rules import CITEWORTH_2021
from citeworth_assets.lib.manual_eval.evaluation import (
    baseline_sentences,
    draw_sample,
    judgement_events_sql,
    table_3,
    wilson_interval,
)
from citeworth_assets.lib.papers import PaperInput
from citeworth_assets.lib.sentences import splitter


def pool(prefix, cite, plain):
    sentences = []
    for i in range(cite + plain):
        label = "check-worthy" if i < cite else "non-check-worthy"
        sentences.append(
            {
                "text": f"{prefix} sentence {i}.",
                "label": label,
                "paragraph": "P",
                "paper_id": f"{prefix}{i // 3}",
                "paragraph_index": 0,
                "sentence_index": i,
            }
        )
    return sentences


def test_sample_is_balanced_blind_shuffled_and_deterministic():
    pools = {"ours": pool("o", 40, 60), "baseline": pool("b", 70, 80)}
    sample = draw_sample("citeworth_2021", pools, 25, seed=1)
    counts = {}
    for item in sample.items:
        counts[(item["method"], item["label"])] = counts.get((item["method"], item["label"]), 0) + 1
    assert set(counts.values()) == {25} and len(counts) == 4 and not sample.warnings
    assert all(len(item["item_id"]) == 16 and "ours" not in item["item_id"] for item in sample.items)
    methods_in_order = [item["method"] for item in sorted(sample.items, key=lambda i: i["position"])]
    assert methods_in_order[:50].count("ours") not in (0, 50)  # interleaved, not grouped by method
    again = draw_sample("citeworth_2021", pools, 25, seed=1)
    assert [(i["item_id"], i["position"]) for i in again.items] == [(i["item_id"], i["position"]) for i in sample.items]
    other = draw_sample("citeworth_2021", pools, 25, seed=2)
    assert {i["item_id"] for i in other.items} != {i["item_id"] for i in sample.items}


def test_sample_shrinks_with_a_warning_and_keeps_judged_items():
    pools = {"ours": pool("o", 10, 60), "baseline": pool("b", 70, 80)}
    first = draw_sample("r", pools, 500, seed=1)
    assert first.per_stratum == 10 and "only 10" in first.warnings[0]
    judged = {item["item_id"] for item in first.items if item["method"] == "baseline"}
    second = draw_sample("r", pools, 10, seed=99, keep_ids=judged)
    assert judged <= {item["item_id"] for item in second.items}


def test_wilson_interval_known_values():
    low, high = wilson_interval(90, 100)
    assert (round(low, 2), round(high, 2)) == (82.56, 94.48)
    assert wilson_interval(0, 10)[0] == pytest.approx(0.0, abs=1e-9)
    assert all(math.isnan(x) for x in wilson_interval(0, 0))


def test_table_3_from_fixed_judgements():
    sample = [{"item_id": f"o{i}", "method": "ours"} for i in range(4)] + [
        {"item_id": f"b{i}", "method": "baseline"} for i in range(4)
    ]
    judgements = [
        *(
            {"annotator": "ann", "item_id": f"o{i}", "extracted_correctly": True, "markers_removed": i != 0}
            for i in range(4)
        ),
        *(
            {"annotator": "ann", "item_id": f"b{i}", "extracted_correctly": i < 2, "markers_removed": i < 1}
            for i in range(4)
        ),
        *(
            {"annotator": "bob", "item_id": f"o{i}", "extracted_correctly": True, "markers_removed": i > 1}
            for i in range(4)
        ),
        {"annotator": "ann", "item_id": "not-in-sample", "extracted_correctly": False, "markers_removed": False},
    ]
    rows = {(r["method"], r["question"]): r for r in table_3("r", sample, judgements)}
    ours = rows[("ours", "extracted_correctly")]
    assert (ours["yes"], ours["judged"], ours["percent"]) == (8, 8, 100.0)
    assert ours["improvement_over_baseline"] == 50.0  # 100% - 2/4
    markers = rows[("ours", "markers_removed")]
    assert (markers["yes"], markers["judged"]) == (5, 8) and markers["improvement_over_baseline"] == pytest.approx(
        62.5 - 25.0
    )
    # ann: F T T T, bob: F F T T on the 4 common items -> kappa = (0.75 - 0.5) / (1 - 0.5) = 0.5
    assert markers["kappa"] == 0.5 and markers["kappa_items"] == 4
    assert rows[("ours", "extracted_correctly")]["kappa"] == 1.0


def test_baseline_removes_only_the_spans():
    text = "Cells divide fast (Smith et al., 2019). This was shown by [3]. We agree with it."
    start = text.index("(Smith")
    spans = [
        {
            "start": start,
            "end": start + len("(Smith et al., 2019)"),
            "text": "(Smith et al., 2019)",
            "ref_id": "B0",
            "linked_paper_id": None,
        },
        {
            "start": text.index("[3]"),
            "end": text.index("[3]") + 3,
            "text": "[3]",
            "ref_id": "B1",
            "linked_paper_id": None,
        },
    ]
    extra = {"start": 0, "end": 5, "text": "Cells", "ref_id": "B2", "linked_paper_id": None}
    paper = PaperInput(
        "p",
        [
            {
                "paragraph_index": 0,
                "section": "Introduction",
                "text": text,
                "cite_spans": spans,
                "invalid_span_count": 0,
            },
            {
                "paragraph_index": 1,
                "section": "Methods",
                "text": text,
                "cite_spans": [spans[0], spans[1], {**extra}, {**extra}],
                "invalid_span_count": 0,
            },
        ],
    )
    sentences = baseline_sentences([paper], CITEWORTH_2021, splitter())
    first = [s for s in sentences if s["paragraph_index"] == 0]
    assert [s["text"] for s in first] == ["Cells divide fast .", "This was shown by .", "We agree with it."]
    assert [s["label"] for s in first] == ["check-worthy", "check-worthy", "non-check-worthy"]


def test_judgement_view_resolves_undo(tmp_path):
    folder = tmp_path / "manual_eval" / "citeworth_2021" / "judgements"
    folder.mkdir(parents=True)
    (folder / "_none.jsonl").write_text("")
    events = [
        {
            "seq": 1,
            "action": "judge",
            "annotator": "ann",
            "item_id": "a",
            "extracted_correctly": True,
            "markers_removed": False,
            "comment": "",
            "at": "t1",
        },
        {
            "seq": 2,
            "action": "judge",
            "annotator": "ann",
            "item_id": "b",
            "extracted_correctly": False,
            "markers_removed": True,
            "comment": "x",
            "at": "t2",
        },
        {"seq": 3, "action": "undo", "annotator": "ann", "undoes": 2, "at": "t3"},
    ]
    (folder / "ann.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    model = (SQL_MODELS_DIR / "citeworth" / "manual_eval_judgements.sql").read_text()
    for root, expected in (
        (tmp_path, [("citeworth_2021", "ann", "a", True, False, "", "t1")]),
        (tmp_path / "empty", []),
    ):
        connection = duckdb.connect()
        connection.execute("CREATE SCHEMA lake")
        connection.execute(f"CREATE VIEW lake.judgement_events AS {judgement_events_sql(root)}")
        assert connection.execute(model).fetchall() == expected
