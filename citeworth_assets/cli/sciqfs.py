"""``citeworth sciqfs``: the ROUGE-SciQFS dataset (ROUGE-SciQFS §3) from a folder of Science-Parse JSON, without the
graph, and optionally the cheap baselines of §4 (cosine similarity on TF-IDF) on it."""

from pathlib import Path

import click

from citeworth_assets.cli.app import main
from citeworth_assets.cli.core import SPLITTER_OPTION
from citeworth_assets.lib.settings import Settings

SPLITS = ("train", "validation", "test")
CHEAP_EMBEDDINGS = ("TFIDF-Words", "TFIDF-Chars")


def _release_documents(out: Path, split: str) -> list:
    import pyarrow.parquet as pq

    from citeworth_models.sciqfs.documents import documents

    path = out / f"{split}.parquet"
    return documents(pq.read_table(path).to_pylist()) if path.exists() else []


def _catalogue(folder: Path, abstracts: Path | None, log) -> dict[str, str]:
    """Normalised title -> abstract for the references: the collection's own papers (a cited paper that is in the
    folder), then the ``--abstracts`` file (JSON lines with ``title`` and ``abstract``, such as the arXiv metadata
    snapshot the paper joined with), which wins. Problems of the file are counted in ``log``."""
    from citeworth_assets.lib.jsonl import IssueLog, iter_json_lines
    from citeworth_assets.lib.sciqfs.science_parse import read_science_parse_folder
    from citeworth_assets.lib.sciqfs.tables import normalise_title

    found = {}
    for paper in read_science_parse_folder(folder, IssueLog()):  # its problems are reported by the build's own pass
        if normalise_title(paper.title) and paper.abstract:
            found[normalise_title(paper.title)] = paper.abstract
    if abstracts is not None:
        for line in iter_json_lines(abstracts, log):
            title, abstract = line.record.get("title"), line.record.get("abstract")
            if isinstance(title, str) and isinstance(abstract, str) and normalise_title(title) and abstract.strip():
                found[normalise_title(title)] = abstract.strip()
    return found


def _print_baselines(out: Path) -> None:
    """Cosine similarity on TF-IDF words and character trigrams (no training), TF-IDF fitted on the training split,
    scored per example on the test split; a collection too small for a test split is scored on every example."""
    from citeworth_models.sciqfs.baselines import (
        BaselineSettings,
        format_table,
        run_baselines,
    )

    parts = {split: _release_documents(out, split) for split in SPLITS}
    everything = [doc for docs in parts.values() for doc in docs]
    if not everything:
        click.echo("baselines: no examples to score")
        return
    train, test = parts["train"] or everything, parts["test"]
    if not test:
        click.echo(
            "baselines: the test split is empty (too few papers); scoring every example instead (the rankers are not trained)"
        )
        test = everything
    rows = run_baselines(train, test, BaselineSettings(embeddings=CHEAP_EMBEDDINGS, classifiers=("cosine",)))
    click.echo(f"\nbaselines on {len(test)} examples (Table 3; mean ± standard deviation over examples):")
    click.echo(format_table(rows))


@main.command("sciqfs")
@click.option(
    "--science-parse",
    "folder",
    required=True,
    type=click.Path(exists=True, file_okay=False),
    help="Folder of Science-Parse JSON files (one paper per *.json).",
)
@click.option(
    "--out",
    required=True,
    type=click.Path(file_okay=False),
    help="Folder for the tables, the release (JSONL + Parquet per split) and the statistics; replaced as a whole.",
)
@click.option(
    "--abstracts",
    type=click.Path(exists=True, dir_okay=False),
    help="JSON lines with title and abstract (e.g. the arXiv metadata snapshot): the queries of references matched by normalised title.",
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
    from citeworth_assets.lib.sciqfs.science_parse import read_science_parse_folder
    from citeworth_assets.lib.sciqfs.splits import SplitSettings
    from citeworth_assets.lib.sentences import SPLITTERS
    from citeworth_assets.lib.sentences import splitter as sentence_splitter
    from citeworth_assets.lib.warehouse import markdown_table

    name = Settings.resolve(splitter=splitter).splitter
    if name not in SPLITTERS:
        raise click.UsageError(
            f"unknown sentence splitter {name!r} (--splitter / CITEWORTH_SPLITTER): use one of {SPLITTERS}"
        )
    settings = DatasetSettings(
        examples=ExampleSettings(max_sentences=max_sentences),
        augmentation=AugmentationSettings(rouge_type=f"rouge{rouge_n}"),
        splits=SplitSettings(seed=seed),
        augment=augment,
    )
    out_dir, log = Path(out), IssueLog()
    catalogue = _catalogue(Path(folder), Path(abstracts) if abstracts else None, log)
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
        f"skipped (paper, reference) pairs: {skipped or 'none'}; unmatched citing sentences: {report['unmatched_citing_sentences']}"
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
