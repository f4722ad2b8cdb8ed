"""The cleaning asset of a shard with a paper that raises: the other papers are written, the error is a
rejection row and the no_internal_errors check fails (visible, never silent)."""

import dagster as dg
import pyarrow.compute as pc
import pytest

from citeworth_assets.defs.citeworth.assets import citeworth_cleaning
from citeworth_assets.lib import lake
from citeworth_assets.lib.s2orc.records import paper_schema, paragraph_schema
from citeworth_assets.resources import PlatformResource

SHARD = "20200705v1_0"
TEXT = (
    "Remote sensing images are important data sources [1]. They detect land changes efficiently in every region. "
    "Change detection compares two or more phases [2], [3]."
)


def paragraphs(paper_id: str, line: int, empty_span: bool) -> list[dict]:
    """Two Introduction paragraphs; ``empty_span`` adds a zero-length span with empty text, on which the published
    context-only test raises IndexError."""
    spans = [
        {"start": TEXT.index(p), "end": TEXT.index(p) + 3, "text": p, "ref_id": None, "linked_paper_id": None}
        for p in ("[1]", "[2]", "[3]")
    ]
    if empty_span:
        at = TEXT.index("every region.") + len("every region")  # at a sentence end: split, not dropped before
        spans.insert(1, {"start": at, "end": at, "text": "", "ref_id": None, "linked_paper_id": None})
    provenance = {
        "release": "20200705v1",
        "shard": SHARD,
        "source_file": "pdf_parses_0.jsonl.gz",
        "line": line,
        "byte_offset": 0,
    }
    return [
        {
            "paper_id": paper_id,
            "paragraph_index": index,
            "section": "Introduction",
            "text": TEXT,
            "cite_spans": spans,
            "ref_spans": [],
            "invalid_span_count": 0,
            **provenance,
        }
        for index in (0, 1)
    ]


@pytest.mark.slow  # a Dagster run and the sentence splitter: about 15 s
def test_a_paper_that_raises_fails_the_check_and_loses_no_other_paper(tmp_path):
    resource = PlatformResource(dumps=str(tmp_path / "dumps"), data=str(tmp_path / "data"))
    settings = resource.settings
    papers = [("p1", False), ("p2", True), ("p3", False)]
    rows = [row for line, (pid, bad) in enumerate(papers, 1) for row in paragraphs(pid, line, bad)]
    lake.write_partition(settings.lake, "s2orc_paragraphs", paragraph_schema(), rows, SHARD)
    candidates = [{"paper_id": pid, "mag_field_of_study": ["Geology"]} for pid, _ in papers]
    lake.write_partition(settings.lake, "s2orc_candidate_papers", paper_schema(), candidates, SHARD)
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("s2orc_shards", [SHARD])
    result = dg.materialize(
        [citeworth_cleaning], partition_key=SHARD, resources={"citeworth": resource}, instance=instance
    )
    assert result.success  # the shard is written: the error is reported, not raised
    (check,) = result.get_asset_check_evaluations()
    assert check.check_name == "no_internal_errors" and not check.passed
    assert check.metadata["internal_errors"].value == 1
    assert "p2 (line 2): IndexError" in check.metadata["examples"].value[0]
    rules = resource.rule_set.name
    kept = lake.read_partition(settings.lake, "citeworth_paragraphs", f"{rules}.{SHARD}")
    assert sorted(set(kept.column("paper_id").to_pylist())) == ["p1", "p3"]
    dropped = lake.read_partition(settings.lake, "citeworth_rejections", f"{rules}.{SHARD}")
    errors = dropped.filter(pc.equal(dropped.column("reason"), "internal_error")).to_pylist()
    assert [(row["paper_id"], row["line"], row["source_file"]) for row in errors] == [
        ("p2", 2, "pdf_parses_0.jsonl.gz")
    ]
    materialized = {
        event.asset_key.path[-1]: event.materialization.metadata for event in result.get_asset_materialization_events()
    }
    assert materialized["citeworth_rejections"]["internal_errors"].value == 1
