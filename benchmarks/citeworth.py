"""CiteWorth cleaning throughput per core, for both rule sets, on a generated dump (``make bench``).

For one shard of a generated dump it measures, per rule set:

* read and parse: streaming the pdf_parses shard into papers (candidates only);
* tokenize, split, rules: inside the cleaning (``clean_papers(timings=...)``);
* write: the accepted paragraphs and rejections to Parquet;

and reports papers/s and paragraphs/s (body paragraphs of candidate papers) on one core, with the
projected time for the full release (5.5 million candidate papers) on 16 cores.

``--published PATH`` also runs a local copy of the published ``build_dataset.py`` (copenlu/cite-worth,
not shipped here) on the same shard, with scispaCy's own pysbd sentencizer as its ``nlp``, compares its
output with ``citeworth_2021`` (paragraphs with a context-only sentence left out) and reports the speedup.
"""

import argparse
import gzip
import importlib.util
import json
import os
import sys
import tempfile
import time
from pathlib import Path

RELEASE_CANDIDATES = 5_500_000
CORES = 16
RESULTS = Path(__file__).resolve().parent / "results"


def load_papers(dump: Path):
    from citeworth_assets.lib.jsonl import IssueLog
    from citeworth_assets.lib.s2orc.candidate_filter import first_failed_criterion
    from citeworth_assets.lib.s2orc.records import (
        ShardSource,
        papers_from_paragraph_rows,
        read_metadata,
        read_paragraphs,
    )
    from citeworth_assets.lib.s2orc.shards import discover_shards

    (shard,) = discover_shards(dump)
    log = IssueLog()
    fields = {
        row["paper_id"]: row["mag_field_of_study"]
        for row in read_metadata(ShardSource(shard.release, shard.key, shard.metadata), log)
        if first_failed_criterion(row) is None
    }
    started = time.perf_counter()
    rows = read_paragraphs(ShardSource(shard.release, shard.key, shard.pdf_parses), log, set(fields))
    papers = list(papers_from_paragraph_rows(rows, fields))
    return shard, fields, papers, time.perf_counter() - started


def clean(papers, rules_name: str, workdir: Path) -> dict:
    from citeworth_assets.lib import lake
    from citeworth_assets.lib.citeworth.cleaning import (
        PARAGRAPH_SCHEMA,
        REJECTION_SCHEMA,
        clean_papers,
        paragraph_row,
        rejection_rows,
    )
    from citeworth_assets.lib.citeworth.rules import rule_set
    from citeworth_assets.lib.sentences import splitter

    rules, sentence_splitter = rule_set(rules_name), splitter()
    timings: dict[str, float] = {}
    results = []
    started = time.perf_counter()
    for result in clean_papers(papers, rules, sentence_splitter, timings=timings):
        results.append(result)
    cleaning = time.perf_counter() - started
    started = time.perf_counter()
    lake.write_partition(workdir, "p", PARAGRAPH_SCHEMA, (paragraph_row(rules, r, a) for r in results for a in r.accepted), rules.name)
    lake.write_partition(workdir, "r", REJECTION_SCHEMA, (row for r in results for row in rejection_rows(rules, r)), rules.name)
    timings["write"] = time.perf_counter() - started
    timings["cleaning"] = cleaning
    accepted = {(r.paper.paper_id, a.paragraph["paragraph_index"]): [(s.label, s.text) for s in a.verdict.samples] for r in results for a in r.accepted}
    return {"name": rules.name, "timings": timings, "accepted": accepted}


