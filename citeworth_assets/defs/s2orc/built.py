"""Which shards are built, read from the Dagster instance: the one record the CLI, the dump sensor and a backfill share.

A shard's ingestion asset ``s2orc_papers`` returns the identity of the shard's two input files (release, shard,
sizes, modification times) as its **data version** (``dg.DataVersion``) and, readable, in its metadata. Why the
data version: it is Dagster's own field for "what this materialization holds", stored with every materialization
whoever ran it (``citeworth build`` in-process, a run the sensor or a UI backfill launched, a run pod), so no
second record (a sensor cursor, a file in the lake) can drift from the instance; a forced rebuild of unchanged
files gives the same version, so Dagster's staleness does not see a change. An observable source asset per shard
would have said the same thing at the price of an observation run per shard and partitioned observations.

A shard is **built** when, for its partition:

- the latest ``s2orc_papers`` materialization carries the data version of the files now in the dump root
  (a replaced file has another size or modification time: the shard runs again);
- every other asset of the shard job has a materialization at least as recent (a run that failed after
  ingestion leaves the shard unbuilt);
- the latest ``citeworth_paragraphs`` materialization was made with the configured rule set and sentence
  splitter (another rule set needs its own cleaning of the shard).

Only a few queries per asset, whatever the number of shards, and no file is read: fit for a sensor.
"""

from __future__ import annotations

from collections.abc import Iterable

import dagster as dg

from citeworth_assets.lib.s2ag.layout import S2agFile
from citeworth_assets.lib.s2orc.shards import Shard

INGESTED = dg.AssetKey("s2orc_papers")
CLEANED = dg.AssetKey("citeworth_paragraphs")
# Every asset the shard job materializes for a shard, the ingestion first.
SHARD_ASSETS = (
    INGESTED,
    dg.AssetKey("s2orc_candidate_papers"),
    dg.AssetKey("s2orc_paper_rejections"),
    dg.AssetKey("s2orc_paragraphs"),
    CLEANED,
    dg.AssetKey("citeworth_rejections"),
)


def input_version(shard: Shard | S2agFile) -> str:
    """The data version of a shard's ingestion: its release, index and both files' sizes and modification times."""
    return f"{shard.release}/{shard.index}:" + ":".join(map(str, shard.signature()))


def input_metadata(shard: Shard | S2agFile) -> dict:
    """The input files' identity as materialization metadata, for people (the decision reads the data version)."""
    paths = getattr(shard, "input_files", None) or (shard.metadata, shard.pdf_parses)  # an S2AG file names its own
    signature = shard.signature()
    return {
        "release": shard.release,
        "shard": shard.index,
        "input_files": dg.MetadataValue.json(
            {
                str(path): {"bytes": size, "mtime": mtime}
                for path, size, mtime in zip(paths, signature[::2], signature[1::2])
            }
        ),
    }


def _latest(instance: dg.DagsterInstance, key: dg.AssetKey, partitions: set[str]) -> dict[str, int]:
    return dict(instance.get_latest_storage_id_by_partition(key, dg.DagsterEventType.ASSET_MATERIALIZATION, partitions))


def _materializations(
    instance: dg.DagsterInstance, key: dg.AssetKey, storage_ids: Iterable[int]
) -> dict[str, dg.AssetMaterialization]:
    ids = sorted(storage_ids)
    if not ids:
        return {}
    records = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=key, storage_ids=ids), limit=len(ids)
    ).records
    return {record.partition_key: record.asset_materialization for record in records}


def built_shards(
    instance: dg.DagsterInstance, shards: Iterable[Shard | S2agFile], rules: str, splitter: str
) -> set[str]:
    """Keys of the shards whose files, rule set and splitter match what the instance recorded as built."""
    shards = {shard.key: shard for shard in shards}
    if not shards:
        return set()
    partitions = set(shards)
    latest = {key: _latest(instance, key, partitions) for key in SHARD_ASSETS}
    ingested = _materializations(instance, INGESTED, latest[INGESTED].values())
    cleaned = _materializations(instance, CLEANED, latest[CLEANED].values())
    built = set()
    for key, shard in shards.items():
        papers = ingested.get(key)
        if papers is None or papers.tags.get("dagster/data_version") != input_version(shard):
            continue
        ingested_at = latest[INGESTED][key]
        if any(latest[asset].get(key, -1) < ingested_at for asset in SHARD_ASSETS):
            continue
        metadata = cleaned[key].metadata if key in cleaned else {}
        made_with = tuple(metadata[name].value if name in metadata else None for name in ("rule_set", "splitter"))
        if made_with == (rules, splitter):
            built.add(key)
    return built


IN_PROGRESS = [
    dg.DagsterRunStatus.QUEUED,
    dg.DagsterRunStatus.NOT_STARTED,
    dg.DagsterRunStatus.STARTING,
    dg.DagsterRunStatus.STARTED,
]


def shards_in_progress(instance: dg.DagsterInstance, job_name: str) -> set[str]:
    """Partitions with a queued or running run of the shard job: requesting them again would build them twice."""
    records = instance.get_run_records(dg.RunsFilter(job_name=job_name, statuses=IN_PROGRESS))
    return {record.dagster_run.tags.get("dagster/partition") for record in records} - {None}
