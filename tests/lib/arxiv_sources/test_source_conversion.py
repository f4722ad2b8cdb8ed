"""Whole submissions through pandoc: each quirk on a small source written here, the outcome of each damage, and a
record the unarXive 2022 reader takes without a read issue."""

import gzip
import io
import json
import re
import tarfile

from citeworth_assets.lib.arxiv.unarxive2022 import paper_from_record
from citeworth_assets.lib.arxiv_sources.archive import RawSubmission
from citeworth_assets.lib.arxiv_sources.convert import convert_submission
from citeworth_assets.lib.jsonl import IssueLog

NATBIB_BBL = (
    "\\providecommand{\\natexlab}[1]{#1}\n\\begin{thebibliography}{2}\n"
    "\\bibitem[{Lovelace(1843)}]{ada} A.~Lovelace. \\newblock Notes on the engine. \\newblock {\\em Memoirs}, 1843. "
    "doi:10.1000/ada.1\n\n\\bibitem[{Turing(1950{\\natexlab{a}})}]{turing} A.~M. Turing. "
    "\\newblock Computing machinery and intelligence. arXiv:1701.00001.\n\\end{thebibliography}\n"
)


def submission(files: dict[str, str], arxiv_id: str = "2101.00001") -> RawSubmission:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return RawSubmission(
        arxiv_id, "arXiv_src_2101_001.tar", f"2101/{arxiv_id}.gz", gzip.compress(buffer.getvalue(), mtime=0)
    )


def convert(files: dict[str, str], **options):
    return convert_submission(submission(files), **options)


def markers(record: dict) -> list[str]:
    return [span["ref_id"] for p in record["body_text"] for span in p["cite_spans"]]


def body(record: dict) -> str:
    return "\n".join(p["text"] for p in record["body_text"])


def test_natbib_multi_file_paper_with_a_bbl():
    outcome, record = convert(
        {
            "main.tex": "\\documentclass{article}\\usepackage{natbib}\\title{Engines}\\author{A. B.}\n\\begin{document}"
            "\\maketitle\\begin{abstract}We study $x$ engines.\\end{abstract}\n\\section{Intro}\\input{intro}\n"
            "\\bibliography{refs}\\end{document}",
            "intro.tex": "As \\citet{ada} noted, engines compute \\citep[see][p.~2]{ada,turing}. % \\cite{hidden}\n",
            "main.bbl": NATBIB_BBL,
        }
    )
    assert outcome.outcome == "converted" and outcome.bib_source == "main.bbl" and outcome.main_file == "main.tex"
    assert outcome.n_citation_keys == 3 and outcome.n_markers == 3 and outcome.n_markers_linked == 3
    assert len(set(markers(record))) == 2 and set(markers(record)) == set(record["bib_entries"])
    text = body(record)
    assert "see {{cite:" in text and "p. 2" in text.replace("\u00a0", " ") and "hidden" not in text
    ada = next(e for e in record["bib_entries"].values() if "Lovelace" in e["bib_entry_raw"])
    assert ada["bib_entry_raw"].startswith("A. Lovelace. Notes on the engine. Memoirs, 1843.")
    assert ada["ids"]["doi"] == "10.1000/ada.1"
    turing = next(e for e in record["bib_entries"].values() if "Turing" in e["bib_entry_raw"])
    assert turing["contained_arXiv_ids"][0]["id"] == "1701.00001"
    assert record["metadata"]["title"] == "Engines" and record["abstract"]["text"] == "We study $x$ engines."
    assert record["body_text"][0]["section"] == "Intro" and record["body_text"][0]["sec_number"] == "1"


