"""Ingestion throughput and peak memory on a generated S2ORC dump (``make bench``).

For each shard size it measures, in a fresh process each (so peak RSS is the step's own):

* ``baseline`` (the floor): decompress the metadata and pdf_parses files with ISA-L (as the readers do) and
  JSON-parse every line with orjson, nothing else;
* ``papers``: the ``s2orc_papers`` step (read, type, write Parquet);
* ``filter``: the candidate filter over the lake partition (candidates and rejections);
* ``paragraphs``: the ``s2orc_paragraphs`` step (read pdf_parses, keep candidates' paragraphs, write Parquet);

the three steps call the library functions the shard assets call (``lib/s2orc/shard_tables.py``).

Reported: CPU seconds (user + system of the process, every thread counted, so the figures are per core and
hold on a busy machine), wall seconds, MB/s of compressed input per core, papers/s per core, peak RSS, and the
ratio of the three steps' CPU seconds to the floor's (target: at most 2x). Results go to
``benchmarks/results/ingest.json``. ``--sizes 5000,20000`` is the default; a release-sized shard is about
``--sizes 70000`` (not run by ``make bench``).
"""

import time
from pathlib import Path

from steps import arguments, measure_sizes, print_results, run_step, step_result


def step(name: str, dump: str, data: str) -> dict:
    """Run one step in this process and report its time and peak memory."""
    import orjson
    import pyarrow as pa
    from isal import igzip

    from citeworth_assets.lib.read_issues import IssueLog
    from citeworth_assets.lib.s2orc.schema import ShardSource
    from citeworth_assets.lib.s2orc.shard_tables import candidate_ids, write_candidates, write_papers, write_paragraphs
    from citeworth_assets.lib.s2orc.shards import discover_shards

    (shard,) = discover_shards(Path(dump))
    lake_root = Path(data) / "lake"
    pa.array([0])  # pyarrow imports pandas on its first conversion: once per process, whatever the shard's size
    started, cpu_started = time.perf_counter(), time.process_time()
    papers = 0
    if name == "baseline":
        for path in (shard.metadata, shard.pdf_parses):
            with igzip.open(path, "rb") as lines:
                for line in lines:
                    orjson.loads(line)
                    papers += path == shard.metadata
    elif name == "papers":  # the three steps as the shard assets run them
        papers = write_papers(lake_root, ShardSource(shard.release, shard.key, shard.metadata), IssueLog())
    elif name == "filter":
        papers = write_candidates(lake_root, shard.key).papers
    elif name == "paragraphs":
        ids = candidate_ids(lake_root, shard.key)
        papers = len(ids)
        write_paragraphs(lake_root, ShardSource(shard.release, shard.key, shard.pdf_parses), IssueLog(), ids)
    return step_result(name, started, cpu_started, papers)


def measure(papers: int, workdir: Path) -> dict:
    from citeworth_assets.samples.s2orc import generate_sample_dump

    dump, data = workdir / f"dump_{papers}", workdir / f"data_{papers}"
    if not dump.exists():
        generate_sample_dump(dump, papers=papers, shards=1, seed=1)
    (shard_dir,) = list(dump.glob("*/full"))
    compressed = sum(f.stat().st_size for f in shard_dir.glob("*/*.jsonl.gz"))
    metadata_mb = sum(f.stat().st_size for f in shard_dir.glob("metadata/*.jsonl.gz")) / 1e6
    steps = {name: run_step(__file__, name, dump, data) for name in ("baseline", "papers", "filter", "paragraphs")}
    ours = sum(steps[name]["cpu_seconds"] for name in ("papers", "filter", "paragraphs"))
    floor = steps["baseline"]["cpu_seconds"]
    return {
        "papers": papers,
        "compressed_mb": round(compressed / 1e6, 2),
        "steps": steps,
        "baseline_cpu_seconds": round(floor, 3),
        "baseline_mb_per_second": round(compressed / 1e6 / floor, 2),
        "read_and_filter_cpu_seconds": round(ours, 3),
        "ratio_to_baseline": round(ours / floor, 2),
        "mb_per_second": round(compressed / 1e6 / ours, 2),
        "papers_step_mb_per_second": round(metadata_mb / steps["papers"]["cpu_seconds"], 2),
        "papers_per_second_per_core": round(papers / ours, 1),
        "peak_rss_mb": round(max(s["peak_rss_mb"] for n, s in steps.items() if n != "baseline"), 1),
    }


COLUMNS = [  # header, result key, width
    ("papers", "papers", 8),
    ("MB.gz", "compressed_mb", 7),
    ("floor CPU s", "baseline_cpu_seconds", 11),
    ("floor MB/s", "baseline_mb_per_second", 10),
    ("ours CPU s", "read_and_filter_cpu_seconds", 10),
    ("ratio", "ratio_to_baseline", 6),
    ("MB/s", "mb_per_second", 6),
    ("papers/s/core", "papers_per_second_per_core", 13),
    ("peak RSS MB", "peak_rss_mb", 11),
]


def main() -> None:
    args = arguments("5000,20000", "papers per shard, comma-separated").parse_args()
    results = measure_sizes(args, step, measure, "ingest", "citeworth-bench-")
    if results is not None:
        print_results(results, COLUMNS)


if __name__ == "__main__":
    main()
