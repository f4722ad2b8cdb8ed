"""S2AG reading throughput and memory (``make bench``): an ``s2orc`` full-text file at two sizes, and the ``papers``
join at two ``papers`` sizes.

The file is made of the real S2AG records of ``../shared/data/s2ag-2023/s2orc`` replicated under new corpus ids
(their every fault kept: repeated spans, null annotations, citations in footnotes). Each step runs in a fresh
process, so that peak RSS is the step's own:

* ``floor``: decompress with ISA-L (as the readers do), orjson-parse every line and every annotation string (an
  ``s2orc`` annotation value is JSON inside JSON: parsing it is part of reading the format), nothing else;
* ``line_floor``: the same without the annotation strings (what the 2020 floor of ``benchmarks/ingest.py`` is);
* ``papers``: the ``s2orc_papers`` step of an S2AG file (the full-text pass and the DuckDB join with the staged
  ``papers`` and ``abstracts``);
* ``reader``: reading the file into ``s2orc_paragraphs`` Arrow tables for every paper, without writing them;
* ``paragraphs``: the ``s2orc_paragraphs`` step for every paper of the file (the reader and the Parquet writing);
* ``stage``: staging ``papers`` and ``abstracts``; ``join``: the papers step again against a ``papers`` table of
  another size (the file's ids among them), to show that the join's memory follows the file, not ``papers``.

Reported: CPU seconds (user + system, every thread: per core), wall seconds, MB/s of compressed input per core,
peak RSS, and each reading step's ratio to the floor (target: the reader within 1.5x). The floors and the reader
run ``--repeat`` times, interleaved, and the least CPU time of each is kept (every run's is in the results): on a
shared machine one run of the same step varies by 20 % and more. Results go to
``benchmarks/results/s2ag.json``; docs/scale.md extrapolates them to the full release.
"""

import gzip
import json
import random
import time
from pathlib import Path

from steps import arguments, measure_sizes, print_results, run_step, step_result

SAMPLES = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "s2ag-2023" / "s2orc"
RELEASE = "2023-02-14"
ID_RANGE = 260_000_000  # about the number of corpus ids S2 has handed out


