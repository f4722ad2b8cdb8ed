"""Seeded unarXive 2020 dumps (folder or tarball of ``.txt`` + ``refs.db``) and unarXive 2022 JSON lines.

Papers cite works of :func:`citeworth_assets.samples.mag.sample_works` with reference strings in every
form the resolver meets: a title, a quoted title, old-style (``hep-th/9901001``) and new-style
(``1703.01234v2``) arXiv ids, a DOI, no title (journal and pages only), a formula title, the longer of
two near-duplicate titles, the "hep-th" noise case and a non-publication. Markers come in groups
(``{{cite:a}}{{cite:b}}``, ``, ``, `` and ``) and at a distance (``; see also ``), beside abbreviations
Punkt must not split at (et al., Fig., e.g., Eq., cf.). ``refs.db`` ships a link for most references (the
true one; for the noise case the MAG's wrong one, as the published matcher made it). With ``damaged``
there are a paper without markers, a marker whose uuid is not in ``refs.db``, invalid UTF-8 in a text
and bad bytes in a bibitem id. Everything is written as it is generated, one paper at a time.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import random
import sqlite3
import tarfile
import uuid as uuid_module
from dataclasses import dataclass
from pathlib import Path

from citeworth_assets.samples.mag import NOISE_MAG_ID, WORDS, Work

STYLES = (
    "title",
    "quoted",
    "arxiv_old",
    "arxiv_new",
    "doi",
    "no_title",
    "formula",
    "longer",
    "noise",
    "non_publication",
    "title",
    "quoted",
)
SEPARATORS = ("", ", ", " and ", "; see also ")  # the last is more than 5 characters: not adjacent
ABBREVIATED = ("as shown by Miller et al. in Fig. 2", "e.g. in Eq. (3)", "cf. the discussion in Sec. REF")


@dataclass
class SampleReference:
    uuid: str
    work: Work | None
    style: str
    raw: str
    shipped_mag_id: str | None

    @property
    def truth(self) -> str | None:
        """The MAG id a perfect resolver gives (None: nothing to find)."""
        return None if self.work is None or self.style in ("noise", "non_publication") else str(self.work.mag_id)


def _initials(name: str) -> str:
    first, *rest = name.split()
    return f"{first[0]}. {' '.join(rest)}" if rest else name


def _pools(works: list[Work]) -> dict[str, list[Work]]:
    plain = [w for w in works if w.kind == "plain"]
    return {
        "title": plain,
        "quoted": plain,
        "no_title": plain,
        "arxiv_old": [w for w in plain if w.arxiv_id and "/" in w.arxiv_id],
        "arxiv_new": [w for w in plain if w.arxiv_id and "/" not in w.arxiv_id],
        "doi": [w for w in plain if w.doi],
        "formula": [w for w in works if w.kind == "formula"],
        "longer": [w for w in works if w.kind == "longer"],
        "noise": [w for w in works if w.kind == "noise"],
    }


def reference_string(work: Work | None, style: str, rng: random.Random) -> str:
    if style == "non_publication":
        return "According to the numerous discussions with my colleagues an experimental verification is feasible."
    if style == "noise":
        return f"{rng.choice(('K. Kondo', 'T. Heinzl'))}, hep-th/{rng.randint(9801, 9912)}{rng.randint(100, 999)}."
    names = ", ".join(_initials(a) for a in work.authors)
    venue = f"Phys. Rev. D {rng.randint(10, 99)}, {rng.randint(1000, 9999)} ({work.year})"
    written = {
        "quoted": f"{names}, ``{work.title},'' {venue}.",
        "arxiv_old": f"{names}, {work.arxiv_id}.",
        "arxiv_new": f"{names}, arXiv:{work.arxiv_id}v2 [hep-th].",
        "doi": f"{names}, {venue}, doi:{(work.doi or '').upper()}.",
        "no_title": f"{names}, {venue}.",
        "formula": f'{names}, "Search for the $B^0_{{(s)}} \\rightarrow \\eta^{{\\prime}} \\pi^0$ decay" '
        "JHEP 2017.5 (2017): 158.",
    }
    return written.get(style, f"{names}. {work.title}. {venue}.")  # title, longer


def _references(works: list[Work], rng: random.Random, count: int) -> list[SampleReference]:
    pools = _pools(works)
    references = []
    for index in range(count):
        style = STYLES[(index + rng.randint(0, 3)) % len(STYLES)]
        pool = pools.get(style) or pools["title"]
        work = rng.choice(pool) if style != "non_publication" else None
        ship = style == "noise" or (work is not None and rng.random() < 0.7)
        shipped = str(NOISE_MAG_ID) if style == "noise" else (str(work.mag_id) if ship and work else None)
        references.append(
            SampleReference(
                str(uuid_module.UUID(int=rng.getrandbits(128), version=4)),
                work,
                style,
                reference_string(work, style, rng),
                shipped,
            )
        )
    return references


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(6, 14))]
    if rng.random() < 0.3:
        words.insert(rng.randint(1, len(words) - 1), "FORMULA")
    if rng.random() < 0.25:
        words.insert(rng.randint(1, len(words) - 1), rng.choice(ABBREVIATED))
    text = " ".join(words)
    return text[0].upper() + text[1:]


def paper_body(markers: list[str], rng: random.Random, filler: int = 0) -> list[str]:
    """Paragraphs whose sentences carry every marker once (some twice, far apart), in groups or alone;
    ``filler`` plain sentences follow each citing sentence (real papers have about ten)."""
    order = list(markers) + rng.sample(markers, min(2, len(markers)))
    paragraphs, sentences = [], []
    while order:
        size = min(len(order), rng.choice((1, 1, 2, 3)))
        group = [order.pop(0) for _ in range(size)]
        text = rng.choice(SEPARATORS).join(group)
        sentence = _sentence(rng)
        cut = sentence.rfind(" ", 0, max(1, len(sentence) - 5))
        sentences.append(f"{sentence[:cut]} {text}{sentence[cut:]}.")
        if rng.random() < 0.4:
            sentences.append(_sentence(rng) + ".")
        sentences.extend(_sentence(rng) + "." for _ in range(filler))
        if len(sentences) >= 4 + filler or not order:
            paragraphs.append(" ".join(sentences))
            sentences = []
    return paragraphs


def _wrap(paragraph: str, width: int = 72) -> str:
    lines, line = [], ""
    for word in paragraph.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join([*lines, line])


def _paper_id(index: int) -> str:
    """Every seventh paper has an old-style id (hep-th9801001, as unarXive names files); all are unique."""
    if index % 7 == 3:
        k = index // 7
        return f"hep-th{92 + (k // 12000) % 8:02d}{1 + (k // 1000) % 12:02d}{k % 1000:03d}"
    return f"17{1 + index % 12:02d}.{index:05d}"


def write_unarxive_2020(
    target: str | Path,
    works: list[Work],
    papers: int = 30,
    seed: int = 13,
    damaged: bool = True,
    tarball: bool = False,
    references_per_paper: tuple[int, int] = (6, 14),
    filler: int = 0,
) -> tuple[Path, list[SampleReference]]:
    """A folder ``target`` (or tarball ``target``) of papers with ``refs.db``; returns it and the references.

    ``references_per_paper`` and ``filler`` set the size: (25, 45) and 12 give papers about as long as the
    real sample's (38 KB of text, 40 bibitems, 58 markers on average).
    """
    rng = random.Random(seed)
    target = Path(target)
    folder = target.parent / (target.name + ".parts") if tarball else target
    folder.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(folder / "refs.db")
    db.execute(
        "create table bibitem (uuid varchar(36) not null, citing_mag_id varchar(36), cited_mag_id "
        "varchar(36), citing_arxiv_id varchar(36), cited_arxiv_id varchar(36), bibitem_string text, "
        "primary key (uuid))"
    )
    archive = tarfile.open(target, "w:gz") if tarball else None
    every: list[SampleReference] = []
    try:
        for index in range(papers):
            paper_id = _paper_id(index)
            citing_mag = str(6_000_000_000 + index) if index % 6 else None
            references = _references(works, rng, rng.randint(*references_per_paper))
            every.extend(references)
            db.executemany(
                "insert into bibitem values (?, ?, ?, ?, ?, ?)",
                [
                    (
                        r.uuid,
                        citing_mag,
                        r.shipped_mag_id,
                        paper_id,
                        (r.work.arxiv_id.replace("/", "") if r.work and r.work.arxiv_id and r.shipped_mag_id else None),
                        r.raw,
                    )
                    for r in references
                ],
            )
            markers = ["{{cite:" + r.uuid + "}}" for r in references]
            if damaged and index == 1:
                markers.append("{{cite:" + str(uuid_module.UUID(int=rng.getrandbits(128), version=4)) + "}}")
            body = (
                paper_body(markers, rng, filler)
                if not (damaged and index == 2)
                else ["A paper whose citations were lost."]
            )
            text = f"{_sentence(rng)}\nA. Author\n" + "\n\n".join(_wrap(p) for p in body) + "\n"
            data = text.encode("utf-8")
            if damaged and index == 4:
                data = data.replace(b"A. Author", b"A. Au\xfethor", 1)
            if archive is not None:
                info = tarfile.TarInfo(f"papers/{paper_id}.txt")
                info.size, info.mtime = len(data), 1_600_000_000
                archive.addfile(info, io.BytesIO(data))
            else:
                (folder / f"{paper_id}.txt").write_bytes(data)
        if damaged:
            db.execute(
                "insert into bibitem values (?, ?, ?, ?, ?, ?)",
                ("ffffffff-ffff-4fff-bfff-ffffffffffff", None, None, _paper_id(0), b"hep-th\xff99", "x"),
            )
        db.commit()
    finally:
        db.close()
        if archive is not None:
            archive.add(folder / "refs.db", arcname="papers/refs.db")
            archive.close()
            (folder / "refs.db").unlink()
            folder.rmdir()
    return target, every


def _hash(value: str) -> str:
    return hashlib.sha1(value.encode()).hexdigest()


def _body_2022(paragraphs: list[str]) -> list[dict]:
    """``body_text`` entries of a unarXive 2022 paper: each paragraph with a cite span per ``{{cite:...}}`` marker."""
    body = []
    for number, paragraph in enumerate(paragraphs):
        spans, start = [], paragraph.find("{{cite:")
        while start >= 0:
            end = paragraph.index("}}", start) + 2
            spans.append(
                {"start": start, "end": end, "text": paragraph[start:end], "ref_id": paragraph[start + 7 : end - 2]}
            )
            start = paragraph.find("{{cite:", end)
        body.append(
            {
                "section": "Introduction" if number < 2 else "",
                "sec_number": "1",
                "sec_type": "section",
                "content_type": "paragraph",
                "text": paragraph,
                "cite_spans": spans,
                "ref_spans": [],
            }
        )
    return body


def unarxive_2022_record(
    paper_id: str,
    rng: random.Random,
    body: list[dict],
    bib_entries: dict,
    initials: tuple[str, str],
    categories: str = "hep-th math-ph",
    discipline: str = "Physics",
) -> dict:
    """A paper in unarXive 2022's shape (two authors with these initials, a title and an abstract drawn from
    ``rng`` in that order, no ref entries)."""
    first, second = initials
    return {
        "paper_id": paper_id,
        "_pdf_hash": None,
        "_source_hash": _hash(paper_id),
        "_source_name": f"{paper_id}.gz",
        "metadata": {
            "id": paper_id,
            "title": _sentence(rng),
            "authors": f"{first}. Author, {second}. Author",
            "categories": categories,
            "authors_parsed": [["Author", f"{first}.", ""], ["Author", f"{second}.", ""]],
        },
        "discipline": discipline,
        "abstract": {"section": "Abstract", "text": _sentence(rng)},
        "body_text": body,
        "bib_entries": bib_entries,
        "ref_entries": {},
    }


def _bib_entries_2022(references: list[SampleReference], hashes: dict[str, str]) -> dict:
    """``bib_entries`` of a unarXive 2022 paper: the raw string, contained arXiv ids and the shipped ``ids`` links."""
    bib = {}
    for r in references:
        aid = r.work.arxiv_id if r.work and r.style.startswith("arxiv") else None
        contained = (
            [{"id": aid, "text": aid, "start": r.raw.find(aid), "end": r.raw.find(aid) + len(aid)}]
            if aid and aid in r.raw
            else []
        )
        linked = r.shipped_mag_id
        bib[hashes[r.uuid]] = {
            "bib_entry_raw": r.raw,
            "contained_arXiv_ids": contained,
            "contained_links": [],
            "discipline": "Physics",
            "ids": {
                "open_alex_id": f"https://openalex.org/W{linked}" if linked else "",
                "sem_open_alex_id": "",
                "pubmed_id": "",
                "pmc_id": "",
                "doi": (r.work.doi or "") if linked and r.work else "",
                "arxiv_id": (r.work.arxiv_id or "") if linked and r.work else "",
            },
        }
    return bib


def write_unarxive_2022(
    path: str | Path, works: list[Work], papers: int = 20, seed: int = 13, gzipped: bool = True
) -> tuple[Path, list[SampleReference]]:
    """unarXive 2022 JSON lines (gzipped by default) with ``ids`` links for most references."""
    rng = random.Random(seed)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    every: list[SampleReference] = []
    opener = gzip.open if gzipped else open
    with opener(path, "wt", encoding="utf-8", newline="\n") as out:
        for index in range(papers):
            paper_id = f"2212.{11000 + index:05d}"
            references = _references(works, rng, rng.randint(5, 12))
            every.extend(references)
            hashes = {r.uuid: _hash(r.uuid) for r in references}
            body = _body_2022(paper_body(["{{cite:" + hashes[r.uuid] + "}}" for r in references], rng))
            formula = str(uuid_module.UUID(_hash(paper_id)[:32]))  # as real unarXive 2022 papers: a formula placeholder
            marker = "{{formula:" + formula + "}}"
            body[0]["ref_spans"].append(
                {"start": len(body[0]["text"]) + 6, "end": len(body[0]["text"]) + 6 + len(marker), "ref_id": formula}
            )
            body[0]["ref_spans"][-1]["text"] = marker
            body[0]["text"] += f" with {marker} ."
            record = unarxive_2022_record(paper_id, rng, body, _bib_entries_2022(references, hashes), ("A", "B"))
            record["ref_entries"] = {formula: {"latex": "x_i^2 + y", "type": "formula"}}
            out.write(json.dumps(record) + "\n")
    return path, every
