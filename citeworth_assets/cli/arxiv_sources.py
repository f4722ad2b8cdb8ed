"""``citeworth arxiv-sources``: arXiv LaTeX sources to unarXive 2022 papers without the graph (Saier 2019 §4.2.3),
with the same library functions and the same file layout as the ``arxiv_source_papers`` asset."""

import csv
import time
from collections import Counter
from pathlib import Path

import click

from citeworth_assets.cli.app import default_option, input_option, main, out_folder_option


@main.command("arxiv-sources")
@input_option(
    "--sources",
    "A bulk source dump (arXiv_src_YYMM_NNN.tar), a folder of <id>.gz submissions, or a folder of unpacked "
    "submission folders; repeat for several.",
    multiple=True,
)
@out_folder_option(
    "Folder to write into: unarxive-2022/<name>.latex.jsonl.gz (a dump root for `citeworth build`) and "
    "outcomes/<name>.csv."
)
@default_option("--workers", 1, click.IntRange(min=1), "Worker processes.")
@default_option(
    "--timeout", 120.0, click.FloatRange(min=1), "Seconds one submission may take before it is reported as a timeout."
)
@click.option(
    "--single-reading",
    is_flag=True,
    help="Read each document once, as the thesis's pipeline did (no rescue pass for citations the reader drops).",
)
def arxiv_sources(sources: tuple[str, ...], out: str, workers: int, timeout: float, single_reading: bool) -> None:
    """Convert arXiv LaTeX sources into papers in the unarXive 2022 shape: flattened, citation commands
    normalised, read with pandoc, formulas/figures/tables/references as tokens, one {{cite:...}} marker per
    cited key linked to its bibliography entry. Every submission gets an outcome row (converted, pdf_only,
    no_tex, corrupt_archive, no_main_file, conversion_failed, timeout) with the seconds it took."""
    from citeworth_assets.lib.arxiv_sources.archive import iter_sources
    from citeworth_assets.lib.arxiv_sources.runner import convert_all, converted_path, outcome_columns, write_converted

    root = Path(out)
    for source in map(Path, sources):
        started = time.perf_counter()
        target = converted_path(root, source)
        results = convert_all(iter_sources([source]), workers, timeout, rescue_citations=not single_reading)
        rows = write_converted(results, target)
        outcomes = root / "outcomes" / f"{target.name.split('.')[0]}.csv"
        outcomes.parent.mkdir(parents=True, exist_ok=True)
        partial = outcomes.with_name(f".{outcomes.name}.partial")  # renamed when whole: no half-written table
        with open(partial, "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=outcome_columns())
            writer.writeheader()
            writer.writerows(rows)
        partial.replace(outcomes)
        counts = Counter(row["outcome"] for row in rows)
        click.echo(
            f"{source}: {counts.get('converted', 0)} of {len(rows)} submissions converted "
            f"({', '.join(f'{k} {v}' for k, v in sorted(counts.items()) if k != 'converted') or 'no failures'}) "
            f"in {time.perf_counter() - started:.1f} s -> {target}"
        )
        for row in rows:
            if row["outcome"] != "converted":
                click.echo(
                    f"  {row['arxiv_id']}: {row['outcome']}{' (' + row['detail'] + ')' if row['detail'] else ''}"
                )
        click.echo(f"  outcomes: {outcomes}")
