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

import duckdb

from citeworth_assets.lib.duckdb_limits import bounded

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
    connection = parser or bounded()
    try:
        tree = json.loads(connection.execute("SELECT json_serialize_sql(?)", [sql]).fetchall()[0][0])
    finally:
        if parser is None:
            connection.close()
    if tree.get("error"):
        raise SqlModelError(tree.get("error_message", "unparseable SQL"))
    found: set[str] = set()
    _base_tables(tree["statements"], found)
    return frozenset(found)


def load_model(path: Path, parser: duckdb.DuckDBPyConnection | None = None) -> SqlModel:
    schema, name = path.parent.name, path.stem
    if not (NAME.match(schema) and NAME.match(name)):
        raise SqlModelError(f"{path}: folder and file names must be lower-case identifiers ([a-z0-9_])")
    text = path.read_text()
    sql = text.strip().rstrip(";").strip()
    if not sql:
        raise SqlModelError(f"{path}: the file holds no SQL")
    comments = []
    for line in text.splitlines():
        if not line.startswith("--"):
            break
        if not MATERIALIZED.match(line):
            comments.append(line[2:].strip())
    materialized = MATERIALIZED.search(text)
    try:
        upstream = upstream_relations(sql, parser)
    except SqlModelError as error:
        raise SqlModelError(f"{path}: {error}") from error
    return SqlModel(
        path=path,
        schema=schema,
        name=name,
        sql=sql,
        materialized=materialized.group(1).lower() if materialized else "view",
        description=" ".join(comments) or f"SQL model {schema}.{name}",
        upstream=upstream,
    )


def load_models(folder: Path) -> list[SqlModel]:
    """Every model under ``folder`` (``<schema>/<name>.sql``), sorted by relation name."""
    with bounded() as parser:
        return [load_model(path, parser) for path in sorted(folder.glob("*/*.sql"))]
