"""Citations the reader dropped, rescued: pandoc skips the arguments of commands and the bodies of
environments it does not know (``\\software{...}``, ``\\tablecomments{...}``, ``\\scalebox{..}{...}``,
``deluxetable``), and the citation tokens inside go with them. After a first reading, the commands and
environments enclosing every token missing from the syntax tree are redefined to pass their content
through (``\\renewcommand{\\software}[1]{#1}``) and the document is read once more.
"""

from __future__ import annotations

import json
import re

from citeworth_assets.lib.arxiv_sources import scan
from citeworth_assets.lib.arxiv_sources.citations import TOKEN

COMMAND_BEFORE_GROUP = re.compile(r"\\([A-Za-z]+)\*?\s*(?:\[[^\[\]{}]*\]\s*)*(?:\{[^{}]*\}\s*)*$")
BEGIN_END = re.compile(r"\\(begin|end)\s*\{([A-Za-z*]+)\}")
KEEP_COMMANDS = {
    "begin", "end", "section", "subsection", "subsubsection", "paragraph", "subparagraph", "chapter", "part",
    "caption", "footnote", "footnotetext", "item", "label", "ref", "emph", "textbf", "textit", "textsc", "texttt",
    "textrm", "textsf", "underline", "title", "author", "href", "url", "newcommand", "renewcommand", "def",
}  # fmt: skip
KEEP_ENVIRONMENTS = {
    "document", "itemize", "enumerate", "description", "figure", "figure*", "table", "table*", "abstract",
    "quote", "quotation", "center", "minipage", "thebibliography", "equation", "align", "tabular",
}  # fmt: skip
BOXES = "\n".join(
    (
        "\\renewcommand{\\scalebox}[2]{#2}",
        "\\renewcommand{\\resizebox}[3]{#3}",
        "\\renewcommand{\\adjustbox}[2]{#2}",
        "\\renewcommand{\\rotatebox}[2]{#2}",
        "\\renewcommand{\\parbox}[3][]{#3}",
        "\\renewcommand{\\fbox}[1]{#1}",
        "\\renewcommand{\\framebox}[2][]{#2}",
        "\\renewcommand{\\makebox}[2][]{#2}",
        "\\renewcommand{\\fcolorbox}[3]{#3}",
        "\\renewcommand{\\raisebox}[2]{#2}",
        "\\renewcommand{\\shortstack}[2][]{#2}",
        "\\renewcommand{\\newblock}{ }",
        "\\providecommand{\\IEEEPARstart}[2]{#1#2}",
        "\\providecommand{\\IEEEauthorblockN}[1]{#1}",
        "\\providecommand{\\IEEEauthorblockA}[1]{}",
    )
)  # pandoc drops these boxes with what they hold (they only change the size of a table or figure), and takes
# the word after \newblock (a .bbl's block separator) for its argument; passed through with a generic arity, a box's
# width would show as text; IEEEtran's drop-cap lead-in and author blocks (defined by the class, which pandoc does
# not read) would lose the first word and the author names
STARRED_TABLE = re.compile(r"\\(begin|end)\s*\{table\*\}")


def readable_environments(body: str) -> str:
    """The body with environments pandoc reads badly renamed: pandoc 3 drops the caption of a ``table*`` (the
    wide table of two-column papers) with the citations in it, and keeps that of a ``table``."""
    return STARRED_TABLE.sub(lambda m: f"\\{m.group(1)}{{table}}", body)


WINDOW = 5_000  # characters searched back from a token for its enclosing groups
ARITY = {"deluxetable": 1, "deluxetable*": 1, "tabularx": 2, "tabular*": 2, "wraptable": 2, "wrapfigure": 2}


def present_tokens(tree: dict) -> set[int]:
    return {int(n) for n in TOKEN.findall(json.dumps(tree))}


def _enclosing_commands(body: str, position: int) -> list[str]:
    names, depth, index = [], 0, position
    stop = max(0, position - WINDOW)
    while index > stop:
        index -= 1
        char = body[index]
        if char == "}" and body[index - 1 : index] != "\\":
            depth += 1
        elif char == "{" and body[index - 1 : index] != "\\":
            if depth:
                depth -= 1
                continue
            match = COMMAND_BEFORE_GROUP.search(body[max(0, index - 300) : index])
            if match and match.group(1) not in KEEP_COMMANDS:
                names.append(match.group(1))
    return names


def _enclosing_environments(body: str, position: int) -> list[str]:
    stack: list[str] = []
    for match in BEGIN_END.finditer(body, max(0, position - 20 * WINDOW), position):
        if match.group(1) == "begin":
            stack.append(match.group(2))
        elif match.group(2) in stack:
            del stack[len(stack) - 1 - stack[::-1].index(match.group(2)) :]
    return [name for name in stack if name not in KEEP_ENVIRONMENTS]


def pass_through_definitions(body: str, missing: set[int]) -> str:
    """Preamble lines that make the commands and environments around the missing tokens show their content."""
    commands, environments = set(), set()
    for match in TOKEN.finditer(body):
        if int(match.group(1)) in missing:
            commands.update(_enclosing_commands(body, match.start()))
            environments.update(_enclosing_environments(body, match.start()))
    lines = [f"\\renewcommand{{\\{name}}}[1]{{#1}}" for name in sorted(commands)]
    lines += [
        f"\\renewenvironment{{{name}}}{f'[{ARITY[name]}]' if name in ARITY else ''}{{}}{{}}"
        for name in sorted(environments)
    ]
    return "\n".join(lines)


TABULAR = re.compile(
    r"\\begin\s*\{(?P<env>tabular\*?|tabularx|tabulary|longtable\*?|array|supertabular)\}(?P<body>.*?)\\end\s*\{(?P=env)\}",
    re.DOTALL,
)
ROW_END = re.compile(r"\\\\(?:\s*\[[^\]]*\])?")


def _spec_end(text: str, env: str) -> int:
    """Where the column specification (and width, position) of a tabular environment ends."""
    pos = 0
    optional = scan.optional(text, pos)
    pos = optional[1] if optional else pos
    for _ in range(ARITY.get(env, 1)):
        found = scan.group(text, pos)
        pos = found[1] if found else pos
    return pos


def tabulars_as_text(body: str, missing: set[int]) -> str:
    """The body with every tabular that holds a missing token turned into plain rows of text."""

    def repl(match: re.Match) -> str:
        inner = match.group("body")
        if not any(int(n) in missing for n in TOKEN.findall(inner)):
            return match.group(0)
        rows = ROW_END.split(inner[_spec_end(inner, match.group("env")) :])
        return " ;\n".join(row.replace("&", " ; ") for row in rows if row.strip()) + "\n"

    return TABULAR.sub(repl, body)
