"""Issue 33: a bad setting fails before any work, with one line that names the setting and its accepted form, exit
status 2, and nothing created (before, CITEWORTH_DUCKDB_MEMORY=garbage gave a 43-line traceback raised while the
definitions imported, and left an empty data folder behind).

The values are the ones people write: a unit forgotten or spelled out, a negative or zero size from a script, a
guessed device name, a rule set without its underscore, a splitter named after its library."""

import os

import pytest
from click.testing import CliRunner

from citeworth_assets.cli import main
from citeworth_assets.lib.duckdb_limits import DuckDbLimits
from citeworth_assets.lib.settings import SettingError, Settings
from citeworth_assets.samples.s2orc import generate_sample_dump

BAD_ENVIRONMENT = [
    ("CITEWORTH_DUCKDB_MEMORY", "garbage"),
    ("CITEWORTH_DUCKDB_MEMORY", "-5GB"),
    ("CITEWORTH_DUCKDB_MEMORY", "0"),
    ("CITEWORTH_DUCKDB_MEMORY", "0GB"),
    ("CITEWORTH_DUCKDB_MEMORY", "2 gigs"),
    ("CITEWORTH_CPU_THREADS", "0"),
    ("CITEWORTH_CPU_THREADS", "four"),
    ("CITEWORTH_DEVICE", "gpu"),
    ("CITEWORTH_PRECISION", "half"),
    ("CITEWORTH_RULES", "citeworth2021"),
    ("CITEWORTH_SPLITTER", "spacy"),
]


@pytest.fixture(scope="module")
def dumps(tmp_path_factory):
    root = tmp_path_factory.mktemp("bad_settings") / "dumps"
    generate_sample_dump(root, papers=6, shards=1, seed=3)
    return root


def run(tmp_path, args: list[str], env: dict[str, str]):
    """The command in an empty working folder; the result and what the folder holds afterwards."""
    work = tmp_path / "work"
    work.mkdir()
    cwd = os.getcwd()
    os.chdir(work)
    try:
        result = CliRunner().invoke(main, args, env=env)
    finally:
        os.chdir(cwd)
    return result, sorted(p.name for p in work.iterdir())


def assert_one_line(result, *named: str) -> None:
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1, result.output
    assert all(name in lines[0] for name in named), lines[0]
    assert "Traceback" not in result.output


@pytest.mark.parametrize("variable,value", BAD_ENVIRONMENT)
def test_a_bad_setting_stops_the_build_before_anything_is_created(variable, value, dumps, tmp_path):
    result, left = run(tmp_path, ["build", "--dumps", str(dumps), "--data", "data"], {variable: value})
    assert_one_line(result, variable, repr(value))
    assert left == []  # no data folder, no instance, no lock


@pytest.mark.parametrize(
    "args",
    [
        ["ui", "--data", "data"],
        ["annotate", "--data", "data"],
        ["generate-sample", "--out", "data"],
        ["citrec-train", "--data", "data"],
        ["clean-paper", "x.json"],
    ],
)
def test_every_command_checks_the_environment_first(args, tmp_path):
    result, left = run(tmp_path, args, {"CITEWORTH_DUCKDB_MEMORY": "-5GB"})
    assert_one_line(result, "CITEWORTH_DUCKDB_MEMORY", "a size above 0")
    assert left == []


@pytest.mark.parametrize(
    "args,named",
    [
        (["--splitter", "nltk"], "--splitter"),
        (["--rules", "citeworth_2021+nope"], "--rules"),
        (["--dumps", "missing"], "--dumps"),
    ],
)
def test_a_bad_flag_is_one_line_too(args, named, dumps, tmp_path):
    full = ["build", "--dumps", str(dumps), "--data", "data", *args]
    result, left = run(tmp_path, full, {})
    assert_one_line(result, named)
    assert left == []


def test_a_flag_beats_a_bad_environment_value(dumps, tmp_path, monkeypatch):
    monkeypatch.setenv("CITEWORTH_RULES", "citeworth2021")
    assert Settings.resolve(rules="citeworth_2021", dumps=str(dumps)).rules == "citeworth_2021"
    with pytest.raises(SettingError, match="CITEWORTH_RULES is 'citeworth 2021'"):
        Settings.resolve(rules="citeworth 2021")


def test_the_library_checks_the_same_forms(monkeypatch):
    """Code that builds settings without the command line (a run process, a test) gets the same one-line error."""
    for value in ("-5GB", "0", "garbage"):
        with pytest.raises(SettingError, match="CITEWORTH_DUCKDB_MEMORY"):
            DuckDbLimits(value)
    assert DuckDbLimits("1.5GiB").memory_limit == "1.5GiB"
    monkeypatch.setenv("CITEWORTH_DUCKDB_MEMORY", "0MB")
    with pytest.raises(SettingError, match="expected a size above 0"):
        Settings.resolve()


def test_help_is_shown_whatever_the_settings(tmp_path):
    result, left = run(tmp_path, ["build", "--help"], {"CITEWORTH_DUCKDB_MEMORY": "garbage"})
    assert result.exit_code == 0 and "--dumps" in result.output and left == []