def write_full_texts(path: Path, records: int) -> list[int]:
    """An ``s2orc`` file of ``records`` real records under new corpus ids; the ids."""
    import orjson

    templates = []
    for sample in sorted(SAMPLES.glob("*.gz")):
        with gzip.open(sample, "rb") as f:
            templates += [orjson.loads(line) for line in f if line.strip()]
    if not templates:
        raise SystemExit(f"no real S2AG records under {SAMPLES}: the benchmark replicates them")
    # corpus ids spread over the whole id range, as a real file's are: no row group of papers can be skipped
    ids = random.Random(records).sample(range(1, ID_RANGE), records)
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wb", compresslevel=6) as out:
        for corpus_id, template in zip(ids, templates * (records // len(templates) + 1)):
            out.write(orjson.dumps({**template, "corpusid": corpus_id}) + b"\n")
    return ids


def write_papers(folder: Path, file_ids: list[int], rows: int, seed: int = 0) -> None:
    """``papers`` and ``abstracts`` files of ``rows`` rows in all, the file's ids among them, in random order."""
    rng = random.Random(seed)
    taken = set(file_ids)
    others = [i for i in rng.sample(range(1, ID_RANGE), rows - len(file_ids) + 1000) if i not in taken]
    others = others[: rows - len(file_ids)]
    ids = file_ids + others
    rng.shuffle(ids)
    fields = [{"category": "Biology", "source": "external"}, {"category": "Medicine", "source": "s2-fos-model"}]
    for dataset in ("papers", "abstracts"):
        (folder / dataset).mkdir(parents=True, exist_ok=True)
    with (
        gzip.open(folder / "papers" / "part-0.jsonl.gz", "wt", compresslevel=1) as papers,
        gzip.open(folder / "abstracts" / "part-0.jsonl.gz", "wt", compresslevel=1) as abstracts,
    ):
        for corpus_id in ids:
            row = {
                "corpusid": corpus_id,
                "externalids": {"DOI": f"10.1/{corpus_id}", "MAG": str(corpus_id * 7), "ArXiv": None},
                "url": f"https://www.semanticscholar.org/paper/{corpus_id:040x}",
                "title": f"A study of subject {corpus_id} in its context",
                "authors": [
                    {"authorId": str(corpus_id), "name": "Ada B. Lovelace"},
                    {"authorId": "2", "name": "Al Li"},
                ],
                "venue": "Journal of Studies",
                "year": 2000 + corpus_id % 23,
                "referencecount": corpus_id % 40,
                "citationcount": corpus_id % 13,
                "s2fieldsofstudy": fields,
                "journal": {"name": "J. Stud.", "pages": "1-10", "volume": "3"},
            }
            papers.write(json.dumps(row) + "\n")
            abstract = f"We study subject {corpus_id}. " + "Its findings are reported in detail here. " * 12
            abstracts.write(json.dumps({"corpusid": corpus_id, "openaccessinfo": {}, "abstract": abstract}) + "\n")


def step(name: str, dump: str, data: str) -> dict:
    """Run one step in this process and report its time and peak memory."""
    import orjson
    import pyarrow as pa
    from isal import igzip

    from citeworth_assets.lib.read_issues import IssueLog
    from citeworth_assets.lib.s2ag import layout, staging
    from citeworth_assets.lib.s2ag.join import write_papers as join_papers
    from citeworth_assets.lib.s2ag.records import paragraph_batches, write_paragraphs
    from citeworth_assets.lib.s2orc.schema import ShardSource

    (file,) = layout.discover_files(Path(dump))
    source = ShardSource(file.release, file.key, file.path)
    lake_root = Path(data) / "lake"
    pa.array([0])  # pyarrow imports pandas on its first conversion: once per process
    started, cpu_started = time.perf_counter(), time.process_time()
    papers = 0
    if name in ("floor", "line_floor"):
        with igzip.open(file.path, "rb") as lines:
            for line in lines:
                record = orjson.loads(line)
                papers += 1
                if name == "floor":
                    for value in record["content"]["annotations"].values():
                        if type(value) is str:
                            orjson.loads(value)
    elif name == "stage":
        papers = staging.stage_release(lake_root, Path(dump), file.release, IssueLog()).papers
    elif name in ("papers", "join"):
        papers = join_papers(lake_root, file, source, IssueLog()).papers
    elif name == "paragraphs":
        papers = len(write_paragraphs(lake_root, source, IssueLog()).papers)
    elif name == "reader":
        papers = sum(table.num_rows for table in paragraph_batches(source, IssueLog()))
    return step_result(name, started, cpu_started, papers)


RATIO_STEPS = ("line_floor", "floor", "reader")


def fastest(runs: list[dict]) -> dict:
    """The run of least CPU time, with every run's CPU seconds: on a shared machine the least is the one least
    disturbed (as ``timeit`` takes it)."""
    best = min(runs, key=lambda run: run["cpu_seconds"])
    return {**best, "cpu_seconds_of_each_run": [run["cpu_seconds"] for run in runs]}


def measure(records: int, papers_rows: list[int], workdir: Path, repeat: int = 3) -> dict:
    dump, data = workdir / f"dump_{records}", workdir / f"data_{records}"
    release = dump / "s2ag" / RELEASE
    full_text = release / "s2orc" / "part-0.jsonl.gz"
    ids = write_full_texts(full_text, records)
    mb = full_text.stat().st_size / 1e6
    runs = {name: [] for name in RATIO_STEPS}
    for _ in range(repeat):  # interleaved, so that a slow spell of the machine falls on every step alike
        for name in RATIO_STEPS:
            runs[name].append(run_step(__file__, name, dump, data))
    steps = {name: fastest(found) for name, found in runs.items()}
    steps["paragraphs"] = run_step(__file__, "paragraphs", dump, data)
    joins = []
    for rows in papers_rows:
        write_papers(release, ids, rows)
        staged = run_step(__file__, "stage", dump, data)
        joined = run_step(__file__, "join", dump, data)
        joins.append({"papers_rows": rows, "stage": staged, "join": joined})
    steps["papers"] = joins[0]["join"]
    floor = steps["floor"]["cpu_seconds"]
    return {
        "records": records,
        "compressed_mb": round(mb, 2),
        "steps": steps,
        "floor_mb_per_second": round(mb / floor, 2),
        "line_floor_mb_per_second": round(mb / steps["line_floor"]["cpu_seconds"], 2),
        "reader_mb_per_second": round(mb / steps["reader"]["cpu_seconds"], 2),
        "reader_ratio_to_floor": round(steps["reader"]["cpu_seconds"] / floor, 2),
        "paragraphs_step_mb_per_second": round(mb / steps["paragraphs"]["cpu_seconds"], 2),
        "paragraphs_step_ratio_to_floor": round(steps["paragraphs"]["cpu_seconds"] / floor, 2),
        "papers_step_ratio_to_floor": round(steps["papers"]["cpu_seconds"] / floor, 2),
        "both_steps_ratio_to_two_floors": round(
            (steps["paragraphs"]["cpu_seconds"] + steps["papers"]["cpu_seconds"]) / (2 * floor), 2
        ),
        "joins": joins,
    }


COLUMNS = [  # header, result key, width
    ("records", "records", 8),
    ("MB.gz", "compressed_mb", 7),
    ("floor MB/s", "floor_mb_per_second", 10),
    ("reader MB/s", "reader_mb_per_second", 11),
    ("ratio", "reader_ratio_to_floor", 6),
    ("step ratio", "paragraphs_step_ratio_to_floor", 10),
    ("papers ratio", "papers_step_ratio_to_floor", 12),
]


def _joins(result: dict) -> list[str]:
    return [
        f"         papers {j['papers_rows']} rows: stage {j['stage']['cpu_seconds']:.2f} CPU s/"
        f"{j['stage']['peak_rss_mb']:.0f}MB, join {j['join']['cpu_seconds']:.2f} CPU s/{j['join']['peak_rss_mb']:.0f}MB"
        for j in result["joins"]
    ]


def main() -> None:
    parser = arguments("1000,4000", "full texts per file, comma-separated")
    parser.add_argument("--papers-rows", default="100000,400000", help="papers rows, comma-separated")
    parser.add_argument("--repeat", type=int, default=3, help="runs of the floors and the reader (the least is kept)")
    args = parser.parse_args()
    rows = [int(n) for n in args.papers_rows.split(",")]
    results = measure_sizes(
        args, step, lambda size, workdir: measure(size, rows, workdir, args.repeat), "s2ag", "citeworth-bench-s2ag-"
    )
    if results is not None:
        print_results(results, COLUMNS, _joins)


if __name__ == "__main__":
    main()
