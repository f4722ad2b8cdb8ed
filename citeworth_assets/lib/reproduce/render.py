"""Reproduced tables as text for the terminal and as Markdown: one line per cell (row, column, published, ours,
difference), ours shown with the published value's decimals, and every reason as a numbered note under its table."""

from __future__ import annotations

from citeworth_assets.lib.reproduce.pairing import Pair, TableId
from citeworth_assets.lib.reproduce.published import as_number

PAPER_NAMES = {
    "citeworth": "CiteWorth (Wright and Augenstein 2021)",
    "citesum": "CiteSum (Mao et al. 2022)",
    "sciqfs": "ROUGE-SciQFS",
    "saier2019": 'Saier 2019, "Semantic approaches to citation recommendation"',
}
HEADER = ("row", "column", "published", "ours", "difference")
NO_VALUE = "-"


def heading(table: TableId) -> str:
    title = f": {table.spec.title}" if table.spec else ""
    return f"{PAPER_NAMES.get(table.paper, table.paper)} Table {table.table} [{table.key}]{title}"


def _decimals(text: str | None) -> int | None:
    number = as_number(text)
    if number is None:
        return None
    plain = text.strip().removesuffix("%")
    return len(plain.split(".")[1]) if "." in plain else 0


def number(value: float | None, like: str | None, signed: bool = False) -> str:
    """``value`` with as many decimals as the published text ``like`` (thousands separated where it has them);
    four decimals (none for a whole number) where there is no published number."""
    if value is None:
        return NO_VALUE
    decimals = _decimals(like)
    sign = "+" if signed else ""
    if decimals is None:
        return f"{value:{sign},.0f}" if float(value).is_integer() else f"{value:{sign}.4f}"
    grouping = "," if like and "," in like else ""
    return f"{value:{sign}{grouping}.{decimals}f}"


def cells(pairs: list[Pair]) -> tuple[list[tuple[str, ...]], list[str]]:
    """The lines of a table (strings) and its notes; a cell's reason is a note number after its value."""
    notes: list[str] = []
    lines = []
    for pair in pairs:
        ours = number(pair.ours, pair.published)
        if pair.reason:
            if pair.reason not in notes:
                notes.append(pair.reason)
            ours = f"{ours} [{notes.index(pair.reason) + 1}]"
        difference = number(pair.difference, pair.published, signed=True)
        lines.append((pair.row, pair.column, pair.published or NO_VALUE, ours, difference))
    return lines, notes


def text(table: TableId, pairs: list[Pair]) -> str:
    """The table for the terminal: aligned columns, then what the build differs in and the notes."""
    lines, notes = cells(pairs)
    rows = [HEADER, *lines]
    widths = [max(len(row[i]) for row in rows) for i in range(len(HEADER))]
    out = [heading(table)]
    if table.spec:
        out.append(f"  needs: {', '.join(table.spec.needs)}")
        out.append(f"  differs from the paper: {table.spec.differences}")
    out += ["  " + "  ".join(value.ljust(width) for value, width in zip(row, widths)).rstrip() for row in rows]
    out += [f"  [{index}] {note}" for index, note in enumerate(notes, start=1)]
    return "\n".join(out)


def _md(value: str) -> str:
    return value.replace("|", "\\|")


def markdown(table: TableId, pairs: list[Pair]) -> str:
    """The table as a Markdown section."""
    lines, notes = cells(pairs)
    out = [f"## {heading(table)}", ""]
    if table.spec:
        out += [f"Needs: {', '.join(f'`{name}`' for name in table.spec.needs)}. Built by `{table.spec.build_command}`."]
        out += ["", f"Differs from the paper: {table.spec.differences}", ""]
    out.append("| " + " | ".join(HEADER) + " |")
    out.append("|" + "---|" * len(HEADER))
    out += ["| " + " | ".join(_md(value) for value in line) + " |" for line in lines]
    if notes:
        out += [""] + [f"{index}. {_md(note)}" for index, note in enumerate(notes, start=1)]
    return "\n".join(out) + "\n"


def markdown_file_name(table: TableId) -> str:
    return f"{table.paper}-table-{table.table}.md"
