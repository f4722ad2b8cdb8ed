"""The arXiv/MAG commands: citation contexts of a plain folder without the graph, the arXiv/MAG/OpenAlex sample
dumps; ``citeworth build`` builds these sources like every other (:mod:`citeworth_assets.build_plan`)."""

import itertools
import time
from pathlib import Path

import click

from citeworth_assets.cli.app import default_option, input_option, main, out_folder_option

SAMPLE_WORKS = 200


def _sentences_option(side: str):
    """``--sentences-before`` or ``--sentences-after``: the window on one side (unset: the published 1)."""
    return click.option(
        f"--sentences-{side}",
        type=click.IntRange(min=0),
        help=f"Sentences {side} the citing sentence (default 1, as published).",
    )


@main.command("contexts")
@input_option(
    "--papers", "unarXive 2020 folder (or tarball) of <arxiv id>.txt files, or an unarXive 2022 .jsonl[.gz] file."
)
@click.option(
    "--refs-db",
    type=click.Path(exists=True, dir_okay=False),
    help="refs.db (default: the one beside or inside --papers).",
)
@_sentences_option("before")
@_sentences_option("after")
@click.option("--words", type=click.IntRange(min=0), help="A window of N words on each side instead of sentences.")
@click.option(
    "--preset",
    type=click.Choice(["unarxive_published", "unarxive_script"]),
    help="Named settings instead of a window: unarxive_published = how unarXive's published citation_contexts.csv "
    "was made (the citing sentence alone); unarxive_script = its script's defaults (one sentence each side).",
)
@click.option(
    "--tokenizer",
    type=click.Choice(["unarxive_published", "untrained"]),
    default="unarxive_published",
    show_default=True,
    help="Sentence splitter: NLTK's trained English Punkt as unarXive used it (nltk 3.4.5), or an untrained Punkt "
    "knowing only the eight added abbreviations.",
)
@click.option(
    "--out", required=True, type=click.Path(dir_okay=False), help="CSV file to write (unarXive's context format)."
)
def contexts(
    papers: str,
    refs_db: str | None,
    sentences_before: int | None,
    sentences_after: int | None,
    words: int | None,
    preset: str | None,
    tokenizer: str,
    out: str,
) -> None:
    """Write the citation contexts of a folder of papers in unarXive's CSV format (U+241E fields, U+241F lists, None
    for missing), with the published rules: candidates are bibliography items with a cited MAG id."""
    from citeworth_assets.lib.arxiv import unarxive2020, unarxive2022
    from citeworth_assets.lib.arxiv.context_csv import CsvRepairs, write_contexts_csv
    from citeworth_assets.lib.arxiv.context_export import contexts_2020, contexts_2022
    from citeworth_assets.lib.arxiv.contexts import PRESETS, PUBLISHED_SETTINGS, ContextSettings
    from citeworth_assets.lib.arxiv.dump_contexts import paper_folder
    from citeworth_assets.lib.arxiv.dump_files import (
        JSON_LINES,
        UNARXIVE_2020,
        DumpFile,
    )
    from citeworth_assets.lib.jsonl import IssueLog

    if words is not None and (sentences_before is not None or sentences_after is not None):
        raise click.UsageError("give either --words or --sentences-before/--sentences-after, not both")
    if preset is not None and (words is not None or sentences_before is not None or sentences_after is not None):
        raise click.UsageError("give either --preset or a window (--words, --sentences-before/--sentences-after)")
    if preset is not None:
        window = PRESETS[preset]
    elif words is not None:
        window = ContextSettings("words", words, words)
    else:
        before = PUBLISHED_SETTINGS.before if sentences_before is None else sentences_before
        after = PUBLISHED_SETTINGS.after if sentences_after is None else sentences_after
        window = ContextSettings("sentences", before, after, tokenizer)
    source, log = Path(papers), IssueLog()
    started = time.perf_counter()
    if source.is_file() and JSON_LINES.search(source.name):
        rows = [row for paper in unarxive2022.iter_papers(source, log) for row in contexts_2022(paper, window, log)]
    else:
        with paper_folder(DumpFile(UNARXIVE_2020, source)) as folder:
            refs = Path(refs_db) if refs_db else folder / "refs.db"
            if not refs.is_file():
                raise click.UsageError(f"no refs.db beside or inside {source}; give --refs-db")
            check_2020(source, refs, log)
            unreadable = [issue for issue in log.issues if issue.kind == "unreadable_refs_db"]
            if unreadable:
                why = unreadable[0].message.removesuffix(unarxive2020.KEPT_WITHOUT_REFERENCES)
                raise click.ClickException(f"{refs}: {why}; no contexts written")
            extra = IssueLog()  # what only the context pass sees (its file names are those of an unpacked tarball)
            rows = contexts_2020(folder, refs, window, extra)
            seen = set(log.counts)
            for issue in extra.issues:
                if issue.kind not in seen:
                    log.add(issue)
    repairs = CsvRepairs()
    lines = write_contexts_csv((row.as_row() for row in rows), out, repairs)
    click.echo(f"wrote {lines} contexts to {Path(out).resolve()} ({time.perf_counter() - started:.1f} s)")
    if repairs.warning():
        click.echo(f"warning: {repairs.warning()}", err=True)
    report_issues(log)


