"""Contexts of bibliography items linked by the input or by the resolver (lib/arxiv/context_extraction.py)."""

from citeworth_assets.lib.arxiv.context_extraction import linked_contexts, reference_links
from citeworth_assets.lib.arxiv.context_windows import UNARXIVE_2020, ContextWindow

A, B, C = (f"{n}1234567-89ab-4cde-8f01-23456789abcd" for n in "abc")
TEXT = (
    f"We build on {{{{cite:{A}}}}}{{{{cite:{B}}}}} here. Later work {{{{cite:{C}}}}} differs. Again {{{{cite:{A}}}}}."
)


def test_shipped_links_win_and_resolver_links_are_added():
    references = [
        {"citing_paper_id": "p", "ref_id": A, "linked_mag_id": "11", "linked_arxiv_id": None, "arxiv_ids": []},
        {
            "citing_paper_id": "p",
            "ref_id": B,
            "linked_mag_id": None,
            "linked_arxiv_id": None,
            "arxiv_ids": ["1703.01234"],
        },
        {"citing_paper_id": "p", "ref_id": C, "linked_mag_id": None, "linked_arxiv_id": None, "arxiv_ids": []},
    ]
    resolutions = [
        {"citing_paper_id": "p", "ref_id": A, "work_id": "mag:99", "mag_id": "99"},
        {"citing_paper_id": "p", "ref_id": B, "work_id": "W22", "mag_id": "22"},
        {"citing_paper_id": "p", "ref_id": C, "work_id": None, "mag_id": None},
    ]
    links = reference_links(references, resolutions)
    assert links == {"p": {A: ("11", None, None, None), B: ("22", "1703.01234", None, None)}}
    assert reference_links(references, resolutions, use_resolver=False) == {"p": {A: ("11", None, None, None)}}
    rows = list(linked_contexts([("p", "7", TEXT), ("q", None, TEXT)], links, ContextWindow(), UNARXIVE_2020))
    assert [(r.ref_id, r.cited_mag_id) for r in rows] == [(A, "11"), (B, "22"), (A, "11")]  # text order
    first = rows[0]
    assert first.text == "We build on MAINCIT CIT here." and first.adjacent == [("22", "1703.01234", None, None)]
    assert first.citing_mag_id == "7" and first.citing_paper_id == "p"


def test_a_shipped_openalex_link_gets_the_catalogues_mag_id():
    references = [
        {
            "citing_paper_id": "p",
            "ref_id": A,
            "linked_mag_id": None,
            "linked_openalex_id": "https://openalex.org/W5",
            "linked_arxiv_id": None,
            "arxiv_ids": [],
        }
    ]
    assert reference_links(references, [], openalex_mag={"W5": "55"}) == {"p": {A: ("55", None, "W5", None)}}
    # without a MAG id the shipped OpenAlex id alone makes the item usable (unarXive 2022 ships no MAG ids)
    assert reference_links(references, []) == {"p": {A: (None, None, "W5", None)}}


def test_an_arxiv_id_alone_links_an_item_only_when_asked():
    """Papers converted from LaTeX sources: an item naming an arXiv id has contexts without a works catalogue."""
    references = [
        {"citing_paper_id": "p", "ref_id": A, "linked_mag_id": None, "linked_arxiv_id": None, "arxiv_ids": []},
        {
            "citing_paper_id": "p",
            "ref_id": B,
            "linked_mag_id": None,
            "linked_arxiv_id": None,
            "arxiv_ids": ["1703.01234"],
        },
        {
            "citing_paper_id": "p",
            "ref_id": C,
            "linked_mag_id": "33",
            "linked_arxiv_id": None,
            "arxiv_ids": ["2001.00001"],
        },
    ]
    assert reference_links(references, []) == {"p": {C: ("33", "2001.00001", None, None)}}
    links = reference_links(references, [], arxiv_only=True)
    assert links == {"p": {B: (None, "1703.01234", None, None), C: ("33", "2001.00001", None, None)}}
    rows = list(linked_contexts([("p", None, TEXT)], links, ContextWindow(), UNARXIVE_2020))
    assert [(r.ref_id, r.cited_mag_id, r.cited_arxiv_id) for r in rows] == [
        (B, None, "1703.01234"),
        (C, "33", "2001.00001"),
    ]
