"""The CiteWorth yardstick on real text: every rule set over the shared unarXive 2022 papers (``make bench``).

The 20 arXiv papers of ``../shared/data/unarxive-2022`` are converted to S2ORC records twice, with
numeric and with author-year citations cut into GROBID-style group fragments
(:mod:`citeworth_assets.lib.citeworth.unarxive_input`), passed through the S2ORC candidate filter and
cleaned with every rule set the registry knows: ``citeworth_2021``, ``citeworth_2021+<improvement>``
for each registered improvement, and each versioned improved set. Per style and rule set it reports:

* yield: papers with a kept paragraph, paragraphs and sentences kept (cite-worthy among them);
* drop reasons (papers and paragraphs), and papers whose cleaning raised (``internal_error``: the run
  goes on with the next paper);
* proxies on kept sentences, which should all be 0: leftover citation markers (``[n]``, ``(Author,
  year)``, ``et al.`` with a year, ``{{cite``) and format problems (not starting upper-case, no final
  ``.?!``, empty or half-empty brackets ``()``, ``[]``, ``(,``, ``,)``);
* examples: sentences a rule set keeps that ``citeworth_2021`` does not.

Results go to ``benchmarks/results/citeworth_real.{json,md}``. Without the shared data it says so and
exits 0. Usage: ``python benchmarks/citeworth_real.py [--data ../shared/data]``.
"""

import argparse
import json
import re
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent
RESULTS = ROOT / "results"
SAMPLE = Path("unarxive-2022") / "arXiv_src_2212_086.first20.jsonl"
LEFTOVER_MARKERS = {
    "numeric": re.compile(r"\[\s*\d+(?:\s*[,;\u2013-]\s*\d+)*\s*[,;]?\s*\]?"),
    "author_year": re.compile(r"\([A-Z][^()]*?,?\s(?:1[89]|20)\d\d[a-z]?\s*[;)]"),
    "et_al_year": re.compile(r"\bet al\.?,?\s*\(?(?:1[89]|20)\d\d"),
    "cite_marker": re.compile(r"\{\{cite"),
}
FORMAT_PROBLEMS = {
    "not_upper_case_start": lambda s: not s[:1].isupper(),
    "no_terminal_punctuation": lambda s: s.rstrip()[-1:] not in (".", "?", "!"),
    "empty_brackets": lambda s: re.search(r"\(\s*\)|\[\s*\]|[(\[]\s*[,;]|[,;]\s*[)\]]", s) is not None,
}
EXAMPLES = 12


def rule_set_names() -> list[str]:
    """The faithful set, it with each registered improvement alone, and every versioned improved set."""
    from citeworth_assets.lib.citeworth.improvements import Improvement
    from citeworth_assets.lib.citeworth.rules import RULE_SETS

    return [
        "citeworth_2021",
        *(f"citeworth_2021+{member.value}" for member in Improvement),
        *(n for n in RULE_SETS if n != "citeworth_2021"),
    ]


def candidate_papers(path: Path, style: str) -> tuple[list, Counter]:
    from citeworth_assets.lib.citeworth.unarxive_input import convert_file, paper_input
    from citeworth_assets.lib.read_issues import IssueLog

    log, papers, rejected = IssueLog(), [], Counter()
    for line, converted in enumerate(convert_file(path, style, log), 1):
        paper = paper_input(converted, path.name, line, log)
        if isinstance(paper, str):
            rejected[paper] += 1
        else:
            papers.append(paper)
    return papers, rejected


