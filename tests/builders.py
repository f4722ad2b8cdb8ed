"""Builders of small inputs shared by the tests (importable from any test: pytest puts ``tests/`` on the path, as
``tests/conftest.py``'s folder). Each builds a record in the shape the real dumps have."""

# One S2ORC metadata record (20200705v1 schema) of a paper that passes the CiteWorth candidate filter.
S2ORC_METADATA = {
    "paper_id": "1",
    "title": "T",
    "authors": [{"first": "A", "middle": [], "last": "B", "suffix": ""}],
    "abstract": "An abstract.",
    "year": 2019,
    "arxiv_id": None,
    "acl_id": None,
    "pmc_id": None,
    "pubmed_id": "9",
    "doi": None,
    "venue": "V",
    "journal": None,
    "has_pdf_body_text": True,
    "mag_id": "5",
    "mag_field_of_study": ["Biology"],
    "outbound_citations": ["2"],
    "inbound_citations": ["3"],
    "has_outbound_citations": True,
    "has_inbound_citations": True,
    "has_pdf_parse": True,
    "has_pdf_parsed_abstract": True,
    "has_pdf_parsed_body_text": True,
    "has_pdf_parsed_bib_entries": True,
    "has_pdf_parsed_ref_entries": True,
    "s2_url": "https://api.semanticscholar.org/CorpusID:1",
}


def cite_spans(text: str, *pieces: str) -> list[dict]:
    """S2ORC-style citation spans (``BIBREF<n>``, unlinked) for each piece of ``text``, in order of appearance."""
    spans, position = [], 0
    for number, piece in enumerate(pieces):
        start = text.index(piece, position)
        spans.append(
            {
                "start": start,
                "end": start + len(piece),
                "text": piece,
                "ref_id": f"BIBREF{number}",
                "linked_paper_id": None,
            }
        )
        position = start + len(piece)
    return spans


def s2orc_paragraph(text: str, *pieces: str, section: str = "Introduction", index: int = 0) -> dict:
    """An ``s2orc_paragraphs`` row whose citation spans are the given pieces of ``text``."""
    spans = cite_spans(text, *pieces)
    return {"paragraph_index": index, "section": section, "text": text, "cite_spans": spans, "invalid_span_count": 0}


def real_s2orc_parsed_papers(shared_data, split) -> tuple[list, object]:
    """The real S2ORC sample's PDF parses as ROUGE-SciQFS parsed papers (abstracts from both metadata files), with
    the issue log they were read into."""
    import json

    from citeworth_assets.lib.read_issues import IssueLog
    from citeworth_assets.lib.sciqfs.s2orc_source import paper_from_pdf_parse

    folder = shared_data / "s2orc-20200705"
    abstracts = {}
    for name in ("metadata_sample.jsonl", "metadata_for_pdf_parses.jsonl"):
        for line in (folder / name).open():
            row = json.loads(line)
            if row.get("abstract"):
                abstracts[row["paper_id"]] = row["abstract"]
    log = IssueLog()
    papers = [
        paper_from_pdf_parse(json.loads(p.read_text()), split, abstracts, log, p)
        for p in sorted((folder / "pdf_parses").glob("*.json"))
    ]
    return papers, log


def sensor_context(instance, dumps, data, cursor=None):
    """A sensor evaluation context whose settings read ``dumps`` and write ``data``; files settle after 60 s."""
    import dagster as dg

    from citeworth_assets.resources import PlatformResource

    settings = PlatformResource(dumps=str(dumps), data=str(data), shard_settle_seconds=60)
    return dg.build_sensor_context(instance=instance, cursor=cursor, resources={"citeworth": settings})


def with_lone_surrogate(source, line: int, path):
    """``source``'s JSON lines written to ``path`` with a lone ``\\ud835`` escape put before the first paragraph of
    line ``line`` (0-based): a mathematical letter cut between its surrogate halves, as unarXive's LaTeX-to-text
    step writes it, which strict JSON parsers reject."""
    import json

    lines = source.read_bytes().splitlines()
    record = json.loads(lines[line])
    record["body_text"][0]["text"] = "a lone LONE letter " + record["body_text"][0]["text"]
    lines[line] = json.dumps(record).encode().replace(b"LONE", b"\\ud835")
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path
