"""Trained indexes on disk: saved and reloaded with the same scores, replaced whole, the latest found."""

import time

import numpy as np
import pytest

from citeworth_models.citrec.registry import create_model
from citeworth_models.citrec.store import (
    IndexWriter,
    NoTrainedIndex,
    latest_index,
    load_index,
)

CANDIDATES = [
    ["sparse lattice estimator for entropy", "the lattice estimator of entropy"],
    ["protein folding with neural networks", "folding proteins by networks"],
]


def _save(root, dataset, models=("bow", "fos")):
    with IndexWriter(root, dataset, ["w1", "w2"], ["Lattices", None]) as index:
        for name in models:
            index.add(create_model(name).fit(CANDIDATES))
        index.finish({"settings": {"split_year": 2016}})
    return index


def test_a_saved_index_scores_as_the_fitted_model(tmp_path):
    _save(tmp_path, "one")
    index = load_index(tmp_path / "one")
    assert index.models == ["bow", "fos"] and index.candidates == ["w1", "w2"] and index.titles == ["Lattices", None]
    assert index.manifest["settings"] == {"split_year": 2016} and index.manifest["dataset"] == "one"
    query = ["an entropy estimator on a lattice MAINCIT"]
    assert np.allclose(index.load("bow").score(query), create_model("bow").fit(CANDIDATES).score(query))
    with pytest.raises(KeyError, match="trained: bow, fos"):
        index.load("claim")


def test_a_failed_write_keeps_the_previous_index_and_leaves_no_staging(tmp_path):
    _save(tmp_path, "one", ("bow",))
    with pytest.raises(RuntimeError), IndexWriter(tmp_path, "one", ["w9"], [None]) as index:
        index.add(create_model("fos").fit(CANDIDATES))
        raise RuntimeError("interrupted")
    assert load_index(tmp_path / "one").models == ["bow"]
    assert [p.name for p in tmp_path.iterdir()] == ["one"]


def test_latest_is_the_last_trained_and_none_is_a_clear_error(tmp_path):
    with pytest.raises(NoTrainedIndex, match="no trained"):
        latest_index(tmp_path)
    _save(tmp_path, "b_first")
    time.sleep(0.01)
    _save(tmp_path, "a_second", ("bow",))
    assert latest_index(tmp_path).folder.name == "a_second"
    assert latest_index(tmp_path, "b_first").models == ["bow", "fos"]
    with pytest.raises(NoTrainedIndex):
        latest_index(tmp_path, "missing")
