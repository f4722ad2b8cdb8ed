"""A dump root holding only an S2AG release (the real full texts, papers rows for them, the real papers and abstracts
samples) through the whole graph: its file is a shard partition, and CiteWorth, CiteSum's catalogue and the
releases read its papers."""

import sys
from pathlib import Path

import dagster as dg
import duckdb
import pytest

sys.path.insert(0, str(Path(__file__).parents[2] / "lib" / "s2ag"))
from s2ag_helpers import RELEASE, real_records, s2ag_dump_root  # noqa: E402

from citeworth_assets.lib import lake  # noqa: E402
from citeworth_assets.lib.s2ag import layout  # noqa: E402

# A whole graph on real records (about 45 s): with the ops tests (make test-ops, CI), so that make test stays
# within its 5 minutes.
pytestmark = [pytest.mark.slow, pytest.mark.ops]


@pytest.fixture(scope="module")
def built(shared_data, tmp_path_factory, build_graph):
    root = tmp_path_factory.mktemp("s2ag_graph")
    dumps = s2ag_dump_root(root / "dumps", shared_data)
    settings, result, instance, _ = build_graph(dumps, root / "data")
    (file,) = layout.discover_files(dumps)
    return settings, result, instance, file, real_records(shared_data)


def _metadata(instance, key: str, partition: str | None = None) -> dict:
    records = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=dg.AssetKey(key), asset_partitions=[partition] if partition else None), limit=1
    ).records
    return {name: value.value for name, value in records[0].asset_materialization.metadata.items()}


def test_the_s2ag_file_is_a_shard_through_the_graph(built):
    settings, result, instance, file, records = built
    assert result.failed == []
    assert file.key in instance.get_dynamic_partitions("s2orc_shards")
    papers = lake.read_partition(settings.lake, "s2orc_papers", file.key)
    assert papers.column("paper_id").to_pylist() == [str(r["corpusid"]) for r in records]
    assert set(papers.column("release").to_pylist()) == {RELEASE}
    staged = _metadata(instance, "s2ag_metadata")
    assert staged["papers"] == 105 and staged["abstracts"] > 100
    ingested = _metadata(instance, "s2orc_papers", file.key)
    assert (ingested["with_papers_row"], ingested["s2ag_release"]) == (5, RELEASE)


def test_citeworth_rows_come_from_the_s2ag_papers(built):
    settings, _, _, file, _ = built
    candidates = lake.read_partition(settings.lake, "s2orc_candidate_papers", file.key)
    assert candidates.num_rows == 4  # the erratum without a bibliography is rejected
    with duckdb.connect(str(settings.warehouse), read_only=True) as connection:
        sentences = connection.execute(
            "SELECT count(*), count(DISTINCT paper_id), sum(CASE WHEN cite_worthy THEN 1 ELSE 0 END) "
            "FROM citeworth.sentences"
        ).fetchone()
    print("\nS2AG CiteWorth sentences (rows, papers, cite-worthy):", sentences)
    # CiteWorth keeps cited paragraphs of permissible sections only: most of these papers' sections are not
    assert sentences[0] > 10 and sentences[2] > 0
    card = (settings.data / "exports" / "citeworth").rglob("README.md")
    assert any(f"release `{RELEASE}`" in path.read_text() for path in card)


def test_citesum_finds_cited_abstracts_by_matched_paper_id(built):
    settings, _, _, file, _ = built
    catalogue = lake.read_partition(settings.lake, "citesum_cited_abstracts")
    linked = {
        span["linked_paper_id"]
        for row in lake.read_partition(settings.lake, "s2orc_paragraphs", file.key).to_pylist()
        for span in row["cite_spans"]
        if span["linked_paper_id"]
    }
    assert set(catalogue.column("paper_id").to_pylist()) == linked  # every cited paper has a written abstract
    assert all(len(text.split()) >= 20 for text in catalogue.column("abstract").to_pylist())


def test_opening_the_ui_after_the_build_requests_nothing(built):
    """Issue 33: a sensor's first evaluation (no cursor, as when `citeworth ui` opens) asks for no run of bytes the
    build read: the staged metadata and the full-text file are built as they are now."""
    from citeworth_assets.defs.s2ag.metadata import s2ag_metadata_sensor
    from citeworth_assets.defs.s2orc.sensors import s2orc_dump_sensor
    from citeworth_assets.resources import PlatformResource

    settings, _, instance, _, _ = built
    resource = PlatformResource(dumps=str(settings.dumps), data=str(settings.data), shard_settle_seconds=0)
    for sensor in (s2ag_metadata_sensor, s2orc_dump_sensor):
        result = sensor(dg.build_sensor_context(instance=instance, resources={"citeworth": resource}))
        requests = [] if isinstance(result, dg.SkipReason) else list(result.run_requests or [])
        assert requests == [], sensor.name
