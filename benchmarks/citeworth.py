"""CiteWorth cleaning throughput per core, for both rule sets, on a generated dump (``make bench``).

For one shard of a generated dump it measures, per rule set:

* read and parse: streaming the pdf_parses shard into papers (candidates only);
* tokenize, split, rules: inside the cleaning (``clean_papers(timings=...)``);
* write: the accepted paragraphs and rejections to Parquet;

and reports papers/s and paragraphs/s (body paragraphs of candidate papers) on one core, with the
projected time for the full release (5.5 million candidate papers) on 16 cores.

``--real [DATA]`` measures on real text instead (``../shared/data``, see :func:`real_dump`), the figure
that counts: generated paragraphs are as long as real ones but more regular, so far more of them are
accepted and must be split. CPU time (``time.process_time``) is reported, not wall time, since the
benchmark machine is shared.

``--published PATH`` also runs a local copy of the published ``build_dataset.py`` (copenlu/cite-worth,
not shipped here) on the same shard, with scispaCy's own pysbd sentencizer as its ``nlp`` (pysbd as installed,
without this process's speed-ups of it), compares its
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


REAL_SECTION = "results"  # an Appendix A title, given to paragraphs whose own title is not one
PARAGRAPH_CHARS = 400  # unarXive 2020 text is cut into paragraphs of about this length (S2ORC's are 300-700)


def real_dump(data: Path, out: Path) -> Path:
    """A one-shard S2ORC dump of real text: the shared unarXive 2022 and 2020 papers converted in both citation
    styles, the real S2ORC pdf_parses and the CORD-19 documents of ``data``.

    So that the cleaning sees every cited paragraph of these papers (real paragraphs and sentences, real
    citation groups), a paragraph whose section title is not permissible gets the title ``results``, and
    the metadata makes every paper a candidate; papers keep their own paragraphs and citation spans.
    """
    from citeworth_assets.lib.citeworth.rules import PERMISSIBLE_SECTION_TITLES
    from citeworth_assets.lib.citeworth.unarxive_input import (
        STYLES,
        convert_file,
        convert_record,
    )
    from citeworth_assets.lib.read_issues import IssueLog
    from citeworth_assets.lib.s2orc.candidate_filter import FLAGS

    parses = []
    for style in STYLES:
        for paper in convert_file(data / "unarxive-2022" / "arXiv_src_2212_086.first20.jsonl", style, IssueLog()):
            paper.pdf_parse["paper_id"] = f"{paper.paper_id}-{style}"
            parses.append((paper.pdf_parse, paper.metadata["mag_field_of_study"]))
        for record in unarxive_2020_records(data / "unarxive-2020"):
            paper = convert_record(record, style)
            paper.pdf_parse["paper_id"] = f"{paper.paper_id}-{style}"
            parses.append((paper.pdf_parse, ["Physics"]))
    for path in sorted((data / "s2orc-20200705" / "pdf_parses").glob("*.json")):
        parses.append((json.loads(path.read_text()), ["Biology"]))
    for path in sorted((data / "cord19" / "pdf_json").glob("*.json")):
        parses.append((json.loads(path.read_text()), ["Medicine"]))
    full = out / "real_text" / "full"
    (full / "metadata").mkdir(parents=True, exist_ok=True)
    (full / "pdf_parses").mkdir(parents=True, exist_ok=True)
    flags = (*FLAGS, "has_outbound_citations")  # the candidate filter's flags, and one it does not read
    with (
        gzip.open(full / "metadata" / "metadata_0.jsonl.gz", "wt") as metadata,
        gzip.open(full / "pdf_parses" / "pdf_parses_0.jsonl.gz", "wt") as pdfs,
    ):
        for parse, field in parses:
            for paragraph in parse["body_text"]:
                if (paragraph.get("section") or "").lower() not in PERMISSIBLE_SECTION_TITLES:
                    paragraph["section"] = REAL_SECTION
            paper_id = str(parse["paper_id"])
            pdfs.write(json.dumps({"paper_id": paper_id, **{k: v for k, v in parse.items() if k != "paper_id"}}) + "\n")
            metadata.write(
                json.dumps(
                    {
                        "paper_id": paper_id,
                        "mag_field_of_study": field,
                        "abstract": "real text",
                        "journal": "real text",
                        **dict.fromkeys(flags, True),
                    }
                )
                + "\n"
            )
    return out


def unarxive_2020_records(folder: Path):
    """The shared unarXive 2020 papers (plain text with ``{{cite:UUID}}`` markers, references in ``refs.db``) as
    unarXive 2022 records, so that :func:`~citeworth_assets.lib.citeworth.unarxive_input.convert_record` renders
    their citations; a paragraph is a block of lines, as the unarXive 2020 reader reads it."""
    import sqlite3

    from citeworth_assets.lib.arxiv.unarxive2020 import iter_papers
    from citeworth_assets.lib.read_issues import IssueLog

    if not (folder / "papers" / "refs.db").is_file():
        return
    with sqlite3.connect(f"file:{folder / 'papers' / 'refs.db'}?mode=ro", uri=True) as refs:
        raw = dict(refs.execute("select uuid, bibitem_string from bibitem"))
    for paper in iter_papers(folder / "papers", IssueLog()):
        cited = dict.fromkeys(m["ref_id"] for p in paper.paragraphs for m in p["markers"] if m["ref_id"] in raw)
        yield {
            "paper_id": paper.arxiv_id,
            "body_text": [
                {"section": REAL_SECTION, "text": text} for p in paper.paragraphs for text in _cut(p["text"])
            ],
            "bib_entries": {uuid: {"bib_entry_raw": raw[uuid]} for uuid in cited},
        }


def _cut(block: str, length: int = PARAGRAPH_CHARS) -> list[str]:
    """Paragraphs of a unarXive 2020 block, whose lines are wrapped source lines with few blank lines between
    paragraphs: a paragraph ends with a line ending a sentence once it has ``length`` characters."""
    paragraphs, lines = [], []
    for line in block.split("\n"):
        lines.append(line)
        if line.rstrip().endswith((".", "?", "!")) and sum(map(len, lines)) >= length:
            paragraphs.append("\n".join(lines))
            lines = []
    return paragraphs + (["\n".join(lines)] if lines else [])


def load_papers(dump: Path):
    from citeworth_assets.lib.read_issues import IssueLog
    from citeworth_assets.lib.s2orc.candidate_filter import shard_candidates
    from citeworth_assets.lib.s2orc.shards import discover_shards

    (shard,) = discover_shards(dump)
    fields, papers = shard_candidates(shard, IssueLog())
    started = time.process_time()
    papers = list(papers)
    return shard, fields, papers, time.process_time() - started


def clean(papers, rules_name: str, workdir: Path) -> dict:
    from citeworth_assets.lib import lake
    from citeworth_assets.lib.citeworth.cleaning import clean_papers
    from citeworth_assets.lib.citeworth.partition import (
        paragraph_row,
        paragraph_schema,
        rejection_rows,
        rejection_schema,
    )
    from citeworth_assets.lib.citeworth.rules import rule_set
    from citeworth_assets.lib.sentences import splitter

    rules, sentence_splitter = rule_set(rules_name), splitter()
    timings: dict[str, float] = {}
    started = time.process_time()
    results = list(clean_papers(papers, rules, sentence_splitter, timings=timings))
    cleaning = time.process_time() - started
    started = time.process_time()
    lake.write_partition(
        workdir, "p", paragraph_schema(), (paragraph_row(rules, r, a) for r in results for a in r.accepted), rules.name
    )
    lake.write_partition(
        workdir, "r", rejection_schema(), (row for r in results for row in rejection_rows(rules, r)), rules.name
    )
    timings["write"] = time.process_time() - started
    timings["cleaning"] = cleaning
    accepted = {
        (r.paper.paper_id, a.paragraph["paragraph_index"]): [(s.label, s.text) for s in a.verdict.samples]
        for r in results
        for a in r.accepted
    }
    return {"name": rules.name, "timings": timings, "accepted": accepted}


def run_published(path: Path, shard, fields: dict) -> tuple[dict, float]:
    """The published worker on one shard, laid out as it expects; returns its paragraphs and seconds."""
    import scispacy.custom_sentence_segmenter  # noqa: F401
    import spacy
    from scispacy.custom_tokenizer import combined_rule_tokenizer

    from citeworth_assets.lib.citeworth.rules import PERMISSIBLE_SECTION_TITLES
    from citeworth_assets.lib.sentences import pysbd_as_installed

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
                out.write(
                    json.dumps(
                        {"paper_id": paper_id, "file_line_offset": offsets[paper_id], "mag_field_of_study": field}
                    )
                    + "\n"
                )

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
        with pysbd_as_installed():  # our process-wide speed-ups of pysbd are not the published code's
            started = time.process_time()
            _, records = module.dataset_worker(0)
            seconds = time.process_time() - started
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
    parser.add_argument(
        "--published", type=Path, help="a local copy of copenlu/cite-worth dataset_creation/build_dataset.py"
    )
    parser.add_argument("--rules", default="citeworth_2021,citeworth_improved")
    parser.add_argument(
        "--real",
        type=Path,
        nargs="?",
        const=Path(__file__).resolve().parents[2] / "shared" / "data",
        help="measure on the real text of the shared sample data folder (default ../shared/data)",
    )
    args = parser.parse_args()
    from citeworth_assets.samples.s2orc import generate_sample_dump

    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="citeworth-bench-"))
    if args.real:
        if not (args.real / "unarxive-2022").is_dir():
            print(f"citeworth: no shared sample data at {args.real}; nothing measured")
            return
        dump = real_dump(args.real, workdir / "real")
    else:
        dump = workdir / f"dump_{args.papers}"
        if not dump.exists():
            generate_sample_dump(dump, papers=args.papers, shards=1, seed=11)
    shard, fields, papers, read_seconds = load_papers(dump)
    paragraphs = sum(len(p.paragraphs) for p in papers)
    characters = sum(len(row["text"]) for p in papers for row in p.paragraphs)
    report = {
        "text": "real (--real)" if args.real else "generated",
        "candidate_papers": len(papers),
        "paragraphs": paragraphs,
        "mean_paragraph_chars": round(characters / max(1, paragraphs)),
        "read_and_parse_seconds": round(read_seconds, 2),
        "rule_sets": {},
    }
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
    report["timing"] = "CPU seconds of this process (time.process_time), start-up (imports, pipeline) excluded"
    (RESULTS / ("citeworth_real_text.json" if args.real else "citeworth.json")).write_text(json.dumps(report, indent=2))
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    sys.exit(main())
