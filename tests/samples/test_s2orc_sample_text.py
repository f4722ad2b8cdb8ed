"""Tests of the synthetic S2ORC 20200705v1 dump generator: text content and CiteWorth rules.

The CiteWorth paragraph check is re-implemented here independently of the generator, so that a
generator bug cannot hide behind its own bookkeeping.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from s2orc_dump import Dump, first_failed_criterion

from citeworth_assets.lib.citeworth.rules import PERMISSIBLE_SECTION_TITLES as PERMISSIBLE_TITLES
from citeworth_assets.samples.s2orc import MAG_FIELDS

# ------------------------------------------------------------------------------------------------
# Content: fields, citation forms, noise
# ------------------------------------------------------------------------------------------------


def test_all_mag_fields_and_multi_field_papers(dump: Dump) -> None:
    assert len(MAG_FIELDS) == 19 and len(set(MAG_FIELDS)) == 19
    seen = Counter(f for m in dump.metadata for f in m["mag_field_of_study"] or [])
    assert set(seen) == set(MAG_FIELDS)
    sizes = Counter(len(m["mag_field_of_study"]) for m in dump.metadata if m["mag_field_of_study"])
    multi = sizes[2] + sizes[3]
    assert sizes[2] and sizes[3]
    assert 0.07 <= multi / sum(sizes.values()) <= 0.25


def spans_of(dump: Dump) -> list[str]:
    return [s["text"] for _, para in dump.paragraphs() for s in para["cite_spans"]]


def test_numeric_citation_forms(dump: Dump) -> None:
    spans = spans_of(dump)
    for pattern in (r"\[\d+\]", r"\[\d+(, \d+)+\]", r"\[\d+(,\d+)+\]", r"\[\d+-\d+\]", r"\d+,?"):
        assert any(re.fullmatch(pattern, s) for s in spans), pattern
    texts = [para["text"] for _, para in dump.paragraphs()]
    assert any(re.search(r"\[\d+\]–\[\d+\]", t) for t in texts)
    # three separate adjacent spans "[1] [2] [3]"
    adjacent = 0
    for _, para in dump.paragraphs():
        cs = para["cite_spans"]
        for a, b, c in zip(cs, cs[1:], cs[2:]):
            if (
                b["start"] == a["end"] + 1
                and c["start"] == b["end"] + 1
                and all(s["text"].startswith("[") for s in (a, b, c))
            ):
                adjacent += 1
    assert adjacent


def test_author_year_citation_forms(dump: Dump) -> None:
    spans = spans_of(dump)
    year = r"(\d{4}[a-z]?|n\.d\.)"
    assert any(re.fullmatch(rf"\([^()]+ et al\., {year}\)", s) for s in spans)
    assert any(re.fullmatch(rf"\([^();]+, {year}(; [^();]+, {year})+\)", s) for s in spans)
    assert any(re.fullmatch(rf"\([^();,]+ {year}\)", s) for s in spans)
    # S2ORC-style split spans: "(A and B 2004;" + "C et al. 2005a" + " )"
    assert any(re.fullmatch(rf"\([^()]+ {year};", s) for s in spans)
    texts = [para["text"] for _, para in dump.paragraphs()]
    assert any(re.search(r"\d{4}[a-z]? \)\.", t) for t in texts)
    # inline: "Smith et al. (2019) showed that" with either span shape
    assert any(re.fullmatch(rf"[A-Z][^()]+ \({year}\)", s) for s in spans)
    assert any(re.fullmatch(rf"\({year}\)", s) for s in spans)


def test_citation_positions(dump: Dump) -> None:
    texts = [para["text"] for _, para in dump.paragraphs()]
    joined = "\n".join(texts)
    # mid-sentence and inline
    assert re.search(r"(As in|Following|Unlike) (\[\d+|\()[^.]*?, we use", joined)
    assert re.search(r" (showed|reported|argued|found) that ", joined)
    # at the end of the sentence, before the period
    assert re.search(r"\[\d+\]\.", joined) and re.search(r"\d{4}[a-z]?\)\.", joined)
    assert re.search(r"\[\d+\] \.", joined)  # S2ORC keeps a space before the period
    # hanging phrases before a citation
    assert re.search(r"as shown by \[\d+", joined)
    assert re.search(r"see for example \(", joined)
    assert re.search(r" as in \[\d+", joined)


def test_missed_citations_are_present(dump: Dump) -> None:
    def uncovered(para: dict, match: re.Match) -> bool:
        return not any(s["start"] <= match.start() < s["end"] for s in para["cite_spans"])

    bracket = year = 0
    for _, para in dump.body_paragraphs():
        bracket += any(uncovered(para, m) for m in re.finditer(r"\[\d+\]", para["text"]))
        year += any(uncovered(para, m) for m in re.finditer(r"\([A-Z][\w'\- ]+, \d{4}\)", para["text"]))
    assert bracket and year


def test_text_noise_and_traps(dump: Dump) -> None:
    texts = [para["text"] for _, para in dump.paragraphs()]
    joined = "\n".join(texts)
    needles = (
        "[1.5]",
        "[2/3]",
        "metal",
        "fetal",
        "Fig. ",
        "Eq. ",
        "Ref. ",
        "cf. ",
        "e.g. ",
        "i.e. ",
        " et al. ",
        "(1)",
        "\u00a0",
        "–",
    )
    for needle in needles:
        assert needle in joined, needle
    assert re.search(r"[α-ωΑ-Ω]", joined)
    assert any(t.startswith(". Illustration of") for t in texts)
    assert any(re.match(r"[a-z]", t.split(". ")[-1]) for t in texts)  # lower-case sentence starts
    assert any(t and t[-1] not in ".!?" for t in texts)  # missing final period
    lengths = [len(t) for t in texts]
    assert max(lengths) > 3000  # a few very long paragraphs


def test_section_titles(dump: Dump) -> None:
    sections = {para["section"] for _, para in dump.body_paragraphs()}
    expected = (
        "",
        "1 Introduction",
        "II. RELATED WORK",
        "INTRODUCTION",
        "Methods:",
        "RELATED WORKS",
        "Introduction",
        "Related Work",
        "Acknowledgments",
        "Materials",
        "Proof of Theorem 2",
    )
    for title in expected:
        assert title in sections, title


def test_figure_and_table_reference_spans(dump: Dump) -> None:
    refs = [(s["text"], s["ref_id"]) for _, para in dump.paragraphs() for s in para["ref_spans"]]
    assert ("Fig. 2", "FIGREF1") in refs
    assert ("Table 1", "TABREF0") in refs


def test_metadata_noise(tmp_path: Path, dump: Dump) -> None:
    assert any(m["year"] is None for m in dump.metadata)
    assert any(a["first"] == "" for m in dump.metadata for a in m["authors"])
    assert any(m["mag_id"] and "," in m["mag_id"] for m in dump.metadata)
    assert any(
        re.search(r"(Journal of Applied Research|1 Introduction|Running title)", m["title"]) for m in dump.metadata
    )
    assert any(e["year"] == "" and e["authors"] == [] for p in dump.pdf for e in p["bib_entries"].values())


# ------------------------------------------------------------------------------------------------
# Content: CiteWorth acceptance, learnability, CiteSum
# ------------------------------------------------------------------------------------------------

BRACKET_CITATION = re.compile(r"\[([0-9]+\s*[,-;]*\s*)*[0-9]+\s*\]")
YEAR_CITATION = re.compile(r"\(?[12][0-9]{3}[a-z]?\s*\)")
HANGING = re.compile(
    r"\s+\(?(\(\s*\)|like|reference|including|include|with|for instance|for example|see also|at|following|"
    r"of|from|to|in|by|"
    r"see|as|e\.?g\.?(,)?|viz(\.)?(,)?)\s*(,)*(-)*[\)\]]?\s*[.?!]\s*$"
)
ABBREVIATIONS = ("Fig", "Eq", "Ref", "cf", "e.g", "i.e", "et al", "al")


def normalise_section(title: str) -> str:
    title = re.sub(r"^(\d+(\.\d+)*|[IVX]+)[.)]?\s+", "", title.strip())
    return title.rstrip(":").strip().lower()


def split_sentences(para: dict) -> list[tuple[int, int]]:
    """A small splitter: at '.', '!' or '?' plus spaces, unless inside a cite span or after an
    abbreviation; good enough for the clean paragraphs the generator plants."""
    text, bounds, start = para["text"], [], 0
    for match in re.finditer(r"[.!?]\s+", text):
        pos = match.start()
        if any(s["start"] <= pos < s["end"] for s in para["cite_spans"]):
            continue
        if any(text[:pos].endswith(a) for a in ABBREVIATIONS):
            continue
        bounds.append((start, pos + 1))
        start = match.end()
    if start < len(text):
        bounds.append((start, len(text)))
    return bounds


def sentence_verdict(para: dict, start: int, end: int) -> tuple[bool, bool]:
    """(passes CiteWorth's sentence checks, is cite-worthy)."""
    text = para["text"]
    spans = [s for s in para["cite_spans"] if start <= s["start"] < end]
    if any(s["end"] > end for s in spans):
        return False, False  # crosses a sentence boundary
    kept, pos = [], start
    for s in spans:
        kept.append(text[pos : s["start"]])
        pos = s["end"]
    kept.append(text[pos:end])
    if spans:
        tail = "".join(kept[1:])
        if not re.fullmatch(r"[\s.;,)\]–-]*[.!?]?\s*", tail):
            return False, False  # citation not at the end
        marker = text[spans[0]["start"] : end]
        if not (BRACKET_CITATION.search(marker) or YEAR_CITATION.search(marker)):
            return False, False
    cleaned = "".join(kept[:1]) if spans else "".join(kept)
    if BRACKET_CITATION.search(cleaned) or YEAR_CITATION.search(cleaned):
        return False, False  # a citation S2ORC missed
    cleaned = cleaned.rstrip()
    cleaned = (cleaned.rstrip(" ,;:)]–-") + ".") if spans else cleaned
    if spans and HANGING.search(cleaned):
        return False, False
    ok = len(cleaned) >= 20 and cleaned[:1].isupper() and cleaned[-1:] in ".!?"
    return ok, bool(spans)


def citeworth_paragraphs(dump: Dump):
    """Yield (paragraph, accepted, [cite-worthy flags]) for permissible paragraphs of candidate papers."""
    for parse in dump.pdf:
        if first_failed_criterion(dump.by_id[parse["paper_id"]]) != "accepted":
            continue
        permissible = [p for p in parse["body_text"] if normalise_section(p["section"]) in PERMISSIBLE_TITLES]
        first = next((s["text"] for p in parse["body_text"] for s in p["cite_spans"]), "")
        paper_ok = sum(len(p["cite_spans"]) for p in permissible) > 5 and bool(
            re.fullmatch(r"\[\d+\]", first) or YEAR_CITATION.search(first)
        )
        for para in permissible:
            bounds = split_sentences(para)
            verdicts = [sentence_verdict(para, s, e) for s, e in bounds]
            accepted = paper_ok and len(bounds) >= 3 and all(ok for ok, _ in verdicts)
            yield para, accepted, [cw for _, cw in verdicts]


def test_citeworth_rules_accept_a_good_share_and_reject_the_rest(dump: Dump) -> None:
    results = list(citeworth_paragraphs(dump))
    accepted = [r for r in results if r[1]]
    share = len(accepted) / len(results)
    assert 0.25 <= share <= 0.8, share
    labels = [cw for _, _, flags in accepted for cw in flags]
    assert 0.15 <= sum(labels) / len(labels) <= 0.6
    assert len(accepted) >= 300


def test_cite_worthy_sentences_are_lexically_learnable(dump: Dump) -> None:
    cue = re.compile(
        r"has been|have been|previous|was reported|were reported|widely|well known|earlier|"
        r"several groups|many previous|prior research|recent reviews|studied extensively",
        re.IGNORECASE,
    )
    hits = Counter()
    for para, accepted, _ in citeworth_paragraphs(dump):
        if not accepted:
            continue
        for start, end in split_sentences(para):
            cited = any(start <= s["start"] < end for s in para["cite_spans"])
            hits[(cited, bool(cue.search(para["text"][start:end])))] += 1
    cited_rate = hits[(True, True)] / (hits[(True, True)] + hits[(True, False)])
    plain_rate = hits[(False, True)] / (hits[(False, True)] + hits[(False, False)])
    assert cited_rate > 0.8 and plain_rate < 0.3, (cited_rate, plain_rate)


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def test_related_work_sentences_paraphrase_the_cited_abstract(dump: Dump) -> None:
    """CiteSum keeps Related Work sentences citing one linked paper with high ROUGE recall."""
    kept = 0
    for parse, para in dump.body_paragraphs():
        if "related" not in para["section"].lower() and "background" not in para["section"].lower():
            continue
        for start, end in split_sentences(para):
            spans = [s for s in para["cite_spans"] if start <= s["start"] < end]
            if len(spans) != 1 or spans[0]["ref_id"] is None:
                continue
            link = parse["bib_entries"][spans[0]["ref_id"]]["link"]
            if link is None:
                continue
            sentence = para["text"][start : spans[0]["start"]] + para["text"][spans[0]["end"] : end]
            abstract = set(words(dump.by_id[link]["abstract"]))
            tokens = words(sentence)
            if tokens and sum(t in abstract for t in tokens) / len(tokens) >= 0.5:
                kept += 1
    assert kept >= 30


def test_paragraph_lengths(dump: Dump) -> None:
    counts = [len(split_sentences(para)) for _, para in dump.body_paragraphs() if len(para["text"]) > 60]
    share = sum(3 <= c <= 8 for c in counts) / len(counts)
    assert share >= 0.6
    assert any(c < 3 for c in counts)
