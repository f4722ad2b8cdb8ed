"""The ``citeworth`` command group and what every command shares: settings resolved from flags, environment,
defaults."""

import click

from citeworth_assets.lib.settings import PlatformSettings, SettingError

QUIET_RUN = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}


def resolve_settings(dumps: str | None, data: str | None, need_dumps: bool, **others) -> PlatformSettings:
    """The settings (flags beat the environment, which beats the defaults), with the paths checked."""
    settings = PlatformSettings.resolve(dumps=dumps, data=data, **others)
    try:
        if need_dumps:
            settings.require_dumps()
        settings.require_data()
    except SettingError as error:
        raise click.UsageError(str(error)) from error
    return settings


def input_option(flag: str, help: str, dest: str | None = None, multiple: bool = False, **path: bool):
    """A required input path that must exist; ``path`` narrows it as :class:`click.Path` does (file_okay, dir_okay)."""
    names = (flag, dest) if dest else (flag,)
    return click.option(*names, required=True, multiple=multiple, type=click.Path(exists=True, **path), help=help)


def default_option(flag: str, default, type, help: str | None = None):
    """An option whose default ``--help`` shows."""
    return click.option(flag, default=default, show_default=True, type=type, help=help)


def out_folder_option(help: str):
    """The required ``--out`` folder a command writes into."""
    return click.option("--out", required=True, type=click.Path(file_okay=False), help=help)


@click.group()
def main() -> None:
    """citeworth: scholarly dumps into research datasets, as a Dagster asset graph over a DuckDB warehouse."""
    from citeworth_assets.lib.progress import quiet_libraries

    quiet_libraries()  # before any command imports them; `build --verbose` turns them up again