def run_published(path: Path, shard, fields: dict) -> tuple[dict, float]:
    """The published worker on one shard, laid out as it expects; returns its paragraphs and seconds."""
    import scispacy.custom_sentence_segmenter  # noqa: F401
    import spacy
    from scispacy.custom_tokenizer import combined_rule_tokenizer

    from citeworth_assets.lib.citeworth.rules import PERMISSIBLE_SECTION_TITLES

    root = Path(tempfile.mkdtemp(prefix="published-"))
    work, full = root / "work", root / "data" / "s2orc_full" / "20200705v1" / "full"
    (work / "data").mkdir(parents=True)
    (work / "data" / "permissible_section_titles.txt").write_text("\n".join(sorted(PERMISSIBLE_SECTION_TITLES)))
    (full / "filtered_metadata").mkdir(parents=True)
    (full / "pdf_parses").mkdir(parents=True)
    offsets, offset = {}, 0
    with gzip.open(shard.pdf_parses) as source, gzip.open(full / "pdf_parses" / "pdf_parses_0.jsonl.gz", "wb") as out:
        for line in source:
            offsets[json.loads(line)["paper_id"]] = offset
            out.write(line)
            offset += len(line)
    with gzip.open(full / "filtered_metadata" / "metadata_0.jsonl.gz", "wt") as out:
        for paper_id, field in fields.items():
            if paper_id in offsets:
                out.write(json.dumps({"paper_id": paper_id, "file_line_offset": offsets[paper_id], "mag_field_of_study": field}) + "\n")

    def blank_scispacy(_name, **_kwargs):
        nlp = spacy.blank("en")
        nlp.tokenizer = combined_rule_tokenizer(nlp)
        nlp.add_pipe("pysbd_sentencizer")
        return nlp

    spacy.load = blank_scispacy
    cwd = os.getcwd()
    os.chdir(work)
    try:
        spec = importlib.util.spec_from_file_location("published_build_dataset", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        started = time.perf_counter()
        _, records = module.dataset_worker(0)
        seconds = time.perf_counter() - started
    finally:
        os.chdir(cwd)
    kept = {
        (r["paper_id"], r["section_index"]): [(s["label"], s["text"]) for s in r["samples"]]
        for r in records
        if not any(s["label"] == "context-only" for s in r["samples"])
    }
    return kept, seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--papers", type=int, default=2000)
    parser.add_argument("--workdir")
    parser.add_argument("--published", type=Path, help="a local copy of copenlu/cite-worth dataset_creation/build_dataset.py")
    parser.add_argument("--rules", default="citeworth_2021,citeworth_improved")
    args = parser.parse_args()
    from citeworth_assets.samples.s2orc import generate_sample_dump

    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="citeworth-bench-"))
    dump = workdir / f"dump_{args.papers}"
    if not dump.exists():
        generate_sample_dump(dump, papers=args.papers, shards=1, seed=11)
    shard, fields, papers, read_seconds = load_papers(dump)
    paragraphs = sum(len(p.paragraphs) for p in papers)
    report = {"candidate_papers": len(papers), "paragraphs": paragraphs, "read_and_parse_seconds": round(read_seconds, 2), "rule_sets": {}}
    outputs = {}
    for name in args.rules.split(","):
        measured = clean(papers, name, workdir / "lake")
        name = measured["name"]  # versioned: citeworth_improved gives its latest version
        outputs[name] = measured["accepted"]
        t = measured["timings"]
        total = read_seconds + t["cleaning"] + t["write"]
        papers_per_second = len(papers) / total
        report["rule_sets"][name] = {
            "seconds": {k: round(v, 2) for k, v in {"read_and_parse": read_seconds, **t}.items()},
            "papers_per_second_per_core": round(papers_per_second, 1),
            "paragraphs_per_second_per_core": round(paragraphs / total, 1),
            "accepted_paragraphs": len(measured["accepted"]),
            "projected_hours_full_release_16_cores": round(RELEASE_CANDIDATES / (papers_per_second * CORES) / 3600, 1),
        }
    if args.published:
        kept, seconds = run_published(args.published, shard, fields)
        ours = report["rule_sets"].get("citeworth_2021", {}).get("seconds", {})
        report["published"] = {
            "seconds": round(seconds, 2),
            "identical_to_citeworth_2021": kept == outputs.get("citeworth_2021"),
            # the published worker reads and parses its shard too, and keeps its output in memory
            "speedup_of_citeworth_2021_read_and_clean": round(seconds / (ours["read_and_parse"] + ours["cleaning"]), 2)
            if ours
            else None,
        }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "citeworth.json").write_text(json.dumps(report, indent=2))
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    sys.exit(main())
