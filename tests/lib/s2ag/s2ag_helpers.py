"""Shared by the S2AG tests: the real full-text sample, papers rows written for it, and S2AG dump roots."""

import gzip
import json
from pathlib import Path

RELEASE = "2023-02-14"


def real_records(shared_data: Path) -> list[dict]:
    records = []
    for path in sorted((shared_data / "s2ag-2023" / "s2orc").glob("*.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            records += [json.loads(line) for line in f if line.strip()]
    return records


def papers_row(corpus_id: int, fields=(("Biology", "external"),), citations: int = 3) -> dict:
    """A ``papers`` row as the datasets API gives it (the real samples hold none of the full texts' rows)."""
    return {
        "corpusid": corpus_id,
        "externalids": {"ArXiv": None, "DOI": f"10.5555/{corpus_id}", "MAG": None, "CorpusId": str(corpus_id)},
        "url": f"https://www.semanticscholar.org/paper/{corpus_id:040d}",
        "title": f"Paper {corpus_id}\nwith a title broken over two lines",
        "authors": [{"authorId": "1", "name": "Ada B. Lovelace"}, {"authorId": "2", "name": "Grace Hopper Jr."}],
        "venue": "Journal of Tests",
        "year": 2021,
        "referencecount": 12,
        "citationcount": citations,
        "s2fieldsofstudy": [{"category": name, "source": source} for name, source in fields],
        "journal": {"name": "J. Tests", "pages": None, "volume": "1"},
    }


def write_lines(path: Path, records, raw: bool = False) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wb") as f:
        for record in records:
            f.write(record if raw else json.dumps(record).encode() + b"\n")
    return path


def s2ag_dump_root(root: Path, shared_data: Path, papers: list[dict] | None = None, release: str = RELEASE) -> Path:
    """A dump root holding the real full texts as one S2AG release, with ``papers`` rows for them and the real
    ``papers``/``abstracts`` samples beside them."""
    folder = root / "s2ag" / release
    source = shared_data / "s2ag-2023"
    for path in sorted((source / "s2orc").glob("*.gz")):
        (folder / "s2orc").mkdir(parents=True, exist_ok=True)
        (folder / "s2orc" / path.name).write_bytes(path.read_bytes())
    for dataset in ("papers", "abstracts"):
        for path in sorted((source / dataset).glob("*.gz")):
            (folder / dataset).mkdir(parents=True, exist_ok=True)
            (folder / dataset / path.name).write_bytes(path.read_bytes())
    if papers is None:
        papers = [papers_row(record["corpusid"]) for record in real_records(shared_data)]
    write_lines(folder / "papers" / "papers-full-texts.jsonl.gz", papers)
    write_lines(folder / "abstracts" / "abstracts-cited.jsonl.gz", cited_abstracts(real_records(shared_data)))
    write_lines(folder / "abstracts" / "abstracts-full-texts.jsonl.gz", full_text_abstracts(real_records(shared_data)))
    return root


def full_text_abstracts(records: list[dict]) -> list[dict]:
    """``abstracts`` rows of the full texts (the real samples are independent draws that hold none of them): each
    the text of the paper's first abstract span, as S2 distributes a paper's abstract beside its full text."""
    rows = []
    for record in records:
        spans = record["content"]["annotations"].get("abstract")
        if spans and json.loads(spans):
            first = json.loads(spans)[0]
            rows.append(
                {"corpusid": record["corpusid"], "abstract": record["content"]["text"][first["start"] : first["end"]]}
            )
    return rows


def cited_abstracts(records: list[dict]) -> list[dict]:
    """``abstracts`` rows for the papers the full texts' bibliography entries are matched to (the cited papers are
    rarely full texts themselves): each the entry's own text and a sentence, so at least twenty words."""
    rows = {}
    for record in records:
        text = record["content"]["text"]
        entries = record["content"]["annotations"].get("bibentry")
        for entry in json.loads(entries) if entries else []:
            matched = (entry.get("attributes") or {}).get("matched_paper_id")
            if matched:
                words = text[entry["start"] : entry["end"]].split()
                rows[matched] = " ".join(words + "is the reference this abstract stands for in the test".split() * 2)
    return [
        {"corpusid": corpus_id, "openaccessinfo": {"externalids": {}}, "abstract": abstract}
        for corpus_id, abstract in sorted(rows.items())
    ]