SHOWN_ISSUES = 20


def check_2020(source: Path, refs: Path, log) -> None:
    """Read a 2020 folder as the graph's ingestion does, so that the command reports the same kinds of problem."""
    from citeworth_assets.lib.arxiv import unarxive2020

    database = unarxive2020.open_refs_db(refs, log)
    try:
        for _ in unarxive2020.iter_papers(source, log, database):
            pass
        if database is not None:
            for _ in unarxive2020.iter_references(database, log):
                pass
    finally:
        if database is not None:
            database.close()


def report_issues(log) -> None:
    """Counts by kind and the first problems, each with its file and line, on standard error (each once)."""
    issues = list(dict.fromkeys(log.issues))
    counts: dict[str, int] = {}
    for issue in issues:
        counts[issue.kind] = counts.get(issue.kind, 0) + 1
    for kind, count in sorted(counts.items()):
        click.echo(f"issues: {kind}: {count}", err=True)
    for issue in issues[:SHOWN_ISSUES]:
        click.echo(f"  {issue}", err=True)
    if len(issues) > SHOWN_ISSUES:
        click.echo(f"  ... and {len(issues) - SHOWN_ISSUES} more", err=True)


def write_sample_dumps(
    out: Path,
    papers_2020: int = 30,
    papers_2022: int = 20,
    seed: int = 13,
    source_papers: int = 0,
    works: int | None = None,
    papers_2024: int = 6,
    works_2026: int = 25,
) -> dict:
    """The arXiv, MAG, OpenAlex and arXiv-metadata sample dumps in the dump-root layout (docs/arxiv.md): an unarXive
    2020 folder with its damage cases, an unarXive 2022 file, every catalogue source, and with ``source_papers`` a
    bulk LaTeX source dump (arxiv-src/arXiv_src_2101_001.tar, Saier 2019 §4.2.3). (One 2020 part only: the
    generator names papers by index, so two parts would hold the same arXiv ids.)

    ``works``: a catalogue of that many works (the special sample works, then generated ones, streamed to the files);
    the papers cite the special works and the first ``CITED_POOL`` generated ones, so the same seed gives the same
    papers for every catalogue of at least that size.

    Today's layouts beside them (leaving the files above as they were): ``papers_2024`` unarXive 2024 papers (text
    as a ``sections`` object) in their own file of the ``unarxive-2022/`` folder, and an OpenAlex 2026 snapshot of
    ``works_2026`` further works (JSON lines, a Parquet copy and manifests, under ``openalex/data/``), each with
    the faults of its generator (:mod:`citeworth_assets.samples.unarxive_2024`,
    :mod:`citeworth_assets.samples.openalex_2026`); 0 leaves either out."""
    from citeworth_assets.lib.arxiv.dump_files import (
        ARXIV_METADATA_DIR,
        MAG_DIR,
        OPENALEX_DIR,
        UNARXIVE_2020,
        UNARXIVE_2022,
    )
    from citeworth_assets.lib.arxiv_sources.source_dumps import SOURCE_DIR
    from citeworth_assets.samples.arxiv import write_unarxive_2020, write_unarxive_2022
    from citeworth_assets.samples.arxiv_sources import write_source_dump
    from citeworth_assets.samples.mag import (
        CITED_POOL,
        iter_filler_works,
        sample_works,
        scaled_works,
        write_arxiv_metadata,
        write_mag_dump,
        write_openalex_snapshot,
    )
    from citeworth_assets.samples.openalex_2026 import works_2026 as new_works
    from citeworth_assets.samples.openalex_2026 import write_openalex_2026_snapshot
    from citeworth_assets.samples.unarxive_2024 import write_unarxive_2024

    special, filler = scaled_works(seed, works) if works is not None else (sample_works(seed, SAMPLE_WORKS), 0)
    cited = [*special, *iter_filler_works(seed, min(filler, CITED_POOL))]
    edges = [(a.mag_id, b.mag_id) for a, b in zip(special, special[1:]) if a.kind == "plain"][: SAMPLE_WORKS // 2]
    _, refs_2020 = write_unarxive_2020(out / UNARXIVE_2020 / "papers", cited, papers_2020, seed)
    _, refs_2022 = write_unarxive_2022(out / UNARXIVE_2022 / "arXiv_src_sample.jsonl.gz", cited, papers_2022, seed)
    catalogue = lambda: itertools.chain(special, iter_filler_works(seed, filler))  # noqa: E731 (streamed twice)
    write_mag_dump(out / MAG_DIR, catalogue(), edges)
    write_openalex_snapshot(out / OPENALEX_DIR, catalogue(), edges, per_part=100 if not filler else 50_000)
    write_arxiv_metadata(out / ARXIV_METADATA_DIR / "arxiv-metadata.jsonl", special)
    today: dict = {
        "papers_2024": 0,
        "references_2024": 0,
        "works_2026": 0,
        "edges_2026": 0,
        "edges_2026_in_catalogue": 0,
    }
    if papers_2024:
        written = write_unarxive_2024(out / UNARXIVE_2022 / "unarxive_2024_sample.jsonl.gz", special, papers_2024, seed)
        today.update(papers_2024=len(written["papers"]), references_2024=written["references"])
    if works_2026:
        added = new_works(seed, works_2026)
        edges_2026 = [(a.mag_id, b.mag_id) for a, b in zip(added, added[1:])]
        snapshot = write_openalex_2026_snapshot(out / OPENALEX_DIR, added, edges_2026)
        today.update(
            works_2026=len(snapshot["written"]),
            edges_2026=len(snapshot["edges"]),
            edges_2026_in_catalogue=len(snapshot["edges_in_catalogue"]),
        )
    sources = write_source_dump(out / SOURCE_DIR, special, source_papers, seed) if source_papers else {"papers": {}}
    return {
        "source_papers": len(sources["papers"]),
        "works": len(special) + filler,
        "edges": len(edges),
        "references_2020": len(refs_2020),
        "references_2022": len(refs_2022),
        "papers_2020": papers_2020,
        "papers_2022": papers_2022,
        **today,
    }


@main.command("generate-sample-arxiv")
@out_folder_option("Dump root to write the sources into.")
@default_option("--papers", 30, click.IntRange(min=5), "unarXive 2020 papers.")
@default_option("--papers-2022", 20, click.IntRange(min=1))
@default_option(
    "--source-papers",
    8,
    click.IntRange(min=0),
    "LaTeX submissions in the bulk source dump arxiv-src/arXiv_src_2101_001.tar (and a PDF-only, a corrupt one).",
)
@click.option(
    "--works",
    default=None,
    type=click.IntRange(min=1),
    help="Works in the MAG and OpenAlex catalogue (default: the 219 special sample works only); the papers cite the "
    "same works for every size from 50,000 on, so catalogues of different sizes can be compared.",
)
@default_option(
    "--papers-2024",
    6,
    click.IntRange(min=0),
    "unarXive 2024 papers (text as a sections object) in unarxive-2022/unarxive_2024_sample.jsonl.gz; 0: none.",
)
@default_option(
    "--works-2026",
    25,
    click.IntRange(min=0),
    "Further works in an OpenAlex 2026 snapshot (openalex/data/: JSON lines, a Parquet copy, manifests); 0: none.",
)
@default_option("--seed", 13, int)
def generate_sample_arxiv(
    out: str,
    papers: int,
    papers_2022: int,
    source_papers: int,
    works: int | None,
    papers_2024: int,
    works_2026: int,
    seed: int,
) -> None:
    """Write deterministic unarXive 2020 (a folder with damage cases), unarXive 2022 and 2024, MAG, OpenAlex (the
    layout before 2026 and the 2026 one) and arXiv metadata sample dumps under one dump root, and a bulk LaTeX source
    dump (natbib, biblatex, \\input, .bbl, a PDF-only and a corrupt submission)."""
    started = time.perf_counter()
    try:
        summary = write_sample_dumps(
            Path(out), papers, papers_2022, seed, source_papers, works, papers_2024=papers_2024, works_2026=works_2026
        )
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--works") from None
    click.echo(f"wrote the arXiv/MAG sample dumps to {Path(out).resolve()} ({time.perf_counter() - started:.1f} s)")
    click.echo(f"summary: {summary}")


def has_arxiv_sources(dumps) -> bool:
    """Whether the dump root holds unarXive dump files or a MAG/OpenAlex catalogue (an OpenAlex folder counts even
    without works parts: its catalogue step then fails naming the layouts looked for)."""
    from citeworth_assets.lib.arxiv.dump_files import (
        OPENALEX_DIR,
        catalogue_files,
        discover_dump_files,
    )
    from citeworth_assets.lib.arxiv_sources.source_dumps import discover_source_dumps

    found = catalogue_files(dumps) or discover_dump_files(dumps) or discover_source_dumps(dumps)
    return bool(found or (dumps / OPENALEX_DIR).is_dir())
