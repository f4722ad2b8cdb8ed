"""``citeworth unarxive-to-s2orc``: unarXive 2022 papers as an S2ORC dump, so that ``citeworth build`` runs
CiteWorth over arXiv."""

from pathlib import Path

import click

from citeworth_assets.cli.app import main


@main.command("unarxive-to-s2orc")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--out", "dumps", required=True, type=click.Path(file_okay=False), help="Dump root to write (as --dumps of build)."
)
@click.option(
    "--release", default="unarxive2022", show_default=True, help="Release folder name (lower case, digits, _)."
)
@click.option(
    "--style",
    type=click.Choice(["numeric", "author_year"]),
    default="numeric",
    show_default=True,
    help="How citations are rendered in the text: [12] or (Smith et al., 2019).",
)
def unarxive_to_s2orc(paths: tuple[str, ...], dumps: str, release: str, style: str) -> None:
    """Convert unarXive 2022 JSON-lines files (plain or .gz) to S2ORC metadata and pdf_parses shards, one per file,
    with citations rendered in a citation style and cut into GROBID-style spans; problems go to standard error."""
    from citeworth_assets.lib.citeworth.unarxive_input import (
        convert_file,
        write_s2orc_shard,
    )
    from citeworth_assets.lib.read_issues import IssueLog

    for index, path in enumerate(paths):
        log = IssueLog()
        count = write_s2orc_shard(convert_file(path, style, log), Path(dumps), release, index)
        click.echo(f"{path}: {count} papers -> {release} shard {index}")
        for issue in log.issues:
            click.echo(f"problem {issue}", err=True)
