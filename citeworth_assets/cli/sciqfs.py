"""``citeworth sciqfs``: the ROUGE-SciQFS dataset (ROUGE-SciQFS §3) from a folder of Science-Parse JSON, without the
graph: the library steps the graph's assets run (:mod:`lib.sciqfs.dataset`), the same release layout, and
optionally the untrained baselines of §4 (cosine similarity on TF-IDF) on it."""

from pathlib import Path

import click

from citeworth_assets.cli.app import checked_settings, input_option, main, out_folder_option
from citeworth_assets.cli.core import SPLITTER_OPTION

CHEAP_EMBEDDINGS = ("TFIDF-Words", "TFIDF-Chars")


def _print_baselines(out: Path) -> None:
    """The untrained baselines the graph runs in every build (cosine similarity on TF-IDF words and character
    trigrams, fitted on the training split), scored on the test split, or on every example when there is none."""
    from citeworth_assets.lib.sciqfs.release import release_documents
    from citeworth_assets.lib.sciqfs.tracking import baseline_documents
    from citeworth_models.sciqfs.baselines import BaselineSettings, format_table, run_baselines

    if not release_documents(out, "all"):
        click.echo("baselines: no examples to score")
        return
    train, test, note = baseline_documents(out, "train", "test", score_all_when_no_test=True)
    if note:
        click.echo(f"baselines: {note} (the rankers are not trained)")
    rows = run_baselines(train, test, BaselineSettings(embeddings=CHEAP_EMBEDDINGS, classifiers=("cosine",)))
    click.echo(f"\nbaselines on {len(test)} examples (Table 3; mean ± standard deviation over examples):")
    click.echo(format_table(rows))


@main.command("sciqfs")
@input_option(
    "--science-parse", "Folder of Science-Parse JSON files (one paper per *.json).", "folder", file_okay=False
)
@out_folder_option(
    "Folder for the tables, the release (JSONL + Parquet per split) and the statistics; replaced as a whole."
)
@click.option(
    "--abstracts",
    type=click.Path(exists=True, dir_okay=False),
    help="JSON lines with title and abstract (e.g. the arXiv metadata snapshot): the queries of references matched "
    "by normalised title.",
)
@click.option(
    "--seed", default=13, show_default=True, type=int, help="Seed of the train/validation/test split by citing paper."
)
@click.option(
    "--rouge-n",
    default=2,
    show_default=True,
    type=click.IntRange(1, 9),
    help="N of the ROUGE-N F1 the greedy augmentation maximises.",
)
@click.option(
    "--max-sentences", type=click.IntRange(min=1), help="Skip (and count) papers longer than this; no limit by default."
)
@click.option(
    "--augment/--no-augment", default=True, show_default=True, help="Run the greedy ROUGE augmentation (§3.5)."
)
@click.option(
    "--baselines",
    is_flag=True,
    help="Also print the cosine-similarity baselines on TF-IDF words and character trigrams.",
)
@SPLITTER_OPTION
def sciqfs(
    folder: str,
    out: str,
    abstracts: str | None,
    seed: int,
    rouge_n: int,
    max_sentences: int | None,
    augment: bool,
    baselines: bool,
    splitter: str | None,
) -> None:
    """Build ROUGE-SciQFS examples from Science-Parse JSON: Papers / References / Citations tables, one example per
    (paper, reference) with a label per sentence, greedy ROUGE augmentation, splits by citing paper, the release and
    Table 1. Files that cannot be read are counted and reported; the others are still built."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from citeworth_assets.lib.jsonl import IssueLog
    from citeworth_assets.lib.lake import replaced_folder
    from citeworth_assets.lib.sciqfs.augmentation import AugmentationSettings
    from citeworth_assets.lib.sciqfs.dataset import DatasetSettings, build_dataset
    from citeworth_assets.lib.sciqfs.examples import ExampleSettings
    from citeworth_assets.lib.sciqfs.science_parse import catalogue_abstracts, read_science_parse_folder
    from citeworth_assets.lib.sciqfs.splits import SplitSettings
    from citeworth_assets.lib.sentences import splitter as sentence_splitter
    from citeworth_assets.lib.warehouse import markdown_table

    name = checked_settings(splitter=splitter).splitter
    settings = DatasetSettings(
        examples=ExampleSettings(max_sentences=max_sentences),
        augmentation=AugmentationSettings(rouge_type=f"rouge{rouge_n}"),
        splits=SplitSettings(seed=seed),
        augment=augment,
    )
    out_dir, log = Path(out), IssueLog()
    catalogue = catalogue_abstracts(Path(folder), Path(abstracts) if abstracts else None, log)
    with replaced_folder(out_dir) as staging:  # a crash leaves the previous folder, never half a dataset
        papers = read_science_parse_folder(Path(folder), log)
        report = build_dataset(papers, staging, sentence_splitter(name).split, log, settings, catalogue)
        if not report["papers"]:  # raised inside the block: the previous output stays
            raise click.ClickException(f"no paper read from {folder} (expected Science-Parse *.json files)")
    click.echo(
        f"{report['papers']} papers, {report['references']} references, {report['citations']} citations -> "
        f"{report['examples']} examples {report['rows_per_split']} in {out_dir.resolve()}"
    )
    skipped = ", ".join(f"{reason} {count}" for reason, count in sorted(report["skipped_pairs"].items()))
    click.echo(
        f"skipped (paper, reference) pairs: {skipped or 'none'}; "
        f"unmatched citing sentences: {report['unmatched_citing_sentences']}"
    )
    click.echo("\nTable 1 (positives before / after the ROUGE augmentation):")
    statistics = pq.read_table(out_dir / "statistics.parquet").to_pylist()
    click.echo(
        markdown_table(
            pa.Table.from_pylist(
                [{k: round(v, 2) if isinstance(v, float) else v for k, v in row.items()} for row in statistics]
            )
        )
    )
    if log.total:
        counts = ", ".join(f"{kind} {count}" for kind, count in sorted(log.counts.items()))
        click.echo(f"\nread issues: {log.total} ({counts})", err=True)
        for issue in log.issues:
            click.echo(f"  {issue}", err=True)
    if baselines:
        _print_baselines(out_dir)
