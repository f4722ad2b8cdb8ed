"""ROUGE-SciQFS benchmarks (``make bench``).

1. The greedy augmentation: incremental n-gram counts against the naive rouge-score loop. Generates papers of
   ``--sentences`` sentences (Zipf-like vocabulary, 10-40 words a sentence) with a 200-word query and two citing
   sentences, runs both implementations on each, checks that they select the same sentences with the same final
   scores, and prints the times and the speed-up::

       PYTHONPATH=$PWD python benchmarks/sciqfs.py --papers 3 --sentences 500

2. One partition (``--partition``): a generated S2ORC shard of each size in ``--sizes`` (papers in the dump) is
   ingested into a lake (papers, candidates, paragraphs, the cited-abstract catalogue, the duplicate list), then
   each SciQFS step runs in a fresh process, as a partition run does: ``tables`` (the shard's citing papers read
   from the lake, the clean tables), ``examples`` (examples and augmentation) and ``release`` (every partition's
   examples streamed into the release). Reported per step and size: CPU seconds, peak RSS (VmHWM), citing papers
   and examples, and the growth per citing paper between the two sizes. Results go to
   ``benchmarks/results/sciqfs_partition.json``::

       PYTHONPATH=$PWD python benchmarks/sciqfs.py --partition --sizes 450 1350

   (under a minute on a shared 2-core machine; ``--sizes 1000 3000`` takes some ten minutes).
"""

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
PARTITION_STEPS = ("tables", "examples", "release")


def _paper(rng: random.Random, sentences: int, vocabulary: list[str], weights: list[float]):
    def words(k):
        return " ".join(rng.choices(vocabulary, weights, k=k))

    document = [words(rng.randint(10, 40)).capitalize() + "." for _ in range(sentences)]
    query = words(200)
    return document, query, rng.sample(range(sentences), 2)


