"""Section titles as parsers give them (``2 Related Work``, ``II. INTRODUCTION``, ``Methods:``), normalised for
comparison with a list of titles. Shared by the datasets that select paragraphs by section."""

import re

NUMBERED_TITLE = re.compile(r"^\s*(?:(?:\d+(?:\.\d+)*|[ivxlcdm]+|[a-z])[.)]?\s+)?(.*?)[\s.:]*$", re.IGNORECASE)


def normalize_section_title(title: str) -> str:
    """``2 Related Work`` / ``II. RELATED WORK`` / ``Related work:`` -> ``related work``."""
    return " ".join(NUMBERED_TITLE.match(title).group(1).split()).lower()
