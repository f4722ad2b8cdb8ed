"""Title and name normalisation, as the MAG normalises ``PaperTitle`` (and unarXive's matcher did).

The published matcher (unarXive ``match_bibitems_mag.py``, ``mag_normalize``) replaces every non-word
character by a space, collapses spaces, transliterates to ASCII and lower-cases; titles from reference
strings, arXiv metadata, DOIs and OpenAlex are normalised the same way so they compare with MAG's.
"""

from __future__ import annotations

import re

from unidecode import unidecode

_NON_WORD = re.compile(r"[^\w]")
_SPACES = re.compile(r"\s+")


def mag_normalise_title(text: str | None) -> str:
    """``"WordNet: a lexical database for English"`` -> ``"wordnet a lexical database for english"``."""
    if not text:
        return ""
    return unidecode(_SPACES.sub(" ", _NON_WORD.sub(" ", text))).strip().lower()


def surname(name: str | None) -> str:
    """The last word of a normalised author name (``"Trevor J. Hastie"`` -> ``"hastie"``)."""
    words = mag_normalise_title(name).split()
    return words[-1] if words else ""