def test_biblatex_paper_with_entry_records():
    bbl = (
        "\\refsection{0}\\datalist[entry]{nyt/global//global/global}\n"
        "\\entry{knuth}{article}{}\\name{author}{1}{}{{{hash=1}{family={Knuth},given={Donald}}}}"
        "\\field{title}{Literate programming}\\field{year}{1984}\\endentry\n\\enddatalist\\endrefsection"
    )
    outcome, record = convert(
        {
            "paper.tex": "\\documentclass{article}\\usepackage{biblatex}\\begin{document}\\textcite{knuth} wrote it "
            "\\parencite[ch.~1]{knuth}; see \\autocite{knuth,missing}.\\printbibliography\\end{document}",
            "paper.bbl": bbl,
        }
    )
    assert outcome.outcome == "converted" and outcome.n_markers == 4 and outcome.n_markers_linked == 3
    (entry,) = record["bib_entries"].values()
    assert entry["bib_entry_raw"] == "Donald Knuth. Literate programming. 1984."


def test_formulas_figures_tables_and_references_become_tokens_kept_in_ref_entries():
    outcome, record = convert(
        {
            "a.tex": "\\documentclass{revtex4}\\begin{document}\\section{S}Energy $E=mc^2$ in "
            "Eq.~\\ref{eq:e} and Fig.~\\ref{fig:p}\\footnote{After \\cite{ada}.}."
            "\\begin{equation}E = mc^2\\label{eq:e}\\end{equation}"
            "\\begin{figure}\\includegraphics{p.pdf}\\caption{Plot from \\cite{turing}.}\\label{fig:p}\\end{figure}"
            "\\begin{table}\\caption{Data}\\begin{tabular}{ll}a & \\cite{ada}\\\\\\end{tabular}\\end{table}"
            "\\begin{thebibliography}{9}\\bibitem{ada} A. Lovelace. \\bibitem{turing} A. Turing.\\end{thebibliography}"
            "\\end{document}"
        }
    )
    assert outcome.outcome == "converted" and outcome.n_markers == 3 == outcome.n_citation_keys
    kinds = {entry["type"] for entry in record["ref_entries"].values()}
    assert kinds == {"formula", "figure", "table"}
    text = body(record)
    labelled = re.search(r"Eq\. \{\{formula:([0-9a-f-]{36})\}\}", text.replace("\u00a0", " "))
    assert labelled and "E = mc^2" in record["ref_entries"][labelled.group(1)]["latex"]
    figure = next(e for e in record["ref_entries"].values() if e["type"] == "figure")
    assert figure["caption"] == "Plot from ."  # the marker lives in the caption paragraph
    assert {p["content_type"] for p in record["body_text"]} >= {"paragraph", "footnote", "caption", "table"}
    assert "\\" not in text and "$" not in text


def test_a_citation_inside_an_unknown_command_is_rescued_and_measured_against_one_reading():
    files = {
        "ms.tex": "\\documentclass{aastex}\\begin{document}Done.\\software{astropy \\citep{ada}, numpy \\citep{turing}}"
        "\\begin{table}\\scalebox{0.5}{\\begin{tabular}{l}\\makecell{x} & \\cite{ada}\\\\\\end{tabular}}\\end{table}"
        "\\begin{thebibliography}{9}\\bibitem{ada} A.\\bibitem{turing} T.\\end{thebibliography}\\end{document}"
    }
    outcome, record = convert(files)
    assert outcome.n_markers == 3 and outcome.n_passed_through >= 1
    single, _ = convert(files, rescue_citations=False)
    assert single.n_markers < 3


def test_salvage_closes_an_unclosed_environment():
    outcome, record = convert(
        {
            "m.tex": "\\documentclass{article}\\begin{document}\\begin{itemize}\\item one \\cite{a}\n\n"
            "Text.\\end{document}"
        }
    )
    assert outcome.outcome == "converted" and outcome.salvage == "repaired" and outcome.n_markers == 1


def test_outcomes_of_submissions_that_cannot_be_converted():
    assert convert({"notes.txt": "hello"})[0].outcome == "no_tex"
    assert convert({"part.tex": "\\section{A} no document"})[0].outcome == "no_main_file"
    assert convert_submission(submission({}, "2101.00009"))[0].outcome == "no_tex"  # an empty tar
    pdf = RawSubmission("2101.00010", "t.tar", "2101/2101.00010.pdf", b"%PDF-1.4")
    assert convert_submission(pdf)[0].outcome == "pdf_only"
    corrupt = RawSubmission("2101.00011", "t.tar", "2101/2101.00011.gz", b"\x1f\x8b\x08\x00junk")
    outcome, record = convert_submission(corrupt)
    assert outcome.outcome == "corrupt_archive" and record is None and "gzip" in outcome.detail
    slow, _ = convert({"m.tex": "\\documentclass{article}\\begin{document}x\\end{document}"}, timeout=0.001)
    assert slow.outcome == "timeout"


