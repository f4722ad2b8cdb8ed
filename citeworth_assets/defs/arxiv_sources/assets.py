"""The conversion of one bulk LaTeX source dump into unarXive 2022 papers (Saier 2019 §4.2.3) and its outcomes.

The papers are written under ``<data>/converted/unarxive-2022/`` and the file is added as a partition of
``arxiv_dump_files``, so the arXiv ingestion, resolution and contexts (eager) follow in the same build."""

import os
import time
from collections import Counter

import dagster as dg

from citeworth_assets.defs.arxiv.partitions import arxiv_dump_files
from citeworth_assets.defs.arxiv_sources.partitions import arxiv_source_dumps
from citeworth_assets.defs.automation import follows_inputs
from citeworth_assets.defs.sensing import input_version
from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv.dump_files import UNARXIVE_2022, DumpFile, converted_root
from citeworth_assets.lib.arxiv_sources.archive import iter_sources
from citeworth_assets.lib.arxiv_sources.convert import DEFAULT_TIMEOUT, OUTCOMES
from citeworth_assets.lib.arxiv_sources.outcomes import DIMENSION, OUTCOMES_TABLE, outcome_schema
from citeworth_assets.lib.arxiv_sources.runner import convert_all, converted_path, write_converted
from citeworth_assets.lib.arxiv_sources.source_dumps import find_source_dump
from citeworth_assets.resources import PlatformResource


class SourceConversionConfig(dg.Config):
    """Worker processes (0: one per core), the seconds one submission may take before it is a ``timeout``, and
    whether citations the reader drops are rescued by a second reading (False: one reading, as the thesis)."""

    workers: int = 0
    timeout_seconds: float = DEFAULT_TIMEOUT
    rescue_citations: bool = True


@dg.multi_asset(
    specs=[
        dg.AssetSpec(
            "arxiv_source_papers",
            group_name="arxiv_sources",
            kinds={"jsonl"},
            automation_condition=follows_inputs(),
            description=(
                "The submissions of one arXiv bulk source dump converted to papers in the unarXive 2022 shape "
                "(Saier 2019 §4.2.3): flattened, citation commands normalised, read with pandoc, formulas, figures, "
                "tables and references as tokens, one {{cite:...}} marker per cited key linked to its bibliography "
                "entry. Written to <data>/converted/unarxive-2022/ and ingested as an arXiv dump file."
            ),
        ),
        dg.AssetSpec(
            OUTCOMES_TABLE,
            group_name="arxiv_sources",
            kinds={"parquet"},
            automation_condition=follows_inputs(),
            description="One row per submission: " + "; ".join(f"{k}: {v}" for k, v in OUTCOMES.items()) + ".",
        ),
    ],
    partitions_def=arxiv_source_dumps,
)
def arxiv_source_conversion(
    context: dg.AssetExecutionContext, config: SourceConversionConfig, citeworth: PlatformResource
):
    settings, key = citeworth.settings, context.partition_key
    source = find_source_dump(settings.require_dumps(), key)
    target = converted_path(converted_root(settings.require_data()), source.path)
    workers = config.workers or os.cpu_count() or 1
    started = time.perf_counter()
    results = convert_all(
        iter_sources([source.path]), workers, config.timeout_seconds, rescue_citations=config.rescue_citations
    )
    rows = write_converted(results, target)
    seconds = time.perf_counter() - started
    lake.write_partition(settings.lake, OUTCOMES_TABLE, outcome_schema(), rows, key, DIMENSION)
    dump_key = DumpFile(UNARXIVE_2022, target).key
    if not context.instance.has_dynamic_partition(arxiv_dump_files.name, dump_key):
        context.instance.add_dynamic_partitions(arxiv_dump_files.name, [dump_key])
    counts = Counter(row["outcome"] for row in rows)
    failed = "\n".join(
        f"- `{r['arxiv_id']}`: {r['outcome']} {r['detail'] or ''}" for r in rows if r["outcome"] != "converted"
    )
    yield dg.MaterializeResult(
        asset_key="arxiv_source_papers",
        data_version=dg.DataVersion(input_version(source)),  # the record of what was built: see defs/sensing.py
        metadata={
            "submissions": len(rows),
            "converted": counts.get("converted", 0),
            "converted_file": str(target),
            "arxiv_dump_file": dump_key,
            "seconds_per_submission": round(seconds / max(len(rows), 1), 3),
            "markers": sum(r["n_markers"] for r in rows),
            "markers_linked": sum(r["n_markers_linked"] for r in rows),
            "workers": workers,
        },
    )
    yield dg.MaterializeResult(
        asset_key=OUTCOMES_TABLE,
        metadata={
            "outcomes": dg.MetadataValue.json(dict(sorted(counts.items()))),
            "not_converted": dg.MetadataValue.md(failed or "none"),
        },
    )
