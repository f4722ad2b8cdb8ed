"""Trained citation recommendation indexes on disk, so that ``citeworth recommend`` can answer without retraining.

One folder per data set: ``<root>/<dataset>/`` holds ``manifest.json`` (data set, settings, models, when),
``candidates.json`` (work ids in score-column order, with titles) and one ``<model>.joblib`` per fitted
model. A folder is written beside its target and swapped in only when complete, so a crash leaves the
previous index whole. The latest index is the one whose manifest was written last.
"""

from __future__ import annotations

import json
import shutil
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Self

from citeworth_models.citrec.base import Recommender

MANIFEST, CANDIDATES = "manifest.json", "candidates.json"


class NoTrainedIndex(FileNotFoundError):
    """No index has been trained (under this root, or for this data set)."""


def _model_file(folder: Path, name: str) -> Path:
    return folder / f"{name}.joblib"


class IndexWriter:
    """Writes one data set's index: ``add`` each fitted model (dumped at once, so models need not be held
    together); the folder replaces the previous one when the block ends without an error."""

    def __init__(self, root: str | Path, dataset: str, candidates: Sequence[str], titles: Sequence[str | None]):
        self.target = Path(root) / dataset
        self.staging = Path(root) / f".{dataset}.{uuid.uuid4().hex}.staging"
        self.dataset, self.candidates, self.titles = dataset, list(candidates), list(titles)
        self.models: list[str] = []

    def __enter__(self) -> Self:
        self.staging.mkdir(parents=True)
        return self

    def add(self, model: Recommender) -> Path:
        import joblib

        path = _model_file(self.staging, model.name)
        joblib.dump(model, path, compress=3)
        self.models.append(model.name)
        return _model_file(self.target, model.name)

    def finish(self, manifest: dict) -> None:
        rows = [{"work": w, "title": t} for w, t in zip(self.candidates, self.titles)]
        (self.staging / CANDIDATES).write_text(json.dumps(rows), encoding="utf-8")
        manifest = {**manifest, "dataset": self.dataset, "models": self.models, "trained_at": time.time()}
        (self.staging / MANIFEST).write_text(json.dumps(manifest, indent=2), encoding="utf-8")

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            if exc_type is None:
                if not (self.staging / MANIFEST).exists():
                    self.finish({})
                retired = self.target.with_name(f".{self.dataset}.{uuid.uuid4().hex}.retired")
                if self.target.exists():
                    self.target.rename(retired)
                self.staging.rename(self.target)
                shutil.rmtree(retired, ignore_errors=True)
        finally:
            shutil.rmtree(self.staging, ignore_errors=True)


@dataclass(frozen=True)
class TrainedIndex:
    folder: Path
    manifest: dict
    candidates: list[str]
    titles: list[str | None]

    @property
    def models(self) -> list[str]:
        return list(self.manifest["models"])

    def load(self, name: str) -> Recommender:
        import joblib

        if name not in self.manifest["models"]:
            raise KeyError(
                f"model {name!r} is not in the index {self.folder}; trained: {', '.join(self.models) or 'none'}"
            )
        return joblib.load(_model_file(self.folder, name))


def load_index(folder: str | Path) -> TrainedIndex:
    folder = Path(folder)
    if not (folder / MANIFEST).is_file():
        raise NoTrainedIndex(f"no trained citation recommendation index in {folder}")
    manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    rows = json.loads((folder / CANDIDATES).read_text(encoding="utf-8"))
    return TrainedIndex(folder, manifest, [r["work"] for r in rows], [r["title"] for r in rows])


def latest_index(root: str | Path, dataset: str | None = None) -> TrainedIndex:
    """The index of ``dataset``, or the most recently trained one under ``root``."""
    root = Path(root)
    if dataset is not None:
        return load_index(root / dataset)
    found = [
        (json.loads((f / MANIFEST).read_text(encoding="utf-8"))["trained_at"], f)
        for f in sorted(root.glob("*"))
        if f.is_dir() and (f / MANIFEST).is_file()
    ]
    if not found:
        raise NoTrainedIndex(f"no trained citation recommendation index under {root}")
    return load_index(max(found)[1])
