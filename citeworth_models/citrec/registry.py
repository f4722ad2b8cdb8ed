"""The one list of citation recommendation models: name -> factory (Saier 2019 §5, §6.2).

Factories take keyword settings (``field_names`` for the models that read fields of study) and return an
unfitted :class:`~citeworth_models.citrec.base.Recommender`. Models that need a dependency parser import it
only when fitted, and fail then with :class:`~citeworth_models.citrec.nlp.ParserUnavailable` naming the
missing package.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from citeworth_models.citrec.base import Recommender
from citeworth_models.citrec.bm25 import Bm25Model
from citeworth_models.citrec.bow import bow_model
from citeworth_models.citrec.claim import claim_model
from citeworth_models.citrec.combined import LinearCombination
from citeworth_models.citrec.fos import BowFosBoostModel, FosModel
from citeworth_models.citrec.noun_phrases import NpMarkerModel, np_model


def _named(model: Recommender, name: str) -> Recommender:
    model.name = name
    return model


MODELS: dict[str, Callable[..., Recommender]] = {
    "bow": lambda **_: bow_model(),
    "bm25": lambda **_: Bm25Model(),
    "fos": lambda field_names=(), **_: FosModel(field_names),
    "bow+fosboost": lambda field_names=(), **_: BowFosBoostModel(field_names),
    "np": lambda **_: np_model(),
    "npmarker": lambda **_: NpMarkerModel(),
    "claim": lambda **_: claim_model(),
    "claim+bow": lambda **_: LinearCombination([(claim_model(), 1.0), (bow_model(), 2.0)], "claim+bow"),
}
PARSER_MODELS = frozenset({"np", "npmarker", "claim", "claim+bow"})  # need an installed spaCy pipeline


def create_model(name: str, field_names: Iterable[str] = ()) -> Recommender:
    """A fresh model by its registered name; ``field_names`` adds catalogue field names to the MAG level-0 ones."""
    if name not in MODELS:
        raise KeyError(f"unknown citation recommendation model {name!r}; known: {', '.join(MODELS)}")
    return _named(MODELS[name](field_names=tuple(field_names)), name)
