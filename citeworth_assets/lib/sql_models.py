"""Analyst SQL models: each ``dbt_like_sql/<schema>/<name>.sql`` file becomes ``<schema>.<name>`` in the warehouse.

A model is one DuckDB SELECT. Its upstream relations are read from the SQL itself with DuckDB's own
parser (every schema-qualified table in FROM and JOIN clauses, subqueries and CTE bodies included),
so adding a model is adding a file. Leading ``--`` comment lines are its description; a line
``-- materialized: table`` stores it as a table instead of a view.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from citeworth_assets.lib.duckdb_limits import bounded
from citeworth_assets.lib.lazy import lazy_module

duckdb = lazy_module("duckdb")

NAME = re.compile(r"^[a-z][a-z0-9_]*$")
MATERIALIZED = re.compile(r"^--\s*materialized:\s*(view|table)\s*$", re.IGNORECASE | re.MULTILINE)


class SqlModelError(ValueError):
    """A model file that cannot become a warehouse relation; the message names the file."""


@dataclass(frozen=True)
class SqlModel:
    path: Path
    schema: str
    name: str
    sql: str
    materialized: str
    description: str
    upstream: frozenset[str]

    @property
    def relation(self) -> str:
        return f"{self.schema}.{self.name}"


def _base_tables(node, found: set[str]) -> None:
    if isinstance(node, dict):
        if node.get("type") == "BASE_TABLE" and node.get("schema_name"):
            found.add(f"{node['schema_name']}.{node['table_name']}")
        for value in node.values():
            _base_tables(value, found)
    elif isinstance(node, list):
        for value in node:
            _base_tables(value, found)


def upstream_relations(sql: str, parser: duckdb.DuckDBPyConnection | None = None) -> frozenset[str]:
    """Schema-qualified relations a SELECT reads, from DuckDB's parse tree (nothing is bound or run).

    ``parser``: an in-memory connection to reuse; opening one costs about 20 ms, which every process that loads
    the definitions would pay once per model."""
    return _upstream_of_each([sql], parser)[0]


def _upstream_of_each(sqls: list[str], parser: duckdb.DuckDBPyConnection | None = None) -> list[frozenset[str]]:
    """:func:`upstream_relations` of several SELECTs in one query (one round trip instead of one per model: every
    process loading the definitions parses every model); a SELECT DuckDB cannot parse raises."""
    connection = parser or bounded()
    try:
        rows = connection.execute(
            "SELECT json_serialize_sql(sql) FROM unnest(?::VARCHAR[]) WITH ORDINALITY AS t(sql, i) ORDER BY i", [sqls]
        ).fetchall()
    finally:
        if parser is None:
            connection.close()
    found = []
    for (text,) in rows:
        tree = json.loads(text)
        if tree.get("error"):
            raise SqlModelError(tree.get("error_message", "unparseable SQL"))
        tables: set[str] = set()
        _base_tables(tree["statements"], tables)
        found.append(frozenset(tables))
    return found


def load_model(path: Path, parser: duckdb.DuckDBPyConnection | None = None) -> SqlModel:
    return _models([path], parser)[0]


def load_models(folder: Path) -> list[SqlModel]:
    """Every model under ``folder`` (``<schema>/<name>.sql``), sorted by relation name."""
    with bounded() as parser:
        return _models(sorted(folder.glob("*/*.sql")), parser)


def _models(paths: list[Path], parser: duckdb.DuckDBPyConnection | None) -> list[SqlModel]:
    texts, sqls = [], []
    for path in paths:
        if not (NAME.match(path.parent.name) and NAME.match(path.stem)):
            raise SqlModelError(f"{path}: folder and file names must be lower-case identifiers ([a-z0-9_])")
        text = path.read_text()
        sql = text.strip().rstrip(";").strip()
        if not sql:
            raise SqlModelError(f"{path}: the file holds no SQL")
        texts.append(text)
        sqls.append(sql)
    try:
        upstream = _upstream_of_each(sqls, parser)
    except SqlModelError:
        for path, sql in zip(paths, sqls):  # name the file: parse each alone
            try:
                _upstream_of_each([sql], parser)
            except SqlModelError as error:
                raise SqlModelError(f"{path}: {error}") from error
        raise
    return [_model(path, text, sql, relations) for path, text, sql, relations in zip(paths, texts, sqls, upstream)]


def _model(path: Path, text: str, sql: str, upstream: frozenset[str]) -> SqlModel:
    comments = []
    for line in text.splitlines():
        if not line.startswith("--"):
            break
        if not MATERIALIZED.match(line):
            comments.append(line[2:].strip())
    materialized = MATERIALIZED.search(text)
    return SqlModel(
        path=path,
        schema=path.parent.name,
        name=path.stem,
        sql=sql,
        materialized=materialized.group(1).lower() if materialized else "view",
        description=" ".join(comments) or f"SQL model {path.parent.name}.{path.stem}",
        upstream=upstream,
    )