def test_records_read_without_issues_and_reruns_give_the_same_bytes():
    files = {
        "main.tex": "\\documentclass{article}\\begin{document}\\section{A}$x$ by \\citet{ada}. \\ref{nowhere}"
        "\\bibliography{b}\\end{document}",
        "main.bbl": NATBIB_BBL,
    }
    (_, first), (_, second) = convert(files), convert(files)
    assert json.dumps(first) == json.dumps(second)
    log = IssueLog()
    paper = paper_from_record(json.loads(json.dumps(first)), __import__("pathlib").Path("x.jsonl"), 1, 0, log)
    assert log.total == 0 and paper.row["n_markers"] == 1 and len(paper.references) == 2
    assert paper.paragraphs[0]["markers"][0]["ref_id"] in {r["ref_id"] for r in paper.references}
    assert "{{ref:" in paper.paragraphs[0]["text"]


def test_a_lost_worker_costs_only_its_submission():
    from citeworth_assets.lib.arxiv_sources import runner

    row, record = runner._lost(181, submission({}, "2101.00012"), "timeout")
    assert row["outcome"] == "timeout" and row["arxiv_id"] == "2101.00012" and record is None and row["seconds"] == 181
    row, record = runner._lost(181, submission({}, "2101.00013"), "worker_died")
    assert row["outcome"] == "worker_died" and row["arxiv_id"] == "2101.00013" and record is None
    assert row["outcome"] in runner_outcomes()


def runner_outcomes():
    from citeworth_assets.lib.arxiv_sources.convert import OUTCOMES

    return OUTCOMES


IEEE_BBL = (
    "\\begin{thebibliography}{1}\n\\providecommand{\\url}[1]{#1}\n\\csname url@samestyle\\endcsname\n"
    "\\providecommand{\\BIBentryALTinterwordspacing}{\\spaceskip=\\fontdimen2\\font plus\n"
    "\\BIBentryALTinterwordstretchfactor\\fontdimen3\\font minus\n  \\fontdimen4\\font\\relax}\n"
    "\\providecommand{\\BIBforeignlanguage}[2]{{%\n\\expandafter\\ifx\\csname l@#1\\endcsname\\relax\n"
    "\\typeout{** WARNING: no pattern}%\n\\else\n\\language=\\csname l@#1\\endcsname\n\\fi\n#2}}\n"
    "\\bibitem{a1}\nA.~Smith, ``Deep nets,'' in \\emph{Proc. CVPR}, 2019.\n\n\\bibitem{a2}\n"
    "\\BIBentryALTinterwordspacing\nD.~Kim, ``Fast,'' 2021. Available: \\url{https://arxiv.org/abs/2101.01234}\n"
    "\\BIBentrySTDinterwordspacing\n\n\\end{thebibliography}\n"
)


def test_an_ieeetran_paper_keeps_its_macros_lead_in_and_authors():
    tex = (
        "\\documentclass[conference]{IEEEtran}\n\\usepackage{cite,xspace}\n"
        "\\newcommand{\\ours}{\\textsc{FastNet}\\xspace}\n\\begin{document}\n\\title{Fast}\n"
        "\\author{\\IEEEauthorblockN{Ann Smith}\\IEEEauthorblockA{Univ. X}}\n\\maketitle\n\\section{Intro}\n"
        "\\IEEEPARstart{D}{eep} nets~\\cite{a1,a2} are slow; \\ours is not.\n"
        "\\bibliographystyle{IEEEtran}\n\\bibliography{refs}\n\\end{document}\n"
    )
    outcome, record = convert({"paper.tex": tex, "paper.bbl": IEEE_BBL})
    assert outcome.outcome == "converted" and outcome.salvage == "none", outcome.detail
    assert body(record).startswith("Deep nets {{cite:") and "FastNet is not." in body(record)
    assert record["metadata"]["authors"] == "Ann Smith" and outcome.n_markers_linked == 2
    raw = [entry["bib_entry_raw"] for entry in record["bib_entries"].values()]
    assert raw[1] == "D. Kim, “Fast,” 2021. Available: https://arxiv.org/abs/2101.01234", raw


