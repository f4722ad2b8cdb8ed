"""Files of the S2AG release: ``<out>/s2ag/<release>/<dataset>/<opaque name>.gz``, one file per dataset and shard.

A shard holds the papers of the 2020 shard of the same number, so ``s2orc`` file k and ``pdf_parses_k`` hold the
same full texts, and ``papers`` / ``abstracts`` file k the rows of ``metadata_k``. File names look like the
datasets API's (``20230530_081507_00041_kqzvd_<uuid>.gz``) and depend only on the seed, release and shard. Files
are written under a temporary name and renamed into place when complete, as the 2020 shards are.
"""

from __future__ import annotations

from collections import Counter
from contextlib import ExitStack
from pathlib import Path

from citeworth_assets.samples.s2ag import faults, records
from citeworth_assets.samples.s2orc.dump import _AtomicGzipLines

DEFAULT_RELEASE = "2023-05-30"
DATASETS = ("s2orc", "s2orc_v2", "papers", "abstracts")


class _Lines(_AtomicGzipLines):
    """Compact JSON lines as the real files have them, with the encoding faults of :func:`faults.encode`."""

    def write(self, record: dict) -> None:
        self.gz.write(faults.encode(record) + b"\n")


def file_name(seed: int, release: str, dataset: str, shard: int) -> str:
    """An opaque shard name in the datasets API's style, deterministic for (seed, release, dataset, shard)."""
    code = "".join(chr(97 + int(c, 16) % 26) for c in records.digest("query", seed, release, dataset)[:5])
    query = 41 + DATASETS.index(dataset)
    name = records.uuid_like("file", seed, release, dataset, shard)
    return f"{release.replace('-', '')}_081507_{query:05d}_{code}_{name}.gz"


class S2agRelease:
    """Writes the S2AG datasets of a sample, paper by paper, as the 2020 generator hands them over (:meth:`add`).

    Used as a context manager: files of a shard are renamed into place when the next shard starts or the
    release closes; a shard without papers still gets its (empty) files; on an error nothing half-written stays.
    """

    def __init__(
        self,
        out_dir: str | Path,
        seed: int,
        shards: int,
        release: str = DEFAULT_RELEASE,
        full_texts: tuple[str, ...] = ("s2orc", "s2orc_v2"),
    ) -> None:
        self.out_dir, self.seed, self.shards, self.release = Path(out_dir), seed, shards, release
        self.datasets = tuple(name for name in DATASETS if name in full_texts or name in ("papers", "abstracts"))
        self.root = self.out_dir / "s2ag" / release
        self.shard: int | None = None
        self.stack: ExitStack | None = None
        self.files: dict[str, _Lines] = {}
        self.picker = faults.FaultPicker(seed)
        self.records: Counter = Counter({name: 0 for name in self.datasets})
        self.faults: dict[str, list[int]] = {name: [] for name in faults.FAULTS}
        self.span_repeats: Counter = Counter()
        self.paths: list[Path] = []

    def __enter__(self) -> S2agRelease:
        for dataset in self.datasets:
            (self.root / dataset).mkdir(parents=True, exist_ok=True)
        return self

    def _open(self, shard: int) -> None:
        self._close()
        self.shard, self.stack = shard, ExitStack()
        self.picker.start_shard(shard)
        for dataset in self.datasets:
            path = self.root / dataset / file_name(self.seed, self.release, dataset, shard)
            self.files[dataset] = self.stack.enter_context(_Lines(path))
            self.paths.append(path)

    def _close(self, error: BaseException | None = None) -> None:
        if self.stack is not None:
            if error is None:
                self.stack.close()
            else:
                self.stack.__exit__(type(error), error, error.__traceback__)
            self.stack = None

    def add(self, shard: int, index: int, meta: dict, parse: dict | None) -> None:
        """Write one paper (its 2020 metadata line and pdf parse) to the datasets of ``shard``."""
        if shard != self.shard:
            self._open(shard)
        fault = self.picker.pick(meta, parse)
        if fault is not None:
            self.faults[fault].append(int(meta["paper_id"]))
        self.files["papers"].write(records.papers_row(self.seed, index, meta, parse, fault))
        self.records["papers"] += 1
        abstract = records.abstracts_row(self.seed, index, meta, parse)
        if abstract is not None:
            self.files["abstracts"].write(abstract)
            self.records["abstracts"] += 1
        if parse is not None:
            if "s2orc" in self.files:
                self.files["s2orc"].write(records.s2orc_record(self.seed, index, meta, parse, fault))
                self.records["s2orc"] += 1
            if "s2orc_v2" in self.files:
                self.files["s2orc_v2"].write(records.s2orc_v2_record(self.seed, index, meta, parse, fault))
                self.records["s2orc_v2"] += 1
            self.span_repeats[records.repeats(self.seed, index)] += 1

    def __exit__(self, exc_type, exc, tb) -> None:
        self._close(exc)
        if exc is None:
            for shard in range(self.shards):
                if not any(file_name(self.seed, self.release, "papers", shard) == p.name for p in self.paths):
                    self._open(shard)
            self._close()

    def summary(self) -> dict:
        """Records per dataset, files, bytes, how often span lists repeat, and the faulty papers by fault."""
        paths = sorted(self.paths)
        return {
            "release": self.release,
            "root": str(self.root.relative_to(self.out_dir)),
            "records": dict(self.records),
            "span_repeats": {str(k): v for k, v in sorted(self.span_repeats.items())},
            "faults": {name: sorted(ids) for name, ids in self.faults.items()},
            "files": [str(path.relative_to(self.out_dir)) for path in paths],
            "bytes_written": sum(path.stat().st_size for path in paths),
        }
