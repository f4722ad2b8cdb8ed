"""Section titles as parsers give them (``2 Related Work``, ``II. INTRODUCTION``, ``Methods:``), normalised for
comparison with a list of titles. Shared by the datasets that select paragraphs by section.

Parsers keep line breaks inside long titles ("2 Related" and "Work" on two lines), so the pattern reads
across lines (DOTALL) and is anchored at the very end of the title, not before a final line break."""

import re

NUMBERED_TITLE = re.compile(
    r"^\s*(?:(?:\d+(?:\.\d+)*|[ivxlcdm]+|[a-z])[.)]?\s+)?(.*?)[\s.:]*\Z", re.IGNORECASE | re.DOTALL
)


def normalize_section_title(title: str) -> str:
    """``2 Related Work`` / ``II. RELATED WORK`` / ``Related work:`` -> ``related work``."""
    return " ".join(NUMBERED_TITLE.match(title).group(1).split()).lower()
