"""A seeded bulk LaTeX source dump (``arXiv_src_YYMM_NNN.tar`` holding ``YYMM/<id>.gz``) with the quirks real
submissions have: natbib author-year citations with pre/post notes, biblatex ``\\entry`` records in the
``.bbl``, ``\\input``/``\\include``/``\\subfile`` across folders, an inline ``thebibliography``, a gzipped
single ``.tex`` file, starred and multicite commands, a citation in a footnote, a caption and a table, a
formula with a ``\\ref`` to it, comments hiding a citation, a PDF-only submission and a corrupt gzip.

References cite works of :func:`citeworth_assets.samples.mag.sample_works` by title and authors, so they
resolve against the sample catalogue and the converted papers give citation contexts.
"""

from __future__ import annotations

import gzip
import io
import random
import tarfile
from pathlib import Path

from citeworth_assets.samples.mag import WORDS, Work

MONTH = "2101"
KINDS = ("natbib", "biblatex", "single", "subfiles")


def _tar_bytes(files: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name, text in sorted(files.items()):
            data = text.encode("utf-8")
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), 0
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _gz(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


def _sentence(rng: random.Random, citation: str = "") -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(8, 14))]
    if citation:
        words.insert(rng.randint(2, len(words) - 1), citation)
    text = " ".join(words)
    return text[0].upper() + text[1:] + "."


def _paragraphs(rng: random.Random, citations: list[str]) -> str:
    sentences = [_sentence(rng, c) for c in citations] + [_sentence(rng) for _ in range(len(citations))]
    rng.shuffle(sentences)
    return "\n\n".join(" ".join(sentences[i : i + 4]) for i in range(0, len(sentences), 4))


def _names(work: Work) -> str:
    return " and ".join(work.authors)


def _bibitems(keys: dict[str, Work], natbib: bool) -> str:
    items = []
    for key, work in keys.items():
        surname = work.authors[0].split()[-1]
        label = f"[{{{surname}(et~al.)({work.year})}}]" if natbib else ""
        items.append(f"\\bibitem{label}{{{key}}}\n{_names(work)}.\n\\newblock {work.title}.\n\\newblock {work.year}.")
    return "\\begin{thebibliography}{99}\n" + "\n\n".join(items) + "\n\\end{thebibliography}\n"


def _biblatex_bbl(keys: dict[str, Work]) -> str:
    entries = []
    for key, work in keys.items():
        names = "".join(
            f"{{{{hash=h{i}}}{{family={{{a.split()[-1]}}},given={{{' '.join(a.split()[:-1])}}}}}}}"
            for i, a in enumerate(work.authors)
        )
        entries.append(
            f"    \\entry{{{key}}}{{article}}{{}}\n      \\name{{author}}{{{len(work.authors)}}}{{}}{{{names}}}\n"
            f"      \\field{{title}}{{{work.title}}}\n      \\field{{journaltitle}}{{Sample Letters}}\n"
            f"      \\field{{year}}{{{work.year}}}\n    \\endentry"
        )
    return (
        "\\refsection{0}\n  \\datalist[entry]{nyt/global//global/global}\n"
        + "\n".join(entries)
        + "\n  \\enddatalist\n\\endrefsection\n"
    )


def _keys(rng: random.Random, works: list[Work], count: int) -> dict[str, Work]:
    chosen = rng.sample([w for w in works if w.kind == "plain"], count)
    return {f"{w.authors[0].split()[-1].lower()}{w.year}{chr(97 + i)}": w for i, w in enumerate(chosen)}


def _natbib(rng: random.Random, keys: list[str]) -> dict[str, str]:
    k = keys
    intro = _paragraphs(rng, [f"\\citet{{{k[0]}}}", f"\\citep[see][p.~3]{{{k[1]},{k[2]}}}", f"\\citealt{{{k[3]}}}"])
    method = _paragraphs(rng, [f"\\citeauthor{{{k[4]}}}", f"\\citeyear{{{k[5]}}}", f"\\citep*{{{k[6]}}}"])
    main = (
        "\\documentclass{article}\n\\usepackage{natbib}\n\\newcommand{\\ours}{\\textsc{Ours}}\n"
        "\\title{A natbib sample}\n\\author{Ada Lovelace}\n\\begin{document}\n\\maketitle\n"
        f"\\begin{{abstract}}\n{_sentence(rng)}\n\\end{{abstract}}\n"
        "\\section{Introduction}\n\\input{sections/intro}\n% a commented citation \\cite{nobody}\n"
        "\\include{method}\n\\bibliographystyle{plainnat}\n\\bibliography{refs}\n\\end{document}\n"
    )
    return {"main.tex": main, "sections/intro.tex": intro, "method.tex": f"\\section{{Method}}\n{method}\n"}


