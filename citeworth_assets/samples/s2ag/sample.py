"""``citeworth generate-sample``: the sample papers in the 2020 layout, the S2AG layout, or both.

Both layouts are written from the same records in one pass: the 2020 generator hands each paper's metadata line and
pdf parse to the S2AG writer. For the S2AG layout alone, the papers are generated the same way and not written in
the 2020 layout; the summary then has the same counts (reasons, styles, paragraph kinds) without the 2020 files.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from citeworth_assets.samples.s2ag.release import DEFAULT_RELEASE, S2agRelease
from citeworth_assets.samples.s2orc.dump import generate_sample_dump
from citeworth_assets.samples.s2orc.graph import ACCEPTED, CANDIDATE_CRITERIA
from citeworth_assets.samples.s2orc.paper import _PaperWriter

# The S2AG full-text datasets each layout writes. A release's `s2orc` and `s2orc_v2` hold the same papers, so a
# dump of both (or of 2020 shards beside them) gives each paper several times: the build keeps the first and reports
# the others in `s2orc_duplicate_papers`.
FULL_TEXTS = {"2020": (), "s2ag": ("s2orc",), "s2ag_v2": ("s2orc_v2",), "both": ("s2orc", "s2orc_v2")}
LAYOUTS = tuple(FULL_TEXTS)


def generate_s2ag_release(
    out_dir: str | Path,
    papers: int = 1000,
    shards: int = 2,
    seed: int = 0,
    release: str = DEFAULT_RELEASE,
    full_texts: tuple[str, ...] = ("s2orc",),
) -> dict:
    """Write only the S2AG release of the sample (the papers ``generate_sample_dump`` would write for the seed)."""
    if papers < 0:
        raise ValueError("papers must be >= 0")
    if shards < 1:
        raise ValueError("shards must be >= 1")
    reasons = Counter({name: 0 for name in (*CANDIDATE_CRITERIA, ACCEPTED)})
    styles: Counter = Counter()
    kinds: Counter = Counter()
    with_parse = 0
    with S2agRelease(out_dir, seed, shards, release, full_texts) as s2ag:
        for shard in range(shards):
            for index in range(shard * papers // shards, (shard + 1) * papers // shards):
                writer = _PaperWriter(seed, index, papers)
                meta = writer.metadata()
                parse = writer.pdf_parse()
                with_parse += parse is not None
                s2ag.add(shard, index, meta, parse)
                reasons[writer.reason] += 1
                styles[writer.style] += 1
                kinds.update(writer.paragraph_kinds)
    written = s2ag.summary()
    return {
        "release": f"s2ag {release}",
        "seed": seed,
        "papers": papers,
        "shards": shards,
        "pdf_parses": with_parse,
        "rejection_reasons": dict(reasons),
        "citation_styles": dict(sorted(styles.items())),
        "paragraph_kinds": dict(sorted(kinds.items())),
        "files": written["files"],
        "bytes_written": written["bytes_written"],
        "s2ag": written,
    }


def generate_sample(
    out_dir: str | Path, papers: int = 1000, shards: int = 2, seed: int = 0, layout: str = "both"
) -> dict:
    """The sample in ``layout`` (a key of :data:`FULL_TEXTS`); the summary of ``generate_sample_dump`` with the
    S2AG release's own summary (records, files, faulty papers) under ``s2ag``."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, got {layout!r}")
    if layout == "2020":
        return generate_sample_dump(out_dir, papers=papers, shards=shards, seed=seed)
    if layout != "both":
        return generate_s2ag_release(out_dir, papers=papers, shards=shards, seed=seed, full_texts=FULL_TEXTS[layout])
    with S2agRelease(out_dir, seed, shards, full_texts=FULL_TEXTS[layout]) as s2ag:
        summary = generate_sample_dump(out_dir, papers=papers, shards=shards, seed=seed, on_paper=s2ag.add)
    written = s2ag.summary()
    summary["files"] += written["files"]
    summary["bytes_written"] += written["bytes_written"]
    summary["s2ag"] = written
    return summary
