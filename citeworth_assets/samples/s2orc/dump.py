"""File writing: atomic gzip JSON-lines shards and ``generate_sample_dump``."""

from __future__ import annotations

import gzip
import json
import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from citeworth_assets.samples.s2orc.graph import ACCEPTED, CANDIDATE_CRITERIA
from citeworth_assets.samples.s2orc.paper import _PaperWriter


class _AtomicGzipLines:
    """A gzip JSON-lines file written under a temporary name and renamed into place on success.

    ``mtime=0`` and an empty embedded file name make the bytes depend on the content only.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")

    def __enter__(self) -> _AtomicGzipLines:
        self.raw = open(self.tmp, "wb")
        self.gz = gzip.GzipFile(fileobj=self.raw, mode="wb", mtime=0, filename="", compresslevel=3)
        return self

    def write(self, record: dict) -> None:
        self.gz.write((json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8"))

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            self.gz.close()
        finally:
            self.raw.close()
        if exc_type is None:
            os.replace(self.tmp, self.path)
        else:
            self.tmp.unlink(missing_ok=True)


def generate_sample_dump(
    out_dir: str | Path,
    papers: int = 1000,
    shards: int = 2,
    seed: int = 0,
    release: str = "20200705v1",
    on_paper: Callable[[int, int, dict, dict | None], None] | None = None,
) -> dict:
    """Write a synthetic S2ORC release under ``out_dir/<release>/full/{metadata,pdf_parses}``.

    Papers are split into contiguous blocks, one per shard; ``pdf_parses_{i}`` holds exactly the
    papers of ``metadata_{i}`` whose ``has_pdf_parse`` is true, in the same order.  Returns a
    summary: papers and pdf_parses per shard, the intended first-failed candidate criterion per
    paper (``rejection_reasons``, including ``accepted``), citation styles, paragraph kinds, files
    and bytes written. ``on_paper(shard, index, metadata, pdf_parse)`` is called with each paper's records after
    they are written (the S2AG writer, :mod:`citeworth_assets.samples.s2ag`, lays out the same papers from them).
    """
    if papers < 0:
        raise ValueError("papers must be >= 0")
    if shards < 1:
        raise ValueError("shards must be >= 1")
    root = Path(out_dir) / release / "full"
    meta_dir, pdf_dir = root / "metadata", root / "pdf_parses"
    meta_dir.mkdir(parents=True, exist_ok=True)
    pdf_dir.mkdir(parents=True, exist_ok=True)

    reasons = Counter({name: 0 for name in (*CANDIDATE_CRITERIA, ACCEPTED)})
    styles: Counter = Counter()
    kinds: Counter = Counter()
    papers_per_shard, pdf_per_shard, files = [], [], []
    bytes_written = 0
    for shard in range(shards):
        lo, hi = shard * papers // shards, (shard + 1) * papers // shards
        meta_path = meta_dir / f"metadata_{shard}.jsonl.gz"
        pdf_path = pdf_dir / f"pdf_parses_{shard}.jsonl.gz"
        n_pdf = 0
        # pdf_parses is renamed into place first (inner context exits first), then metadata.
        with _AtomicGzipLines(meta_path) as meta_out, _AtomicGzipLines(pdf_path) as pdf_out:
            for index in range(lo, hi):
                writer = _PaperWriter(seed, index, papers)
                meta = writer.metadata()
                meta_out.write(meta)
                parse = writer.pdf_parse()
                if parse is not None:
                    pdf_out.write(parse)
                    n_pdf += 1
                if on_paper is not None:
                    on_paper(shard, index, meta, parse)
                reasons[writer.reason] += 1
                styles[writer.style] += 1
                kinds.update(writer.paragraph_kinds)
        papers_per_shard.append(hi - lo)
        pdf_per_shard.append(n_pdf)
        for path in (meta_path, pdf_path):
            bytes_written += path.stat().st_size
            files.append(str(path.relative_to(out_dir)))
    return {
        "release": release,
        "seed": seed,
        "papers": papers,
        "shards": shards,
        "papers_per_shard": papers_per_shard,
        "pdf_parses_per_shard": pdf_per_shard,
        "pdf_parses": sum(pdf_per_shard),
        "rejection_reasons": dict(reasons),
        "citation_styles": dict(sorted(styles.items())),
        "paragraph_kinds": dict(sorted(kinds.items())),
        "files": files,
        "bytes_written": bytes_written,
    }