def test_a_citation_inside_a_macro_is_a_marker_where_used_and_the_outcome_says_so():
    tex = (
        "\\documentclass{article}\n\\newcommand{\\bert}{BERT~\\cite{dev}}\n\\begin{document}\n"
        "We use \\bert{} and \\bert{} with \\cite{dev}.\n"
        "\\begin{thebibliography}{1}\\bibitem{dev} J. Devlin. BERT. 2019.\\end{thebibliography}\n\\end{document}\n"
    )
    outcome, record = convert({"m.tex": tex})
    assert outcome.n_citation_keys == 1 and outcome.n_markers == outcome.n_markers_linked == 3
    assert outcome.detail == "2 markers from citations inside macros"


def test_a_jhep_abstract_in_the_preamble_is_the_papers_abstract():
    tex = (
        "\\documentclass{article}\n\\usepackage{jheppub}\n\\renewcommand\\abstract{no}\n\\title{Strings}\n"
        "\\abstract{We revisit \\cite{j1}.}\n\\begin{document}\n\\maketitle\n\\section{Intro}\nAs in \\cite{j1}.\n"
        "\\begin{thebibliography}{1}\\bibitem{j1} A. B, JHEP 1 (2001) 1.\\end{thebibliography}\n\\end{document}\n"
    )
    outcome, record = convert({"main.tex": tex})
    assert outcome.outcome == "converted" and outcome.n_citation_keys == 2
    assert re.fullmatch(r"We revisit \{\{cite:[0-9a-f]{40}\}\}\.", record["abstract"]["text"])
    assert body(record).startswith("As in {{cite:")


def test_a_macro_loop_costs_its_definition_not_the_timeout():
    tex = (
        "\\documentclass{article}\n\\newcommand{\\loopy}{x\\loopy}\n\\def\\ping{\\pong}\\def\\pong{\\ping}\n"
        "\\begin{document}\nText \\cite{k} and \\loopy{} and \\ping.\n"
        "\\begin{thebibliography}{1}\\bibitem{k} K.\\end{thebibliography}\n\\end{document}\n"
    )
    outcome, record = convert({"l.tex": tex}, timeout=20)
    assert outcome.outcome == "converted" and outcome.seconds < 10
    assert outcome.detail == "recursive macros dropped: \\loopy \\ping \\pong" and outcome.n_markers_linked == 1


def test_an_icml_title_and_authors_inside_twocolumn_are_the_papers_metadata():
    tex = (
        "\\documentclass{article}\n\\usepackage{icml2020}\n\\begin{document}\n\\twocolumn[\n"
        "\\icmltitle{Learning Things}\n\\begin{icmlauthorlist}\\icmlauthor{Ann Ay}{u1}\\icmlauthor{Bo Bee}{u1}"
        "\\end{icmlauthorlist}\n\\icmlaffiliation{u1}{Uni}\n]\n"
        "\\begin{abstract}Models \\citep{k} learn.\\end{abstract}\n"
        "\\section{Intro}\nText.\n\\begin{thebibliography}{1}\\bibitem{k} K.\\end{thebibliography}\n\\end{document}\n"
    )
    outcome, record = convert({"paper.tex": tex})
    assert outcome.outcome == "converted"
    assert record["metadata"]["title"] == "Learning Things" and record["metadata"]["authors"] == "Ann Ay, Bo Bee"
    assert record["abstract"]["text"].startswith("Models {{cite:")


