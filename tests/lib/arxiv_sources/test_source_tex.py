"""Main file, flattening, comments, citation normalisation and bibliography parsing on small sources written here."""

import pytest

from citeworth_assets.lib.arxiv_sources.bibliography import extract_bibliography, parse_bibitems, parse_biblatex
from citeworth_assets.lib.arxiv_sources.citations import normalise_citations
from citeworth_assets.lib.arxiv_sources.flatten import find_main_file, flatten, strip_comments
from citeworth_assets.lib.arxiv_sources.macros import drop_recursive_definitions

DOC = "\\documentclass{article}\n\\begin{document}\n"


def test_the_main_file_is_the_document_no_other_file_includes():
    files = {
        "appendix.tex": DOC + "old standalone draft\\end{document}",
        "paper.tex": DOC + "\\input{appendix}\\end{document}",
        "macros.tex": "\\newcommand{\\x}{y}",
    }
    assert find_main_file(files) == "paper.tex"
    assert find_main_file({"a.tex": "no document here"}) is None
    assert find_main_file({"ms.tex": DOC, "zz.tex": DOC + "longer " * 50}) == "ms.tex"  # conventional name first


def test_flatten_follows_every_inclusion_form_inside_the_submission():
    files = {
        "main.tex": DOC + "A \\input{sec/one} B \\input two C \\include{three} D \\subfile{sub/four} "
        "E \\import{sec/}{five} F \\input{../../etc/passwd} G \\input{main}",
        "sec/one.tex": "ONE",
        "two.tex": "TWO",
        "three.tex": "THREE",
        "sub/four.tex": "\\documentclass[../main]{subfiles}\\begin{document}FOUR\\end{document}",
        "sec/five.tex": "FIVE \\input{six}",
        "sec/six.tex": "SIX",
    }
    missing = []
    text = flatten("main.tex", files, missing)
    for word in ("ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX"):
        assert word in text
    assert "subfiles" not in text and "passwd" not in text
    assert missing == ["../../etc/passwd"]
    assert text.count("\\input{main}") == 0  # a cycle is cut, not followed


def test_comments_are_stripped_but_escaped_percent_kept():
    text = strip_comments(
        "50\\% done % \\cite{hidden}\nnext\n\\begin{comment}\\cite{gone}\\end{comment}\\iffalse x\\fi ok"
    )
    assert "hidden" not in text and "gone" not in text and "50\\%" in text and text.endswith(" ok")


@pytest.mark.parametrize(
    ("source", "keys", "text"),
    [
        ("\\cite{a, b}", ["a", "b"], "CWCITE00000X CWCITE00001X"),
        ("\\citet{a}", ["a"], "CWCITE00000X"),
        ("\\citep[see][p.~3]{a,b}", ["a", "b"], "see CWCITE00000X CWCITE00001X p.~3"),
        ("\\citep[chap.~2]{a}", ["a"], "CWCITE00000X chap.~2"),
        ("\\citealt*{a}", ["a"], "CWCITE00000X"),
        ("\\citeauthor{a} and \\citeyear{a}", ["a", "a"], "CWCITE00000X and CWCITE00001X"),
        ("\\citetalias{a}", ["a"], "CWCITE00000X"),
        ("\\Citet{a}", ["a"], "CWCITE00000X"),
        ("\\parencite[e.g.][]{a}", ["a"], "e.g. CWCITE00000X"),
        ("\\textcite{a}", ["a"], "CWCITE00000X"),
        ("\\autocite{a}", ["a"], "CWCITE00000X"),
        ("\\cites(all)(x)[see][]{a}[12]{b,c}", ["a", "b", "c"], "see CWCITE00000X CWCITE00001X CWCITE00002X 12"),
        ("\\onlinecite{a}", ["a"], "CWCITE00000X"),
        ("\\nocite{a}", [], ""),
        ("\\citetext{plain words}", [], "\\citetext{plain words}"),
        ("\\cite", [], "\\cite"),
    ],
)
def test_every_citation_command_becomes_one_token_per_key(source, keys, text):
    normalised, citations = normalise_citations(source)
    assert citations.keys == keys
    assert normalised == text


def test_bibitems_with_nested_labels_and_biblatex_entries():
    block = (
        "{99}\n\\bibitem[{Smith et~al.(2020{\\natexlab{a}})}]{smith20} J. Smith. \\newblock Title.\n\n\\bibitem{b} B."
    )
    entries = parse_bibitems(block)
    assert [e.key for e in entries] == ["smith20", "b"] and "Title" in entries[0].latex
    bbl = (
        "\\entry{knuth}{article}{}\n\\name{author}{1}{}{{{hash=1}{family={Knuth},given={Donald}}}}\n"
        "\\field{title}{Literate programming}\n\\field{journaltitle}{The Computer Journal}\n\\field{year}{1984}\n"
        "\\verb{doi}\n\\verb 10.1093/comjnl/27.2.97\n\\endverb\n\\endentry\n\\entry{knuth}{article}{}\\endentry"
    )
    (entry,) = parse_biblatex(bbl)
    assert entry.latex == "Donald Knuth. Literate programming. The Computer Journal. 1984. doi:10.1093/comjnl/27.2.97."


