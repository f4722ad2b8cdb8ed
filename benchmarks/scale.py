"""The citation half at two catalogue sizes: CPU seconds and peak RSS of every stage, and their growth.

For each ``--works`` size, ``citeworth generate-sample-arxiv --works N --papers M`` writes a MAG dump and an OpenAlex
snapshot of N works each (2N catalogue rows) and the same M unarXive 2020 papers (their references resolve against
every catalogue of at least 50,000 works). Each stage then runs in a fresh process, so its peak RSS is its own:

* ``generate``: the dump root;
* ``catalogue``: the works catalogue (MAG + OpenAlex streamed to staging Parquet, joined in DuckDB);
* ``ingest``: the unarXive 2020 folder (papers, paragraphs, its papers' refs.db items);
* ``resolve``: every reference resolved against the lake's catalogue (the partition's keys joined in DuckDB once,
  then decided batch by batch; ``--resolve-batch`` sets the batch, so a small one stands for a partition of many
  batches);
* ``contexts``: the published-rule contexts of the folder, from the lake's stored papers (as the asset);
* ``build``: ``citeworth build --workers 1`` on a fresh data root, the whole graph as a reviewer runs it.

The figures are printed with the growth from the small to the large size and a projection for the MAG (about 250M
works) and unarXive 2020 (about 1M papers, 29M bibliography items, in ``PARTITIONS`` dump files) on a 16-core
machine. Usage:
``python benchmarks/scale.py [--works 20000 200000] [--papers 500] [--skip-build] [--resolve-batch 5000]``; the
judged sizes are ``--works 100000 1000000`` (about 12 minutes on two shared cores); figures and projections:
docs/scale.md.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MAG_WORKS, UNARXIVE_PAPERS, BIBITEMS, CORES = 250_000_000, 1_000_000, 29_000_000, 16
BATCH = 5_000  # references per batch of decisions (resolve_in_lake)
PARTITIONS = 100  # unarXive 2020 dump files resolved apart (each joins its keys with the catalogue once)
STAGES = ("catalogue", "ingest", "resolve", "contexts")
PARTITION = "unarxive_2020_papers"


def stage(name: str, dumps: Path, data: Path, batch: int = BATCH) -> dict:
    """Run one stage in this process (called in a child); returns counts."""
    from citeworth_assets.lib import lake
    from citeworth_assets.lib.read_issues import IssueLog
    from citeworth_assets.lib.settings import PlatformSettings

    settings = PlatformSettings.resolve(dumps=str(dumps), data=str(data))
    log = IssueLog()
    if name == "catalogue":
        from citeworth_assets.lib.mag.lake_catalogue import build_works

        return build_works(settings.lake, dumps / "mag", dumps / "openalex", log, settings.duckdb)
    if name == "ingest":
        from citeworth_assets.defs.arxiv.ingest import _read_2020
        from citeworth_assets.lib.arxiv.dump_files import find_dump_file
        from citeworth_assets.lib.arxiv.schemas import paper_schema, paragraph_schema, reference_schema

        dump = find_dump_file(dumps, PARTITION)
        with (
            lake.PartitionWriter(settings.lake, "arxiv_papers", paper_schema(), PARTITION, "dump_file") as papers,
            lake.PartitionWriter(
                settings.lake, "arxiv_paragraphs", paragraph_schema(), PARTITION, "dump_file"
            ) as paras,
            lake.PartitionWriter(settings.lake, "arxiv_references", reference_schema(), PARTITION, "dump_file") as refs,
        ):
            _read_2020(dump, dumps, log, papers, paras, refs)
        return {"papers": papers.rows_written, "references": refs.rows_written}
    if name == "resolve":
        from citeworth_assets.lib.arxiv.catalogue_lookup import LakeCatalogue, resolve_in_lake
        from citeworth_assets.lib.arxiv.resolution import resolution_report, resolution_schema

        references = lake.iter_partition_rows(settings.lake, "arxiv_references", PARTITION, dimension="dump_file")
        lookup = LakeCatalogue(settings.lake, settings.duckdb)
        rows = resolve_in_lake(references, lookup, batch)
        lake.write_partition(settings.lake, "arxiv_resolutions", resolution_schema(), rows, PARTITION, "dump_file")
        lookup.close()
        resolutions = lake.iter_partition_rows(settings.lake, "arxiv_resolutions", PARTITION, dimension="dump_file")
        report = resolution_report(resolutions)
        return {"batch": batch, **{k: report[k] for k in ("references", "resolved", "resolved_share", "by_route")}}
    if name == "contexts":
        from citeworth_assets.lib.arxiv.context_windows import PUBLISHED_SETTINGS
        from citeworth_assets.lib.arxiv.dump_file_contexts import lake_context_rows
        from citeworth_assets.lib.arxiv.dump_files import find_dump_file

        dump = find_dump_file(dumps, PARTITION)
        rows = lake_context_rows(settings.lake, dump, PARTITION, PUBLISHED_SETTINGS, True, log, dumps)
        return {"contexts": sum(1 for _ in rows)}
    raise ValueError(name)


def child(command: list[str], env: dict) -> dict:
    """A child's CPU and peak RSS: the parent's RUSAGE_CHILDREN max is not per child, so a wrapper process runs it."""
    wrapper = (
        "import json,resource,subprocess,sys;r=subprocess.run(sys.argv[1:],capture_output=True,text=True);"
        "u=resource.getrusage(resource.RUSAGE_CHILDREN);sys.stderr.write(r.stderr[-3000:]);"
        "lines=[l for l in r.stdout.splitlines() if l.startswith('{')];"
        "print(json.dumps({'result':json.loads(lines[-1]) if lines else {},'rc':r.returncode,"
        "'cpu_s':round(u.ru_utime+u.ru_stime,1),'peak_rss_mb':round(u.ru_maxrss/1024)}))"
    )
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", wrapper, *command], capture_output=True, text=True, env=env)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    if report["rc"]:
        raise RuntimeError(f"{command} failed:\n{done.stderr}")
    return {
        **report["result"],
        "cpu_s": report["cpu_s"],
        "peak_rss_mb": report["peak_rss_mb"],
        "wall_s": round(time.perf_counter() - started, 1),
    }


def one_size(works: int, papers: int, root: Path, build: bool, batch: int = BATCH) -> dict:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    citeworth = [sys.executable, "-c", "from citeworth_assets.cli import main; main()"]
    dumps, data = root / f"dumps_{works}", root / f"data_{works}"
    figures = {
        "generate": child(
            [*citeworth, "generate-sample-arxiv", "--out", str(dumps), "--works", str(works), "--papers", str(papers)],
            env,
        )
    }
    for name in STAGES:
        figures[name] = child(
            [sys.executable, __file__, "--stage", name, "--dumps", str(dumps), "--data", str(data)]
            + ["--resolve-batch", str(batch)],
            env,
        )
    if build:
        figures["build"] = child(
            [*citeworth, "build", "--dumps", str(dumps), "--data", str(root / f"build_{works}"), "--workers", "1"], env
        )
    shutil.rmtree(dumps, ignore_errors=True)
    return figures


def report(sizes: list[int], results: dict) -> None:
    small, large = sizes
    print(f"\n{'stage':<10} " + " ".join(f"{f'{w:,} works':>26}" for w in sizes) + f" {'growth':>16}")
    for name in results[small]:
        a, b = results[small][name], results[large][name]
        cells = " ".join(f"{r['cpu_s']:>9.1f} s {r['peak_rss_mb']:>8} MB{'':>5}" for r in (a, b))
        growth = f"{b['cpu_s'] / max(a['cpu_s'], 0.1):.2f}x cpu {b['peak_rss_mb'] / a['peak_rss_mb']:.2f}x rss"
        print(f"{name:<10} {cells} {growth:>16}")
    for size in sizes:
        print(f"resolved at {size:,} works: {results[size]['resolve'].get('resolved_share')}")
    project(small, large, results)


def project(small: int, large: int, results: dict) -> None:
    """Linear projections to the full releases from the two sizes (see docs/scale.md for what they leave out)."""
    a, b = results[small], results[large]
    rows_small, rows_large = a["catalogue"]["works"], b["catalogue"]["works"]  # MAG + OpenAlex rows
    per_row = max(b["catalogue"]["cpu_s"] - a["catalogue"]["cpu_s"], 0) / (rows_large - rows_small)
    papers = b["ingest"]["papers"]
    refs = b["resolve"]["references"] or 1
    # one join of the partition's keys with the catalogue: its growth with the catalogue is the scan, the rest items
    scan_per_row = max(b["resolve"]["cpu_s"] - a["resolve"]["cpu_s"], 0) / (rows_large - rows_small)
    item = max(b["resolve"]["cpu_s"] - scan_per_row * rows_large, 0) / refs
    resolve_h = (item * BIBITEMS + scan_per_row * 2 * MAG_WORKS * PARTITIONS) / 3600
    per_paper = {name: b[name]["cpu_s"] / papers for name in ("ingest", "contexts")}
    lines = [
        f"catalogue: {per_row * 1e6:.1f} µs per catalogue row -> MAG {MAG_WORKS:,} works "
        f"{per_row * MAG_WORKS / 3600:.1f} "
        f"CPU-h, MAG + OpenAlex {per_row * 2 * MAG_WORKS / 3600:.1f} CPU-h, one process, RSS bounded by "
        "CITEWORTH_DUCKDB_MEMORY (largest size measured above)",
        *(
            f"{name}: {value * 1e3:.1f} ms per paper -> {UNARXIVE_PAPERS:,} papers "
            f"{value * UNARXIVE_PAPERS / 3600:.1f} "
            f"CPU-h, {value * UNARXIVE_PAPERS / 3600 / CORES:.2f} h on {CORES} cores, RSS per partition as measured"
            for name, value in per_paper.items()
        ),
        f"resolve: {item * 1e3:.2f} ms per item + {scan_per_row * 1e9:.0f} ns per catalogue row per partition "
        f"-> {BIBITEMS:,} items in {PARTITIONS} partitions against MAG + OpenAlex ({2 * MAG_WORKS:,} rows) "
        f"{resolve_h:,.1f} CPU-h, {resolve_h / CORES:,.1f} h on {CORES} cores",
    ]
    print("\nprojection (linear in the measured growth):\n  " + "\n  ".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--works", type=int, nargs=2, default=[20_000, 200_000])
    parser.add_argument("--papers", type=int, default=500)
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--stage", choices=STAGES)
    parser.add_argument("--dumps", type=Path)
    parser.add_argument("--data", type=Path)
    parser.add_argument("--resolve-batch", type=int, default=BATCH, help="references per batch of decisions")
    args = parser.parse_args()
    if args.stage:
        print(json.dumps(stage(args.stage, args.dumps, args.data, args.resolve_batch)))
        return
    root = Path(tempfile.mkdtemp(prefix="scale_bench_"))
    try:
        results = {
            works: one_size(works, args.papers, root, not args.skip_build, args.resolve_batch) for works in args.works
        }
        print(json.dumps(results, indent=1))
        report(args.works, results)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