def test_a_citation_inside_mathematics_or_a_box_keeps_its_marker():
    tex = (
        "\\documentclass{article}\n\\usepackage{amsmath}\n\\begin{document}\n"
        "\\begin{equation} E = mc^2 \\quad \\text{(see \\cite{a})} \\end{equation}\n"
        "\\fbox{\\parbox[t]{3cm}{Boxed \\cite{b}.}} \\makebox[2cm]{Made \\cite{a}.}\n"
        "\\begin{thebibliography}{9}\\bibitem{a} A. \\bibitem{b} B.\\end{thebibliography}\n\\end{document}\n"
    )
    outcome, record = convert({"m.tex": tex})
    assert outcome.n_citation_keys == 3 and outcome.n_markers_linked == 3
    assert re.fullmatch(
        r"\{\{formula:[0-9a-f-]{36}\}\} \{\{cite:\w{40}\}\} Boxed \{\{cite:\w{40}\}\}\. Made \{\{cite:\w{40}\}\}\.",
        body(record),
    ), body(record)
    (formula,) = [entry for entry in record["ref_entries"].values() if entry["type"] == "formula"]
    assert "\\text{(see \\cite{a})}" in formula["latex"]


def test_a_citation_in_a_title_footnote_is_a_footnote_paragraph():
    tex = (
        "\\documentclass{article}\n\\begin{document}\n\\title{T\\thanks{Extends \\cite{a}.}}\n"
        "\\author{A\\thanks{Email only.}}\n\\maketitle\nBody \\cite{b}.\n"
        "\\begin{thebibliography}{9}\\bibitem{a} A. \\bibitem{b} B.\\end{thebibliography}\n\\end{document}\n"
    )
    outcome, record = convert({"m.tex": tex})
    assert record["metadata"]["title"] == "T" and outcome.n_markers_linked == 2
    assert [p["content_type"] for p in record["body_text"]] == ["footnote", "paragraph"]
    assert record["body_text"][0]["text"].startswith("Extends {{cite:")


def test_the_caption_of_a_wide_table_keeps_its_citations():
    """pandoc 3 drops the caption of a ``table*`` (two-column papers' wide tables); read as a ``table``."""
    tex = (
        "\\documentclass{article}\n\\begin{document}\nText.\n\\begin{table*}[t]\\centering\n"
        "\\begin{tabular}{ll} a & b \\\\ \\end{tabular}\n\\caption{Corpora; arXiv CS \\cite{a}.}\\label{t}\n"
        "\\end{table*}\n\\begin{thebibliography}{9}\\bibitem{a} A.\\end{thebibliography}\n\\end{document}\n"
    )
    outcome, record = convert({"m.tex": tex})
    assert outcome.n_markers_linked == 1
    assert [p["content_type"] for p in record["body_text"]][-1] == "caption"


def test_an_inclusion_chain_cut_at_the_depth_limit_is_noted_in_the_outcome():
    """Generated sources (a book's chapters that input sections that input subsections, or a script that writes one
    file per table row and inputs the next) can nest deeper than the limit; a part's file that inputs the main file
    back (copied from a template) loops. Both are cut, and the outcome says which inclusions were not expanded."""
    files = {
        "main.tex": "\\documentclass{article}\n\\begin{document}\nIntro \\cite{k}.\n\n\\input{part0}\n"
        "\\begin{thebibliography}{1}\\bibitem{k} K. Knuth. Art.\\end{thebibliography}\n\\end{document}\n",
        **{f"part{i}.tex": f"Level{i}word here.\n\n\\input{{part{i + 1}}}\n" for i in range(14)},
        "part14.tex": "Level14word at the bottom, \\input{main} again.\n",
    }
    outcome, record = convert(files)
    assert outcome.outcome == "converted" and outcome.n_markers_linked == 1
    text = body(record)
    assert "Level11word" in text and "Level12word" not in text  # main.tex, then 12 levels of parts
    assert "inclusions not expanded: 1 (part12.tex in part11.tex (12 inclusions deep))" in outcome.detail
    shallow = {**files, "part3.tex": "Level3word, and the template's \\input{main}.\n"}
    outcome, record = convert(shallow)
    assert "Level3word" in body(record) and "main.tex in part3.tex (includes a file that includes it)" in outcome.detail
