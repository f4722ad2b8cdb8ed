"""Every DuckDB connection of the platform is bounded by CITEWORTH_DUCKDB_MEMORY (issue 21: the build's peak memory
must not follow the catalogue's size)."""

import re
from pathlib import Path

import pytest

from citeworth_assets.lib.duckdb_limits import DEFAULT_MEMORY, MEMORY_ENV, bounded
from citeworth_assets.lib.settings import SETTINGS

PACKAGE = Path(__file__).resolve().parents[2] / "citeworth_assets"


def _limit_bytes(connection) -> int:
    return connection.execute("SELECT current_setting('memory_limit')").fetchone()[0]


def test_the_default_and_the_setting_agree():
    assert SETTINGS["duckdb_memory"][0] == MEMORY_ENV and SETTINGS["duckdb_memory"][2] == DEFAULT_MEMORY


def test_bounded_takes_the_environment_s_limit(monkeypatch, tmp_path):
    monkeypatch.setenv(MEMORY_ENV, "300MB")
    with bounded() as connection:
        assert _limit_bytes(connection).startswith("286")  # DuckDB shows 300 MB as 286.1 MiB
    database = tmp_path / "w.duckdb"
    with bounded(database) as connection:
        connection.execute("CREATE TABLE t AS SELECT 1 AS x")
    with bounded(database, read_only=True) as connection:
        assert _limit_bytes(connection).startswith("286") and connection.execute("FROM t").fetchall() == [(1,)]


def test_a_bad_limit_names_the_variable(monkeypatch):
    monkeypatch.setenv(MEMORY_ENV, "lots")
    with pytest.raises(ValueError, match=MEMORY_ENV):
        bounded()


def test_no_connection_is_opened_without_a_limit():
    pattern = re.compile(r"(?<![\w.])duckdb\.connect\(")
    unbounded = [
        f"{path.relative_to(PACKAGE)}:{number}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "duckdb_limits.py"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line) and "import duckdb;" not in line  # the summary prints a command for analysts
    ]
    assert unbounded == []