def _biblatex(rng: random.Random, keys: list[str]) -> dict[str, str]:
    k = keys
    body = _paragraphs(
        rng,
        [
            f"\\textcite{{{k[0]}}}",
            f"\\parencite[ch.~2]{{{k[1]}}}",
            f"\\autocite{{{k[2]},{k[3]}}}",
            f"\\cites[see][]{{{k[4]}}}[12]{{{k[5]}}}",
            f"\\Textcite{{{k[6]}}}",
        ],
    )
    return {
        "paper.tex": "\\documentclass{article}\n\\usepackage[style=authoryear]{biblatex}\n\\addbibresource{refs.bib}\n"
        f"\\title{{A biblatex sample}}\n\\begin{{document}}\n\\section{{Results}}\n{body}\n\\printbibliography\n"
        "\\end{document}\n"
    }


def _single(rng: random.Random, keys: dict[str, Work]) -> str:
    k = list(keys)
    text = _paragraphs(rng, [f"\\cite{{{k[0]},{k[1]}}}", f"\\onlinecite{{{k[2]}}}", f"\\cite*{{{k[3]}}}"])
    return (
        "\\documentclass{revtex4}\n\\begin{document}\n\\title{A single-file sample}\n\\section{Theory}\n"
        f"{text}\n\\begin{{equation}}\nE = mc^2 \\label{{eq:energy}}\n\\end{{equation}}\n"
        f"Equation~\\ref{{eq:energy}} holds\\footnote{{As argued by \\cite{{{k[4]}}}.}}.\n"
        "\\begin{figure}\n\\includegraphics{plot.pdf}\n"
        f"\\caption{{Measurements after \\cite{{{k[5]}}}.}}\n\\label{{fig:plot}}\n\\end{{figure}}\n"
        "\\begin{table}\n\\caption{Data sets.}\n\\begin{tabular}{ll}\nName & Source \\\\\n"
        f"Alpha & \\cite{{{k[6]}}} \\\\\n\\end{{tabular}}\n\\end{{table}}\n"
        f"Figure~\\ref{{fig:plot}} shows it.\n\n{_bibitems(keys, natbib=False)}\\end{{document}}\n"
    )


def _subfiles(rng: random.Random, keys: list[str]) -> dict[str, str]:
    k = keys
    part = _paragraphs(rng, [f"\\citetalias{{{k[0]}}}", f"\\citep[e.g.,][]{{{k[1]}}}", f"\\citet[p.~7]{{{k[2]}}}"])
    rest = _paragraphs(rng, [f"\\citep{{{k[3]},{k[4]}}}", f"\\Citet{{{k[5]}}}", f"\\citealp{{{k[6]}}}"])
    chapter = (
        "\\documentclass[../ms.tex]{subfiles}\n\\begin{document}\n\\section{Background}\n"
        f"{part}\n\\end{{document}}\n"
    )
    main = (
        "\\documentclass{aastex631}\n\\usepackage{subfiles}\n\\begin{document}\n\\title{A subfiles sample}\n"
        f"\\subfile{{chapters/background}}\n\\section{{Discussion}}\n{rest}\n\\bibliography{{ms}}\n\\end{{document}}\n"
    )
    return {"ms.tex": main, "chapters/background.tex": chapter}


def write_source_dump(folder: Path, works: list[Work], papers: int = 8, seed: int = 13) -> dict:
    """``folder/arXiv_src_2101_001.tar``: ``papers`` submissions cycling through the quirks, then a PDF-only
    and a corrupt submission. Returns what was written: ids by kind and the citation keys per paper."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"arXiv_src_{MONTH}_001.tar"
    written: dict = {"path": str(target), "papers": {}, "damaged": {}}
    with tarfile.open(target, "w") as tar:

        def add(name: str, data: bytes) -> None:
            info = tarfile.TarInfo(f"{MONTH}/{name}")
            info.size, info.mtime = len(data), 0
            tar.addfile(info, io.BytesIO(data))

        for index in range(papers):
            arxiv_id, kind = f"{MONTH}.{90001 + index}", KINDS[index % len(KINDS)]
            keys = _keys(rng, works, 7)
            if kind == "natbib":
                files = {**_natbib(rng, list(keys)), "main.bbl": _bibitems(keys, natbib=True)}
            elif kind == "biblatex":
                files = {**_biblatex(rng, list(keys)), "paper.bbl": _biblatex_bbl(keys)}
            elif kind == "subfiles":
                files = {**_subfiles(rng, list(keys)), "ms.bbl": _bibitems(keys, natbib=True)}
            if kind == "single":
                add(f"{arxiv_id}.gz", _gz(_single(rng, keys).encode("utf-8")))
            else:
                add(f"{arxiv_id}.gz", _gz(_tar_bytes(files)))
            written["papers"][arxiv_id] = {"kind": kind, "keys": list(keys), "citations": 7}
        pdf_id, corrupt_id = f"{MONTH}.{90001 + papers}", f"{MONTH}.{90002 + papers}"
        add(f"{pdf_id}.pdf", b"%PDF-1.4\n%sample\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n")
        add(f"{corrupt_id}.gz", b"\x1f\x8b\x08\x00" + bytes(rng.getrandbits(8) for _ in range(64)))
        written["damaged"] = {pdf_id: "pdf_only", corrupt_id: "corrupt_archive"}
    return written
