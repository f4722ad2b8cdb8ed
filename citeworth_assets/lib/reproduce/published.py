"""The papers' figures as printed, read from the package data ``published/<paper>.csv``
(``table,row,column,value``; the value is the paper's text, never rounded or rescaled)."""

from __future__ import annotations

import csv
import io
import re
from functools import cache
from importlib.resources import files

HEADER = ["table", "row", "column", "value"]
NUMBER = re.compile(r"^[-+]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?$")


class PublishedError(ValueError):
    """A published-figures file that does not have the agreed shape; the message names the file and line."""


@cache
def published(paper: str) -> dict[tuple[str, str, str], str]:
    """(table, row, column) -> the printed value, for one paper ({} where the package has no file for it)."""
    resource = files(__package__) / "published" / f"{paper}.csv"
    if not resource.is_file():
        return {}
    name = f"published/{paper}.csv"
    reader = csv.reader(io.StringIO(resource.read_text(encoding="utf-8")))
    header = next(reader, None)
    if header != HEADER:
        raise PublishedError(f"{name}: header must be {','.join(HEADER)}, found {header}")
    values: dict[tuple[str, str, str], str] = {}
    for line, row in enumerate(reader, start=2):
        if not row:
            continue
        if len(row) != 4 or not all(part.strip() for part in row):
            raise PublishedError(f"{name} line {line}: expected 4 non-empty fields, found {row}")
        key = (row[0], row[1], row[2])
        if key in values:
            raise PublishedError(f"{name} line {line}: table {row[0]} row {row[1]!r} column {row[2]!r} given twice")
        values[key] = row[3]
    return values


def as_number(text: str | None) -> float | None:
    """The printed value as a number ('1,181,793' -> 1181793.0, '31.9%' -> 31.9); None for text that is none."""
    if text is None:
        return None
    plain = text.strip().removesuffix("%").strip()
    if not plain or not NUMBER.match(plain) or plain in {"-", "+", "."}:
        return None
    return float(plain.replace(",", ""))
