"""Curly double quotes put the wrong way round, a PDF-extraction artefact (``”Are you sure“``).

pysbd never splits between an opening ``“`` and the next closing ``”``: it takes the text between them
for a quotation. With the quotes reversed, the text *between* two quotations becomes one "quotation",
and every sentence in it is glued into one. Turning the quotes so that they open and close in turn lets
the splitter see the real quotations. Text whose curly quotes are the right way round is left exactly
as it is, so its sentence boundaries cannot change.
"""

from __future__ import annotations

OPEN, CLOSE = "\u201c", "\u201d"
OPENS_AFTER = "([{"
CLOSES_BEFORE = ".,;:!?)]}"


def reversed_quote(text: str, index: int) -> bool:
    """Whether the curly double quote at ``index`` clearly stands the wrong way round: a ``”`` that opens
    (after a space or bracket, before a word) or a ``“`` that closes (after a word, before a space or mark)."""
    before = text[index - 1] if index else " "
    after = text[index + 1] if index + 1 < len(text) else " "
    opens = (before.isspace() or before in OPENS_AFTER) and not (after.isspace() or after in CLOSES_BEFORE)
    closes = not (before.isspace() or before in OPENS_AFTER) and (after.isspace() or after in CLOSES_BEFORE)
    return opens if text[index] == CLOSE else closes if text[index] == OPEN else False


def orient_quotes(text: str) -> str:
    """The text with its curly double quotes opening and closing in turn, where one of them stands the wrong
    way round; otherwise the text itself. Same length: sentence offsets carry over to the original."""
    positions = [index for index, char in enumerate(text) if char in (OPEN, CLOSE)]
    if not any(reversed_quote(text, index) for index in positions):
        return text
    chars = list(text)
    for number, index in enumerate(positions):
        chars[index] = CLOSE if number % 2 else OPEN
    return "".join(chars)
