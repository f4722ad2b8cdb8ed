"""Macro definitions pandoc cannot survive: one that uses its own name expands without end in pandoc (it has no
``\\ifx`` to stop a TeX loop), so a single such submission would run to its timeout. They are removed before the
reader sees the document; the macro is then an unknown command, which pandoc drops."""

from __future__ import annotations

import re

from citeworth_assets.lib.arxiv_sources import scan

DEFINITION = re.compile(
    r"\\(?:re)?newcommand\*?\s*(?:\{\s*\\(?P<braced>[A-Za-z@]+)\s*\}|\\(?P<bare>[A-Za-z@]+))"
    r"\s*(?:\[\s*\d\s*\])?\s*(?:\[[^\]]*\])?\s*(?=\{)"
    r"|\\[gex]?def\s*\\(?P<tex>[A-Za-z@]+)[^{]*(?=\{)"
)


def _definitions(text: str) -> list[tuple[str, int, int, str]]:
    """``(name, start, end, body)`` of every definition, in order."""
    found, last = [], 0
    for match in DEFINITION.finditer(text):
        if match.start() < last:
            continue
        body = scan.group(text, match.end())
        if body is not None:
            found.append(
                (match.group("braced") or match.group("bare") or match.group("tex"), match.start(), body[1], body[0])
            )
            last = body[1]
    return found


def _cyclic(uses: dict[str, set[str]]) -> set[str]:
    """The names from which their own name is reachable (a macro expanding, directly or not, into itself)."""
    cyclic = set()
    for name in uses:
        seen, stack = set(), list(uses[name])
        while stack:
            current = stack.pop()
            if current == name:
                cyclic.add(name)
                break
            if current not in seen:
                seen.add(current)
                stack.extend(uses.get(current, ()))
    return cyclic


def drop_recursive_definitions(text: str) -> tuple[str, list[str]]:
    """The text without the definitions of macros that expand into themselves (directly or through others),
    and their names."""
    definitions = _definitions(text)
    names = {name for name, *_ in definitions}
    uses: dict[str, set[str]] = {}
    for name, _, _, body in definitions:
        used = {m for m in re.findall(r"\\([A-Za-z@]+)", body) if m in names}
        uses[name] = uses.get(name, set()) | used
    cyclic = _cyclic(uses)
    if not cyclic:
        return text, []
    out, last = [], 0
    for name, start, end, _ in definitions:
        if name in cyclic:
            out.append(text[last:start])
            last = end
    out.append(text[last:])
    return "".join(out), sorted(f"\\{name}" for name in cyclic)
