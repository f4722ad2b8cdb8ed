"""The checks on the ROUGE-SciQFS release fail on the faults they look for."""

import pyarrow as pa
import pyarrow.parquet as pq

from citeworth_assets.defs.sciqfs.checks import (
    labels_follow_their_sources,
    splits_disjoint_by_citing_paper,
)
from citeworth_assets.lib.sciqfs.release import release_schema
from citeworth_assets.resources import PlatformResource


def example(paper_id, reference_id, split, labels, sources):
    return {
        "example_id": f"{paper_id}::{reference_id}",
        "paper_id": paper_id,
        "reference_id": reference_id,
        "split": split,
        "sentences": [f"Sentence {i}." for i in range(len(labels))],
        "query": "q",
        "labels": labels,
        "label_sources": sources,
        "rouge_precision": None,
        "rouge_recall": None,
        "rouge_fmeasure": None,
    }


def run_checks(tmp_path, rows):
    """The checks on a release folder whose split files hold ``rows`` (each in the split it names)."""
    resource = PlatformResource(dumps=str(tmp_path), data=str(tmp_path / "data"))
    folder = resource.settings.export_dir("sciqfs")
    folder.mkdir(parents=True)
    for split in {row["split"] for row in rows}:
        chosen = [row for row in rows if row["split"] == split]
        pq.write_table(pa.Table.from_pylist(chosen, schema=release_schema()), folder / f"{split}.parquet")
    return labels_follow_their_sources(citeworth=resource), splits_disjoint_by_citing_paper(citeworth=resource)


def test_good_examples_pass(tmp_path):
    rows = [
        example("p1", "r1", "train", [True, True, False], ["citation", "rouge", None]),
        example("p1", "r2", "train", [False, True], [None, "citation"]),
    ]
    labels, splits = run_checks(tmp_path, rows)
    assert labels.passed and splits.passed


def test_a_lost_citation_label_and_a_paper_in_two_splits_fail(tmp_path):
    rows = [
        example("p1", "r1", "train", [False, True], ["citation", "rouge"]),  # a citing sentence labelled false
        example("p1", "r2", "test", [True, False], ["citation", None]),  # the same paper in test
        example("p2", "r1", "train", [True, False], ["rouge", None]),
    ]  # no citing sentence
    labels, splits = run_checks(tmp_path, rows)
    assert not labels.passed and labels.metadata["failing"].value == 2
    assert not splits.passed and splits.metadata["papers_in_several_splits"].value == 1
