"""``citeworth reproduce``: the papers' tables, the published figures beside this build's, from the warehouse
(opened read-only, so it runs beside a build or the UI)."""

from __future__ import annotations

from pathlib import Path

import click

from citeworth_assets.cli.app import BadSetting, checked_settings, main


@main.command()
@click.argument("tables", nargs=-1)
@click.option("--data", help="Data root whose warehouse to read (overrides CITEWORTH_DATA).")
@click.option("--list", "list_only", is_flag=True, help="Name each table, the relations it needs and their state.")
@click.option(
    "--markdown",
    type=click.Path(dir_okay=True),
    help="Also write Markdown: into this file, or one file per table into this folder (an existing folder or a "
    "path ending in /).",
)
def reproduce(tables: tuple[str, ...], data: str | None, list_only: bool, markdown: str | None) -> None:
    """Print the papers' tables (CiteWorth, CiteSum, ROUGE-SciQFS, Saier 2019) beside this build's figures, with
    the difference and, for every cell without a figure, the reason. TABLES: paper:number (citeworth:4,
    saier2019:7) or a paper (citeworth); all when none. The same pairs are the warehouse view platform.paper_tables."""
    from citeworth_assets.lib.reproduce import pairing, render
    from citeworth_assets.lib.warehouse import reading

    try:
        chosen = pairing.select(tables)
    except pairing.UnknownTable as error:
        raise click.BadParameter(str(error), param_hint="TABLES") from None
    settings = checked_settings(data=data)
    warehouse = settings.warehouse
    connection = reading(warehouse) if warehouse.exists() else None
    try:
        if list_only:
            click.echo(listing(chosen, connection, warehouse))
            return
        if connection is None:
            click.echo(f"no warehouse at {warehouse}: every cell of ours says what to build", err=True)
        done = pairing.reproduce(chosen, connection)
    finally:
        if connection is not None:
            connection.close()
    click.echo("\n\n".join(render.text(table, pairs) for table, pairs in done))
    if markdown:
        for path in write_markdown(done, Path(markdown), markdown.endswith("/")):
            click.echo(f"wrote {path}", err=True)


def listing(chosen, connection, warehouse: Path) -> str:
    """Each table with the relations it needs, their state in this warehouse and, where one cannot be read, the
    command that builds it."""
    from citeworth_assets.lib.reproduce import pairing, render

    lines = [f"warehouse: {warehouse}{'' if connection is not None else ' (not built)'}"]
    for table in chosen:
        lines.append(render.heading(table))
        if table.spec is None:
            lines.append("  not computed by the platform yet (published figures only)")
            continue
        missing = pairing.unbuilt(table.spec, connection)
        for relation in table.spec.needs:
            lines.append(f"  needs {relation}: {missing.get(relation, 'built')}")
        if missing:
            lines.append(f"  build: {table.spec.build_command}")
    return "\n".join(lines)


def write_markdown(done, target: Path, as_folder: bool) -> list[Path]:
    """One file holding every table, or one file per table in a folder."""
    from citeworth_assets.lib.reproduce import render

    if target.is_dir() or as_folder:
        target.mkdir(parents=True, exist_ok=True)
        written = []
        for table, pairs in done:
            path = target / render.markdown_file_name(table)
            path.write_text(render.markdown(table, pairs), encoding="utf-8")
            written.append(path)
        return written
    if not target.parent.is_dir():
        raise BadSetting(f"--markdown: folder {target.parent} does not exist")
    body = "# The papers' tables beside this build\n\n" + "\n".join(render.markdown(t, p) for t, p in done)
    target.write_text(body, encoding="utf-8")
    return [target]


def refresh_paper_tables(settings, instance) -> bool:
    """Recompute platform.paper_tables in this process after training (``paper_tables_job``); True when it ran."""
    from citeworth_assets.cli.app import QUIET_RUN
    from citeworth_assets.definitions import build_definitions
    from citeworth_assets.lib.signals import sigterm_kept
    from citeworth_assets.resources import PlatformResource

    defs = build_definitions(PlatformResource(**settings.values()))
    with sigterm_kept():
        run = defs.resolve_job_def("paper_tables_job").execute_in_process(
            instance=instance, run_config=QUIET_RUN, raise_on_error=False
        )
    return run.success
