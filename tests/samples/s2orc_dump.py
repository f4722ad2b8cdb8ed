"""The synthetic S2ORC dump read back into memory, shared by the sample-generator tests."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

SHARED_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
REAL_S2ORC = SHARED_DATA / "s2orc-20200705"

SEED = 7
PAPERS = 300
SHARDS = 3


def read_jsonl_gz(path: Path) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


class Dump:
    """A generated dump read back into memory (small, so that is fine here)."""

    def __init__(self, out: Path, summary: dict, shards: int, release: str = "20200705v1") -> None:
        self.out, self.summary = out, summary
        full = out / release / "full"
        self.metadata_shards = [read_jsonl_gz(full / "metadata" / f"metadata_{i}.jsonl.gz") for i in range(shards)]
        self.pdf_shards = [read_jsonl_gz(full / "pdf_parses" / f"pdf_parses_{i}.jsonl.gz") for i in range(shards)]
        self.metadata = [m for shard in self.metadata_shards for m in shard]
        self.pdf = [p for shard in self.pdf_shards for p in shard]
        self.by_id = {m["paper_id"]: m for m in self.metadata}

    def paragraphs(self):
        for parse in self.pdf:
            for para in parse["abstract"] + parse["body_text"]:
                yield parse, para

    def body_paragraphs(self):
        for parse in self.pdf:
            for para in parse["body_text"]:
                yield parse, para


# An independent re-implementation of the candidate filter's 9 criteria.
def first_failed_criterion(m: dict) -> str:
    if not m["mag_field_of_study"]:
        return "mag_field_of_study"
    if not m["has_inbound_citations"]:
        return "has_inbound_citations"
    if not m["has_pdf_parse"]:
        return "has_pdf_parse"
    for flag in (
        "has_pdf_parsed_abstract",
        "has_pdf_parsed_body_text",
        "has_pdf_parsed_bib_entries",
        "has_pdf_parsed_ref_entries",
    ):
        if not m[flag]:
            return flag
    if not m["abstract"]:
        return "abstract"
    if not any(m[k] for k in ("journal", "venue", "arxiv_id", "acl_id", "pubmed_id", "pmc_id")):
        return "venue_or_id"
    return "accepted"