def peak_rss_mb() -> float:
    """This process's peak RSS since its exec (VmHWM; ru_maxrss would include the forking parent's)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def prepare_lake(papers: int, workdir: Path) -> tuple[Path, str]:
    """A generated one-shard dump ingested into a lake as the S2ORC and CiteSum assets write it."""
    from citeworth_assets.lib import lake
    from citeworth_assets.lib.citesum.tables import write_cited_abstract_catalogue
    from citeworth_assets.lib.duplicates import write_duplicate_papers
    from citeworth_assets.lib.read_issues import IssueLog
    from citeworth_assets.lib.s2orc.candidate_filter import split_candidates
    from citeworth_assets.lib.s2orc.records import (
        ShardSource,
        paper_schema,
        paragraph_schema,
        read_metadata,
        read_paragraphs,
    )
    from citeworth_assets.lib.s2orc.schema import DUPLICATES
    from citeworth_assets.lib.s2orc.shards import discover_shards
    from citeworth_assets.samples.s2orc import generate_sample_dump

    dump, root = workdir / f"dump_{papers}", workdir / f"lake_{papers}"
    generate_sample_dump(dump, papers=papers, shards=1, seed=5)
    (shard,) = discover_shards(dump)
    metadata = ShardSource(shard.release, shard.key, shard.metadata)
    lake.write_partition(root, "s2orc_papers", paper_schema(), read_metadata(metadata, IssueLog()), shard.key)
    table = lake.read_partition(root, "s2orc_papers", shard.key)
    candidates = set(split_candidates(table)[0].column("paper_id").to_pylist())
    source = ShardSource(shard.release, shard.key, shard.pdf_parses)
    paragraphs = read_paragraphs(source, IssueLog(), candidates)
    lake.write_partition(root, "s2orc_paragraphs", paragraph_schema(), paragraphs, shard.key)
    write_cited_abstract_catalogue(root)
    write_duplicate_papers(root, DUPLICATES)
    return root, shard.key


def partition_step(name: str, root: Path, key: str, out: Path) -> dict:
    """One SciQFS step in this process, as the asset runs it; its CPU time, peak RSS and counts."""
    from citeworth_assets.lib.read_issues import IssueLog
    from citeworth_assets.lib.sciqfs import dataset, lake_tables, s2orc_lake
    from citeworth_assets.lib.sciqfs.examples import ExampleCounts
    from citeworth_assets.lib.sciqfs.release import write_release
    from citeworth_assets.lib.sciqfs.splits import SplitSettings
    from citeworth_assets.lib.sentences import splitter

    dimension, settings = lake_tables.S2ORC_DIMENSION, dataset.SciqfsSettings()
    if name != "release":  # the release splits no text
        split = splitter().split
        split("Warm the splitter up. Before the clock starts.")
    started, counts = cpu_seconds(), {}
    if name == "tables":
        log = IssueLog()
        counts = lake_tables.write_tables(root, s2orc_lake.shard_papers(root, key, split, log), log, key, dimension)
    elif name == "examples":
        tables = lake_tables.read_tables(root, key, dimension)
        examples = dataset.partition_examples(tables, split, settings, ExampleCounts())
        counts = {"examples": lake_tables.write_examples(root, examples, key, dimension, {})}
    else:
        splits = SplitSettings()
        split_of = dataset.release_splits(lake_tables.citing_paper_ids(root), splits)
        rows, _ = write_release(lake_tables.iter_examples(root), split_of, out, {}, "benchmark")
        counts = {"released": sum(rows.values())}
    return {"step": name, "cpu_seconds": round(cpu_seconds() - started, 2), "peak_rss_mb": peak_rss_mb(), **counts}


def run_partition_step(name: str, root: Path, key: str, out: Path) -> dict:
    done = subprocess.run(
        [sys.executable, __file__, "--step", name, "--lake", str(root), "--key", key, "--out", str(out)],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def partition_benchmark(sizes: list[int]) -> None:
    measured = {}
    with tempfile.TemporaryDirectory(prefix="sciqfs_bench_") as folder:
        for size in sizes:
            root, key = prepare_lake(size, Path(folder))
            steps = {
                name: run_partition_step(name, root, key, Path(folder) / f"release_{size}") for name in PARTITION_STEPS
            }
            measured[size] = {"citing_papers": steps["tables"]["sciqfs_papers"], "steps": steps}
            for row in steps.values():
                print(f"{size} papers in the dump, {measured[size]['citing_papers']} citing: {json.dumps(row)}")
    small, large = (measured[size] for size in sizes[:2])
    extra = large["citing_papers"] - small["citing_papers"]
    growth = {
        name: {
            "cpu_ms_per_citing_paper": round(1000 * large["steps"][name]["cpu_seconds"] / large["citing_papers"], 1),
            "rss_kb_per_extra_citing_paper": round(
                1024 * (large["steps"][name]["peak_rss_mb"] - small["steps"][name]["peak_rss_mb"]) / extra, 1
            )
            if extra
            else None,
        }
        for name in PARTITION_STEPS
    }
    for name, row in growth.items():
        print(
            f"{name}: {row['cpu_ms_per_citing_paper']} CPU ms per citing paper, peak RSS "
            f"+{row['rss_kb_per_extra_citing_paper']} KB per extra citing paper"
        )
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "sciqfs_partition.json").write_text(json.dumps({"sizes": measured, "growth": growth}, indent=2))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--papers", type=int, default=3)
    parser.add_argument("--sentences", type=int, default=500)
    parser.add_argument("--rouge-type", default="rouge2")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--partition", action="store_true", help="benchmark one partition's steps at two sizes")
    parser.add_argument("--sizes", type=int, nargs=2, default=[450, 1350])
    parser.add_argument("--step", choices=PARTITION_STEPS, help=argparse.SUPPRESS)
    parser.add_argument("--lake", help=argparse.SUPPRESS)
    parser.add_argument("--key", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.step:
        print(json.dumps(partition_step(args.step, Path(args.lake), args.key, Path(args.out))))
        return
    if args.partition:
        partition_benchmark(args.sizes)
        return

    from rouge_score import rouge_scorer, scoring, tokenizers  # noqa: F401  (imported once, before any timing)

    from citeworth_assets.lib.sciqfs.augmentation import (
        AugmentationSettings,
        augment,
        augment_naive,
    )

    rng = random.Random(args.seed)
    vocabulary = [f"word{i}" for i in range(2000)]
    weights = [1 / (rank + 1) for rank in range(len(vocabulary))]
    settings = AugmentationSettings(rouge_type=args.rouge_type)
    fast_total = naive_total = 0.0
    for p in range(args.papers):
        document, query, citing = _paper(rng, args.sentences, vocabulary, weights)
        started = time.perf_counter()
        fast = augment(document, query, citing, settings)
        fast_s = time.perf_counter() - started
        started = time.perf_counter()
        naive = augment_naive(document, query, citing, settings)
        naive_s = time.perf_counter() - started
        same = fast.added == naive.added and (fast.precision, fast.recall, fast.fmeasure) == (
            naive.precision,
            naive.recall,
            naive.fmeasure,
        )
        fast_total, naive_total = fast_total + fast_s, naive_total + naive_s
        print(
            f"paper {p}: {args.sentences} sentences, {len(fast.added)} added, identical={same}, "
            f"incremental {fast_s * 1000:.1f} ms, naive {naive_s * 1000:.1f} ms, speed-up {naive_s / fast_s:.1f}x, "
            f"final {args.rouge_type} F1 {fast.fmeasure:.4f}"
        )
        if not same:
            raise SystemExit(f"selections differ: incremental {fast.added}, naive {naive.added}")
    print(f"total: incremental {fast_total:.3f} s, naive {naive_total:.3f} s, speed-up {naive_total / fast_total:.1f}x")


if __name__ == "__main__":
    main()
