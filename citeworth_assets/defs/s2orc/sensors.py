"""Watches the dump root and turns each new or replaced S2ORC shard into a partition and a run."""

import json

import dagster as dg

from citeworth_assets.defs.automation import DumpSource
from citeworth_assets.defs.s2orc.built import (
    built_shards,
    input_version,
    shards_in_progress,
)
from citeworth_assets.defs.s2orc.partitions import s2orc_shards
from citeworth_assets.defs.sensing import dump_root_sensor
from citeworth_assets.lib.s2ag.sources import full_text_sources
from citeworth_assets.lib.s2orc.shards import incomplete_shards
from citeworth_assets.resources import CiteworthSettings

s2orc_shard_job = dg.define_asset_job(
    "s2orc_shard_job",
    selection=dg.AssetSelection.groups("s2orc") - dg.AssetSelection.assets("s2orc_duplicate_papers")
    | dg.AssetSelection.assets("citeworth_paragraphs", "citeworth_rejections"),
    description="Ingest one S2ORC shard (papers, candidate filter, paragraphs) and clean it with the CiteWorth rules "
    "(its CiteSum candidates wait for the cited-abstract catalogue of every shard: citesum_catalogue_job).",
    # Its steps form one chain, so a process per step buys no parallelism and pays the code import each time.
    executor_def=dg.in_process_executor,
)


INCOMPLETE = "_incomplete"  # cursor entry: half shards already logged, key -> problem


def _skip(dumps, halves) -> str:
    listed = "; ".join(map(str, halves))
    return f"every settled shard under {dumps} is built or requested" + (
        f" ({len(halves)} incomplete: {listed})" if halves else ""
    )


@dump_root_sensor(
    s2orc_shard_job,
    30,
    "Lists the dump root every 30 s; adds a partition and requests a run for each settled shard that the "
    "instance has not built from these files, rule set and splitter (see defs/s2orc/built.py).",
)
def s2orc_dump_sensor(context: dg.SensorEvaluationContext, citeworth: CiteworthSettings, dumps):
    """Adds a partition and requests a run for every shard whose two files are present, settled and not built.

    Whether a shard is built is read from the instance (:func:`built_shards`), the record ``citeworth build`` and
    UI backfills write too, so a shard built by any of them is not run again, and a replaced file is. A shard with
    a queued or running run is left alone. The cursor only remembers what this sensor requested (file identity,
    rule set, splitter), so that a failed run is not retried every 30 s, and the half shards it has logged.
    Only directory listings, stats and instance queries.
    """
    seen: dict = json.loads(context.cursor) if context.cursor else {}
    known = set(context.instance.get_dynamic_partitions(s2orc_shards.name))
    # Half shards (a file missing or empty) are not run; each is logged, and again whenever its problem changes.
    halves = incomplete_shards(dumps, settle_seconds=citeworth.shard_settle_seconds)
    reported = seen.get(INCOMPLETE, {})
    for half in halves:
        if reported.get(half.key) != half.problem:
            context.log.warning(f"incomplete shard {half} under {dumps}: not run until both files hold data")
    changed = {half.key: half.problem for half in halves} != reported
    seen[INCOMPLETE] = {half.key: half.problem for half in halves}
    half_keys = set(seen[INCOMPLETE])
    # S2AG full-text files are shards too, once their release's papers and abstracts are staged (lib/s2ag/sources.py)
    sources = full_text_sources(dumps, citeworth.shard_settle_seconds, citeworth.settings.lake)
    shards = [s for s in sources if s.key not in half_keys]
    rules, splitter = citeworth.rule_set.name, citeworth.splitter
    done = built_shards(context.instance, shards, rules, splitter) | shards_in_progress(
        context.instance, s2orc_shard_job.name
    )
    new_keys, run_requests = [], []
    for shard in shards:
        wanted = f"{input_version(shard)}:{rules}:{splitter}"
        if shard.key in done or seen.get(shard.key) == wanted:
            continue
        seen[shard.key] = wanted
        if shard.key not in known:
            new_keys.append(shard.key)
        run_requests.append(dg.RunRequest(partition_key=shard.key, run_key=f"{shard.key}:{wanted}"))
    if not run_requests:
        if changed:  # keep the cursor, so that the same half shard is not logged every evaluation
            return dg.SensorResult(skip_reason=_skip(dumps, halves), cursor=json.dumps(seen, sort_keys=True))
        return dg.SkipReason(_skip(dumps, halves))
    return dg.SensorResult(
        run_requests=run_requests,
        dynamic_partitions_requests=[s2orc_shards.build_add_request(new_keys)] if new_keys else [],
        cursor=json.dumps(seen, sort_keys=True),
    )


def _pending_shards(instance: dg.DagsterInstance, settings, force: bool) -> tuple[list[str], list[str], list[str]]:
    """The complete shards under the dump root (half shards are the CLI's to report), those not built from these
    files, rule set and splitter (all with ``force``), and a line per shard left as built."""
    dumps = settings.require_dumps()
    half_keys = {half.key for half in incomplete_shards(dumps)}
    shards = [shard for shard in full_text_sources(dumps) if shard.key not in half_keys]  # S2AG files included
    built = set() if force else built_shards(instance, shards, settings.rules, settings.splitter)
    notes = (
        [
            f"building {len(shards) - len(built)} of {len(shards)} shards from {dumps} into {settings.data} with "
            f"rule set {settings.rules}"
        ]
        if shards
        else []
    )
    notes += [
        f"[{number}/{len(shards)}] {shard.key}: built from these files already (--force rebuilds)"
        for number, shard in enumerate(shards, 1)
        if shard.key in built
    ]
    return [shard.key for shard in shards], [shard.key for shard in shards if shard.key not in built], notes


def _shard_progress(value) -> str:
    issues = (value("s2orc_papers", "read_issues") or 0) + (value("s2orc_paragraphs", "read_issues") or 0)
    return (
        f"{value('s2orc_papers', 'papers')} papers, {value('s2orc_candidate_papers', 'candidates')} candidates, "
        f"{value('s2orc_paragraphs', 'paragraphs')} paragraphs, "
        f"{value('citeworth_paragraphs', 'paragraphs')} CiteWorth paragraphs, {issues} read issues"
    )


shard_source = DumpSource("shards", s2orc_shard_job.name, _pending_shards, _shard_progress, s2orc_shards)
