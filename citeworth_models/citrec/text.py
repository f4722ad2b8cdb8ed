"""Text clean-up shared by the models: citation markers and the bag-of-words analyzer."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from sklearn.feature_extraction.text import CountVectorizer

MARKER = re.compile(r"\b(?:MAINCIT|CIT)\b")
# A citation group: markers separated by nothing, commas or semicolons ("CIT , CIT , MAINCIT", "CIT MAINCIT").
MARKER_GROUP = re.compile(r"\b(?:MAIN)?CIT\b(?:\s*[,;]?\s*\b(?:MAIN)?CIT\b)*")


def strip_markers(text: str) -> str:
    """Drop citation markers: they stand in every context and describe no candidate."""
    return MARKER.sub(" ", text)


def merge_marker_groups(text: str) -> str:
    """``CIT , CIT , CIT`` -> ``CIT``; a group holding the predicted citation becomes ``MAINCIT``."""
    return MARKER_GROUP.sub(lambda m: "MAINCIT" if "MAINCIT" in m.group(0) else "CIT", text)


@lru_cache(maxsize=1)
def bow_analyzer() -> Callable[[str], list[str]]:
    """Lower-cased word tokens of 2+ characters (punctuation dropped), English stop words removed (§6.2's BoW)."""
    return CountVectorizer(
        stop_words="english", lowercase=True, preprocessor=lambda t: strip_markers(t).lower()
    ).build_analyzer()


def bow_terms(texts) -> list[list[str]]:
    analyze = bow_analyzer()
    return [analyze(text) for text in texts]