def test_the_bbl_of_the_main_file_is_inlined_unless_the_body_has_its_own():
    files = {
        "ms.bbl": "\\providecommand{\\natexlab}[1]{#1}\n"
        "\\begin{thebibliography}{1}\\bibitem{x} X.\\end{thebibliography}"
    }
    body, bibliography = extract_bibliography("text \\bibliography{refs}", "ms.tex", files)
    assert "\\bibliography" not in body and bibliography.source == "ms.bbl"
    assert [e.key for e in bibliography.entries] == ["x"] and "natexlab" in bibliography.preamble
    inline = "t \\begin{thebibliography}{9}\\bibitem{y} Y.\\end{thebibliography}"
    body, bibliography = extract_bibliography(inline, "ms.tex", files)
    assert bibliography.source == "inline" and [e.key for e in bibliography.entries] == ["y"]
    assert extract_bibliography("t", "a.tex", {})[1].entries == []


def test_arxivs_readme_names_the_top_level_file():
    files = {
        "a.tex": DOC + "A\\end{document}",
        "b.tex": DOC + "B\\end{document}",
        "00README.XXX": "b.tex toplevelfile\n",
    }
    assert find_main_file(files) == "b.tex"
    files["00README.XXX"] = ""
    files["00README.json"] = '{"sources": [{"filename": "b.tex", "usage": "toplevel"}]}'
    assert find_main_file(files) == "b.tex"


def test_every_inline_bibliography_block_is_read():
    body = "x \\begin{thebibliography}{1}\\bibitem{a} A.\\end{thebibliography} y "
    body += "\\begin{thebibliography}{1}\\bibitem{b} B.\\bibitem{a} A again.\\end{thebibliography} z"
    rest, bibliography = extract_bibliography(body, "m.tex", {})
    assert [e.key for e in bibliography.entries] == ["a", "b"] and rest.split() == ["x", "y", "z"]


def test_amsrefs_biblists_are_the_bibliography_and_their_notes_follow_the_keys():
    body = (
        "By \\cite{BK}*{Theorem 2.1} and \\cites{BK,CG}. \\begin{bibdiv}\\begin{biblist}\n"
        "\\bib{BK}{article}{author={Borel, A.}, author={Kim, K.}, title={Things}, journal={J. Math.}, "
        "volume={3}, date={2001}, doi={10.1000/bk}}\n\\bib{CG}{book}{author={Chen, G.}, title={Books}, "
        "eprint={1701.00001}}\n\\bib{BK}{article}{title={Duplicate}}\n\\end{biblist}\\end{bibdiv} end"
    )
    rest, bibliography = extract_bibliography(body, "m.tex", {})
    assert bibliography.source == "amsrefs" and [e.key for e in bibliography.entries] == ["BK", "CG"]
    assert bibliography.entries[0].latex == "Borel, A. and Kim, K.. Things. J. Math.. 3. 2001. doi:10.1000/bk."
    assert bibliography.entries[1].latex == "Chen, G.. Books. arXiv:1701.00001."
    assert "biblist" not in rest and "bibdiv" not in rest and rest.split()[-1] == "end"
    text, citations = normalise_citations(rest)
    assert citations.keys == ["BK", "BK", "CG"] and text.startswith("By CWCITE00000X Theorem 2.1 and CWCITE00001X")


def test_a_bbl_definition_over_several_lines_is_kept_whole():
    """IEEEtran's .bbl defines macros over several lines; cut at a line end they would make pandoc reject the
    preamble (and the paper's own macros would be dropped with it)."""
    bbl = (
        "\\begin{thebibliography}{1}\n\\providecommand{\\url}[1]{#1}\n"
        "\\providecommand{\\BIBentryALTinterwordspacing}{\\spaceskip=\\fontdimen2\\font plus\n"
        "\\BIBentryALTinterwordstretchfactor\\fontdimen3\\font minus\n  \\fontdimen4\\font\\relax}\n"
        "\\providecommand{\\broken}{never closed\n\\bibitem{a} A.\n\\end{thebibliography}"
    )
    _, bibliography = extract_bibliography("\\bibliography{r}", "ms.tex", {"ms.bbl": bbl})
    preamble = bibliography.preamble
    assert "\\providecommand{\\url}[1]{#1}" in preamble and "\\fontdimen4\\font\\relax}" in preamble
    assert "\\broken" not in preamble and preamble.count("{") == preamble.count("}")


def test_macros_that_expand_into_themselves_are_dropped_and_named():
    text = (
        "\\newcommand{\\xa}{x\\xa} \\def\\p{\\q} \\def\\q#1{\\p} \\newcommand\\ok[1]{\\textbf{#1}} "
        "\\renewcommand*{\\r}[2][x]{#1\\ok{y}} \\def\\fine@opt{\\fine} \\def\\fine{z} keep \\p"
    )
    rest, dropped = drop_recursive_definitions(text)
    assert dropped == ["\\p", "\\q", "\\xa"]
    assert rest.split() == [
        "\\newcommand\\ok[1]{\\textbf{#1}}",
        "\\renewcommand*{\\r}[2][x]{#1\\ok{y}}",
        "\\def\\fine@opt{\\fine}",
        "\\def\\fine{z}",
        "keep",
        "\\p",
    ]
    assert drop_recursive_definitions("\\def\\a{b}") == ("\\def\\a{b}", [])
