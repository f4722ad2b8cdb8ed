"""The ``citeworth`` command group and what every command shares: settings resolved from flags, environment,
defaults."""

import click

from citeworth_assets.lib.settings import SettingError, Settings, check_environment

QUIET_RUN = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}


class BadSetting(click.ClickException):
    """A setting (flag or ``CITEWORTH_*`` variable) without its accepted form: one line that names it, exit status
    2, raised before the command does or creates anything."""

    exit_code = 2


def checked_settings(**values) -> Settings:
    """The settings of ``values`` (flags; None: not given), the environment and the defaults, every one checked for
    its form, the rule set and splitter by name, and the environment-only ones (training device) too."""
    from citeworth_assets.lib.citeworth.rules import rule_set
    from citeworth_assets.lib.sentences import SPLITTERS

    try:
        settings = Settings.resolve(**values)
        rule_set(settings.rules)
        if settings.splitter not in SPLITTERS:
            raise SettingError(
                f"unknown sentence splitter {settings.splitter!r} (--splitter / CITEWORTH_SPLITTER): "
                f"use one of {', '.join(SPLITTERS)}"
            )
    except SettingError as error:
        raise BadSetting(str(error)) from None
    return settings


def resolve_settings(dumps: str | None, data: str | None, need_dumps: bool, **others) -> Settings:
    """The settings (flags beat the environment, which beats the defaults), every one checked, then the paths (the
    data root is created only once everything else is known to be right)."""
    settings = checked_settings(dumps=dumps, data=data, **others)
    try:
        if need_dumps:
            settings.require_dumps()
        settings.require_data()
    except SettingError as error:
        raise BadSetting(str(error)) from None
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


class _Commands(click.Group):
    """The command group; notes whether help was asked for, so that help is shown whatever the settings."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["citeworth.help"] = "--help" in args
        return super().parse_args(ctx, args)


@click.group(cls=_Commands)
@click.pass_context
def main(context: click.Context) -> None:
    """citeworth: scholarly dumps into research datasets, as a Dagster asset graph over a DuckDB warehouse."""
    from citeworth_assets.lib.progress import quiet_libraries

    quiet_libraries()  # before any command imports them; `build --verbose` turns them up again
    if context.meta.get("citeworth.help"):
        return
    try:  # the settings no flag can override, before any command starts (each checks its flags itself)
        check_environment()
    except SettingError as error:
        raise BadSetting(str(error)) from None
