"""The LaTeX reader: pandoc (``pypandoc-binary`` ships pandoc 3.x as a wheel), called once per document for
its JSON syntax tree, with salvage when it rejects the input.

Chosen by measurement (benchmarks/latex.py): pandoc reads a real paper in about 0.1-0.3 CPU-s and returns
citations, mathematics, figures and tables as elements; LaTeXML takes seconds and Tralics (the thesis's
choice) is no longer packaged. Pandoc rejects a document only on a construct it cannot close (an
unbalanced environment, a broken ``\\verb``); salvage then closes the environment or blanks the line it
names and retries, and at last converts section by section, dropping only the sections it still rejects.
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import dataclass, field

ERROR_LINE = re.compile(r"line (\d+), column \d+")
EXPECTING_END = re.compile(r"expecting \\end\{([^{}]+)\}")
SECTION = re.compile(r"(?=\\(?:section|chapter)\*?\s*[\[{])")
MAX_REPAIRS = 6
MEMORY_LIMIT = "2G"  # pandoc's heap limit (its manual's advice for untrusted input): a macro bomb fails, not the host
MINIMAL_PREAMBLE = "\\documentclass{article}"


class ReaderError(Exception):
    """Pandoc rejected the document (its message says where)."""


def pandoc_path() -> str:
    import pypandoc

    return pypandoc.get_pandoc_path()


def read_latex(text: str, timeout: float) -> dict:
    """Pandoc's JSON syntax tree of a LaTeX document; ReaderError when pandoc rejects it, TimeoutExpired past
    ``timeout`` seconds."""
    done = subprocess.run(
        [pandoc_path(), "+RTS", f"-M{MEMORY_LIMIT}", "-RTS", "--from=latex", "--to=json", "--quiet"],
        input=text.encode("utf-8", "surrogatepass"),
        capture_output=True,
        timeout=max(timeout, 0.001),
        check=False,
    )
    if done.returncode != 0:
        raise ReaderError(done.stderr.decode("utf-8", "replace").strip()[:500] or f"exit status {done.returncode}")
    return json.loads(done.stdout)


@dataclass
class Salvage:
    """What salvage did to get a syntax tree: repairs tried, sections dropped."""

    repairs: list[str] = field(default_factory=list)
    sections_dropped: int = 0
    by_section: bool = False

    @property
    def method(self) -> str:
        if self.by_section:
            return "by_section"
        return "repaired" if self.repairs else "none"


def _repair(text: str, message: str) -> tuple[str, str] | None:
    """The text with the offending construct removed or closed, and what was done; None when nothing applies."""
    closing = EXPECTING_END.search(message)
    end = text.rfind("\\end{document}")
    if closing and end >= 0:
        return text[:end] + f"\\end{{{closing.group(1)}}}\n" + text[end:], f"closed {closing.group(1)}"
    line = ERROR_LINE.search(message)
    if line:
        lines = text.split("\n")
        number = int(line.group(1)) - 1
        if 0 <= number < len(lines) and lines[number].strip() and "\\begin{document}" not in lines[number]:
            lines[number] = ""
            return "\n".join(lines), f"dropped line {number + 1}"
    return None


def _with_repairs(text: str, deadline, salvage: Salvage, attempts: int) -> dict:
    message = ""
    for _ in range(attempts + 1):
        try:
            return read_latex(text, deadline())
        except ReaderError as error:
            message = str(error)
        repaired = _repair(text, message)
        if repaired is None:
            break
        text, what = repaired
        salvage.repairs.append(what)
    raise ReaderError(message)


def read_with_salvage(preamble: str, body: str, deadline) -> tuple[dict, Salvage]:
    """The syntax tree of ``preamble + \\begin{document} body \\end{document}``, salvaged where pandoc rejects
    it. ``deadline()`` gives the seconds left (a TimeoutExpired ends the attempt)."""
    salvage = Salvage()
    first = ""
    for head in (preamble, MINIMAL_PREAMBLE):  # a preamble pandoc cannot read is dropped before the body is cut up
        try:
            return _with_repairs(
                f"{head}\n\\begin{{document}}\n{body}\n\\end{{document}}\n", deadline, salvage, MAX_REPAIRS
            ), salvage
        except ReaderError as error:
            first = first or str(error)
            if head is preamble:
                salvage.repairs.append("preamble dropped")
    salvage.by_section = True
    tree: dict = {"blocks": [], "meta": {}}
    for chunk in SECTION.split(body):
        if not chunk.strip():
            continue
        try:
            part = _with_repairs(f"{preamble}\n\\begin{{document}}\n{chunk}\n\\end{{document}}\n", deadline, salvage, 2)
        except ReaderError:
            salvage.sections_dropped += 1
            continue
        tree["blocks"].extend(part.get("blocks", []))
        tree["meta"] = tree["meta"] or part.get("meta", {})
    if not tree["blocks"]:
        raise ReaderError(first)
    return tree, salvage