def measure(papers: list, name: str) -> dict:
    """One rule set over the papers, one paper at a time so that a paper that raises loses only itself."""
    from citeworth_assets.lib.citeworth.cleaning import clean_papers
    from citeworth_assets.lib.citeworth.rules import CHECK_WORTHY, rule_set
    from citeworth_assets.lib.sentences import splitter

    rules, sentence_splitter = rule_set(name), splitter()
    reasons, errors, kept = Counter(), [], []
    papers_kept = paragraphs = cite_worthy = 0
    started = time.process_time()
    for paper in papers:
        try:
            (result,) = clean_papers([paper], rules, sentence_splitter)
        except Exception as error:  # noqa: BLE001  (the yardstick must survive what a rule set does not)
            reasons["internal_error"] += 1
            errors.append(
                {
                    "paper_id": paper.paper_id,
                    "error": f"{type(error).__name__}: {error}",
                    "where": traceback.format_exc(limit=-1).strip(),
                }
            )
            continue
        reasons.update(f"{drop.level}:{drop.reason}" for drop in result.drops)
        papers_kept += bool(result.accepted)
        paragraphs += len(result.accepted)
        for accepted in result.accepted:
            for sample in accepted.verdict.samples:
                kept.append((paper.paper_id, sample.text))
                cite_worthy += sample.label == CHECK_WORTHY
    texts = [text for _, text in kept]
    return {
        "rule_set": rules.name,
        "papers_with_kept_paragraph": papers_kept,
        "paragraphs": paragraphs,
        "sentences": len(kept),
        "cite_worthy": cite_worthy,
        "drop_reasons": dict(reasons.most_common()),
        "internal_errors": errors,
        "leftover_markers": {name: sum(bool(p.search(t)) for t in texts) for name, p in LEFTOVER_MARKERS.items()},
        "format_problems": {name: sum(bool(t) and check(t) for t in texts) for name, check in FORMAT_PROBLEMS.items()},
        "cpu_seconds": round(time.process_time() - started, 2),
        "_kept": kept,
    }


def internal_errors(row: dict) -> int:
    """Papers whose cleaning raised here, and those the cleaning itself reports as ``internal_error``."""
    return len(row["internal_errors"]) + sum(
        n for reason, n in row["drop_reasons"].items() if reason.endswith(":internal_error")
    )


def markdown(report: dict) -> str:
    lines = [
        "| style | rule set | papers | paragraphs | sentences | cite-worthy | leftover markers | format problems "
        "| internal errors |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for style, block in report["styles"].items():
        for row in block["rule_sets"]:
            lines.append(
                f"| {style} | {row['rule_set']} | {row['papers_with_kept_paragraph']}/{block['candidate_papers']} | "
                f"{row['paragraphs']} | "
                f"{row['sentences']} | {row['cite_worthy']} | {sum(row['leftover_markers'].values())} | "
                f"{sum(row['format_problems'].values())} | {internal_errors(row)} |"
            )
    for style, block in report["styles"].items():
        lines += ["", f"Drop reasons ({style}), citeworth_2021 → last set:"]
        first, last = block["rule_sets"][0], block["rule_sets"][-1]
        for reason in sorted(set(first["drop_reasons"]) | set(last["drop_reasons"])):
            lines.append(f"- {reason}: {first['drop_reasons'].get(reason, 0)} → {last['drop_reasons'].get(reason, 0)}")
        for name, examples in block["examples"].items():
            lines += ["", f"Kept by {name}, not by citeworth_2021 ({style}):"] + [
                f"- {paper}: {text}" for paper, text in examples
            ]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--data", type=Path, default=ROOT.parents[1] / "shared" / "data", help="the shared sample data folder"
    )
    parser.add_argument("--rules", help="comma-separated rule sets (default: every registered one)")
    args = parser.parse_args()
    path = args.data / SAMPLE
    if not path.is_file():
        print(f"citeworth_real: no unarXive 2022 sample at {path} (pass --data); nothing measured")
        return 0
    names = args.rules.split(",") if args.rules else rule_set_names()
    report = {"source": str(path), "timing": "CPU seconds (time.process_time)", "styles": {}}
    for style in ("numeric", "author_year"):
        papers, rejected = candidate_papers(path, style)
        rows = [measure(papers, name) for name in names]
        faithful = {text for _, text in rows[0]["_kept"]}
        examples = {}
        for row in rows[1:]:
            new = [(paper, text) for paper, text in row.pop("_kept") if text not in faithful]
            if new:
                examples[row["rule_set"]] = new[:EXAMPLES]
        rows[0].pop("_kept")
        report["styles"][style] = {
            "candidate_papers": len(papers),
            "filter_rejections": dict(rejected),
            "rule_sets": rows,
            "examples": examples,
        }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "citeworth_real.json").write_text(json.dumps(report, indent=2, ensure_ascii=False))
    table = markdown(report)
    (RESULTS / "citeworth_real.md").write_text(table)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
