"""The CiteSum and ROUGE-SciQFS cards name the S2AG release their input came from, as the CiteWorth card does: their
examples carry no provenance columns, so the release is found from the lake's shards."""

import pyarrow as pa
import pyarrow.parquet as pq

from citeworth_assets.lib.citesum.tables import example_schema, export_release
from citeworth_assets.lib.dataset_cards import s2ag_releases
from citeworth_assets.lib.sciqfs.release import write_release

SENTENCE = "Semantic Scholar Academic Graph (S2AG) datasets, release `2023-02-14`"
S2AG_SHARD = "s2ag_2023_02_14_s2orc_20230214_070157_00041_s2orc_sample"


def _partition(lake, table, shard, rows):
    folder = lake / table / f"shard={shard}"
    folder.mkdir(parents=True)
    pq.write_table(pa.Table.from_pylist(rows), folder / "part-0.parquet")


def _lake(tmp_path):
    lake = tmp_path / "lake"
    for table in ("citesum_candidates", "sciqfs_examples"):
        _partition(lake, table, S2AG_SHARD, [{"paper_id": "1"}])
        _partition(lake, table, "pdf_parses_0", [{"paper_id": "2"}])  # a 2020 shard: no S2AG release
    _partition(lake, "s2orc_papers", S2AG_SHARD, [{"paper_id": "1", "release": "2023-02-14"}] * 2)
    _partition(lake, "s2orc_papers", "pdf_parses_0", [{"paper_id": "2", "release": "20200705v1"}])
    _partition(lake, "s2orc_papers", "s2ag_2024_01_02_s2orc_other", [{"paper_id": "3", "release": "2024-01-02"}])
    return lake


def test_the_releases_are_those_of_the_tables_own_s2ag_shards(tmp_path):
    lake = _lake(tmp_path)
    assert s2ag_releases(lake, "citesum_candidates") == ["2023-02-14"]  # not 2024-01-02: no candidates from it
    assert s2ag_releases(lake, "sciqfs_examples") == ["2023-02-14"]
    assert s2ag_releases(lake, "citeworth_missing_table") == []


def test_the_citesum_card_names_the_s2ag_release(tmp_path):
    row = {name: None for name in example_schema().names}
    row |= {"citing_paper_id": "1", "cited_paper_id": "9", "target": "We use REF.", "abstract": "An abstract."}
    table = pa.Table.from_pylist(
        [{**row, "split": split} for split in ("train", "validation", "test")], schema=example_schema()
    )
    folder, _ = export_release(table, tmp_path / "citesum", s2ag_releases(_lake(tmp_path), "citesum_candidates"))
    assert SENTENCE in (folder / "README.md").read_text()
    folder, _ = export_release(table, tmp_path / "citesum_2020")
    assert "S2AG" not in (folder / "README.md").read_text()


def test_the_sciqfs_card_names_the_s2ag_release(tmp_path):
    row = {
        "example_id": "1-r1",
        "paper_id": "1",
        "reference_id": "r1",
        "sentences": ["A sentence citing [1].", "Another one."],
        "query": "A cited abstract.",
        "labels": [True, False],
        "label_sources": ["citation", None],
        "rouge_precision": 0.5,
        "rouge_recall": 0.5,
        "rouge_fmeasure": 0.5,
    }
    out = tmp_path / "sciqfs"
    write_release([row], {"1": "train"}, out, {"seed": 0}, "v1", s2ag_releases(_lake(tmp_path), "sciqfs_examples"))
    assert SENTENCE in (out / "README.md").read_text()
