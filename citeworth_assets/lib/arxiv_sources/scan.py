"""Reading TeX arguments by hand where a regex cannot: balanced ``{...}`` groups and ``[...]`` options."""

from __future__ import annotations


def skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\n":
        pos += 1
    return pos


def group(text: str, pos: int, open_: str = "{", close: str = "}") -> tuple[str, int] | None:
    """The content of the group opening at ``pos`` (after spaces) and the position after it, or None.
    Braces nest; inside ``[...]`` only brace-protected ``]`` are skipped; ``\\{`` does not count."""
    pos = skip_space(text, pos)
    if pos >= len(text) or text[pos] != open_:
        return None
    depth, index = 0, pos + 1
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            if depth == 0 and close != "}":
                return None
            if depth == 0:
                return text[pos + 1 : index], index + 1
            depth -= 1
        elif char == close and depth == 0:
            return text[pos + 1 : index], index + 1
        index += 1
    return None


def optional(text: str, pos: int) -> tuple[str, int] | None:
    """A ``[...]`` argument at ``pos`` (after spaces), or None."""
    return group(text, pos, "[", "]")


def parenthesised(text: str, pos: int) -> tuple[str, int] | None:
    """A biblatex multicite ``(...)`` note at ``pos``, or None."""
    return group(text, pos, "(", ")")
