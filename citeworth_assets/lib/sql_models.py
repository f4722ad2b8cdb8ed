"""Analyst SQL models: each ``dbt_like_sql/<schema>/<name>.sql`` file becomes ``<schema>.<name>`` in the warehouse.

A model is one DuckDB SELECT. Its upstream relations are read from the SQL itself with DuckDB's own
parser (every schema-qualified table in FROM and JOIN clauses, subqueries and CTE bodies included),
so adding a model is adding a file. Leading ``--`` comment lines are its description; a line
``-- materialized: table`` stores it as a table instead of a view.

Every process that loads the definitions loads every model, and DuckDB (its import, a connection, the parse) would
be most of what the warehouse costs it. So the folder keeps what DuckDB parsed, ``upstream.json`` (each model's
relations beside its SQL's digest, :func:`write_upstream`): a model whose SQL still has that digest takes its
relations from there, any other (a new or changed file) is parsed. tests/lib/test_sql_models.py checks the file is
what DuckDB parses now.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from citeworth_assets.lib.duckdb_limits import bounded
from citeworth_assets.lib.lazy import lazy_module

duckdb = lazy_module("duckdb")

NAME = re.compile(r"^[a-z][a-z0-9_]*$")
UPSTREAM_FILE = "upstream.json"  # in the models folder: {"<schema>/<name>.sql": {"sha256", "upstream"}}
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
    """Every model under ``folder`` (``<schema>/<name>.sql``), sorted by relation name; DuckDB parses only the models
    whose SQL is not in the folder's ``upstream.json`` as it is now."""
    return _models(sorted(folder.glob("*/*.sql")), None, parsed_upstream(folder), folder)


def _key(folder: Path, path: Path) -> str:
    return path.relative_to(folder).as_posix()


def _digest(sql: str) -> str:
    return hashlib.sha256(sql.encode()).hexdigest()


def parsed_upstream(folder: Path) -> dict[str, dict]:
    """The folder's ``upstream.json`` (empty where there is none)."""
    path = folder / UPSTREAM_FILE
    return json.loads(path.read_text()) if path.is_file() else {}


def upstream_record(folder: Path) -> dict[str, dict]:
    """What DuckDB parses now, for every model under ``folder``: the content of its ``upstream.json``."""
    return {
        _key(folder, model.path): {"sha256": _digest(model.sql), "upstream": sorted(model.upstream)}
        for model in _models(sorted(folder.glob("*/*.sql")), None, {}, folder)
    }


def write_upstream(folder: Path) -> Path:
    """(Re)write ``upstream.json`` after adding or changing models (``citeworth`` still loads them without it)."""
    path = folder / UPSTREAM_FILE
    path.write_text(json.dumps(upstream_record(folder), indent=1, sort_keys=True) + "\n")
    return path


def _models(
    paths: list[Path],
    parser: duckdb.DuckDBPyConnection | None,
    parsed: dict[str, dict] | None = None,
    folder: Path | None = None,
) -> list[SqlModel]:
    """The models of ``paths``; ``parsed``: the upstream relations already parsed, by path under ``folder``, kept
    where the SQL's digest is the same."""
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
    known = {}
    for index, (path, sql) in enumerate(zip(paths, sqls)):
        record = (parsed or {}).get(_key(folder, path)) if folder is not None else None
        if record is not None and record.get("sha256") == _digest(sql):
            known[index] = frozenset(record["upstream"])
    to_parse = [(path, sql) for index, (path, sql) in enumerate(zip(paths, sqls)) if index not in known]
    fresh = iter(_parse_each(to_parse, parser) if to_parse else [])
    upstream = [known[index] if index in known else next(fresh) for index in range(len(paths))]
    return [_model(path, text, sql, relations) for path, text, sql, relations in zip(paths, texts, sqls, upstream)]


def _parse_each(models: list[tuple[Path, str]], parser: duckdb.DuckDBPyConnection | None) -> list[frozenset[str]]:
    if parser is None:
        with bounded() as connection:
            return _parse_each(models, connection)
    try:
        return _upstream_of_each([sql for _, sql in models], parser)
    except SqlModelError:
        for path, sql in models:  # name the file: parse each alone
            try:
                _upstream_of_each([sql], parser)
            except SqlModelError as error:
                raise SqlModelError(f"{path}: {error}") from error
        raise


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
