"""CiteWorth over arXiv (CiteWorth §3 applied to unarXive 2022 papers): each unarXive 2022 dump file (or LaTeX
source dump converted to that shape) is rendered as S2ORC papers with GROBID-style citation spans, put through the
candidate filter and the configured rule set, and its accepted paragraphs join the S2ORC ones in the per-field
paragraphs, so one build gives CiteWorth sentences from every source."""

import time

import dagster as dg

from citeworth_assets.defs.arxiv.partitions import arxiv_dump_files
from citeworth_assets.defs.automation import follows_shards
from citeworth_assets.defs.outputs import kept_and_dropped_specs
from citeworth_assets.lib.arxiv.dump_files import UNARXIVE_2022, converted_root, find_dump_file
from citeworth_assets.lib.citeworth.partition import ARXIV_FILE_DIMENSION, clean_partition, cleaning_run
from citeworth_assets.lib.citeworth.unarxive_input import arxiv_paper_inputs
from citeworth_assets.lib.sentences import splitter
from citeworth_assets.resources import CiteworthSettings


@dg.multi_asset(
    specs=kept_and_dropped_specs(
        "citeworth",
        ["arxiv_papers"],
        kept=(
            "citeworth_arxiv_paragraphs",
            "Paragraphs of unarXive 2022 papers (rendered as S2ORC papers with GROBID-style citation spans) accepted "
            "by the configured CiteWorth rule set, per arXiv dump file; unarXive 2020 files have no bibliography "
            "entries to render and give none.",
        ),
        dropped=(
            "citeworth_arxiv_rejections",
            "arXiv papers and paragraphs the candidate filter or the rule set dropped, with the reason.",
        ),
        automation_condition=follows_shards(),
    ),
    partitions_def=arxiv_dump_files,
)
def citeworth_arxiv_cleaning(context: dg.AssetExecutionContext, citeworth: CiteworthSettings):
    settings, key, rules = citeworth.settings, context.partition_key, citeworth.rule_set
    dump = find_dump_file(settings.require_dumps(), key, converted_root(settings.data))  # LaTeX sources too
    started = time.perf_counter()
    tables = ("citeworth_arxiv_paragraphs", "citeworth_arxiv_rejections")
    step = "citeworth_arxiv_cleaning"
    with cleaning_run(settings.lake, step, tables, rules.name, key, ARXIV_FILE_DIMENSION, candidate_filter=True) as run:
        papers = arxiv_paper_inputs(dump.path, rules.name, run) if dump.release == UNARXIVE_2022 else ()
        cleaned, errors = clean_partition(papers, rules, splitter(citeworth.splitter), run)
    by_reason = {**run.tallies["s2orc"].by_reason, **run.tally.by_reason}
    common = {"rule_set": rules.name, "splitter": citeworth.splitter, "release": dump.release}
    yield dg.MaterializeResult(
        asset_key="citeworth_arxiv_paragraphs",
        metadata={
            **common,
            "papers_cleaned": cleaned,
            "paragraphs": run.kept.rows_written,
            "seconds": round(time.perf_counter() - started, 1),
        },
    )
    yield dg.MaterializeResult(
        asset_key="citeworth_arxiv_rejections",
        metadata={
            **common,
            "drops": run.dropped.rows_written,
            "internal_errors": len(errors),
            "by_reason": dg.MetadataValue.json(dict(sorted(by_reason.items()))),
        },
    )


citeworth_arxiv_assets = [citeworth_arxiv_cleaning]
