"""One LaTeX file per submission (Saier 2019 §4.2.3, the latexpand step): the main file found, comments
removed, ``\\input``/``\\include``/``\\subfile``/``\\import`` expanded in place.

The main file is the ``.tex`` file with ``\\documentclass`` (or LaTeX 2.09's ``\\documentstyle``) and
``\\begin{document}`` that no other file includes; ties go to the conventional names and then to the
longest file. Inclusion follows paths inside the submission only, with a depth limit and cycle guard.
"""

from __future__ import annotations

import posixpath
import re

TEX_SUFFIXES = (".tex", ".ltx", ".latex", "")
CONVENTIONAL = ("main", "ms", "paper", "article", "manuscript")
MAX_DEPTH = 12

COMMENT = re.compile(r"(?<!\\)((?:\\\\)*)%[^\n]*(\n[ \t]*)?")
COMMENT_ENV = re.compile(r"\\begin\{comment\}.*?\\end\{comment\}", re.DOTALL)
IFFALSE = re.compile(r"\\iffalse\b.*?\\fi\b", re.DOTALL)
DOCUMENTCLASS = re.compile(r"\\document(?:class|style)\s*(?:\[[^\]]*\])?\s*\{")
BEGIN_DOCUMENT = re.compile(r"\\begin\s*\{document\}")
END_DOCUMENT = re.compile(r"\\end\s*\{document\}")
INCLUDE = re.compile(
    r"\\(?P<two>(?:sub)?import|(?:sub)?inputfrom|(?:sub)?includefrom)\*?\s*\{(?P<dir>[^{}]*)\}\s*\{(?P<name2>[^{}]*)\}"
    r"|\\(?P<one>input|include|subfile|subfileinclude)\s*\{(?P<name>[^{}]*)\}"
    r"|\\(?P<bare_cmd>input)[ \t]+(?P<bare>[^\s{}\\]+)"
)


def decode(data: bytes) -> str:
    """TeX source text: UTF-8 when valid, else Latin-1 (older submissions), never an error."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def strip_comments(text: str) -> str:
    """Text without ``%`` comments (a comment eats its newline and the next line's indentation, as in TeX),
    ``comment`` environments and ``\\iffalse`` blocks."""

    def repl(match: re.Match) -> str:
        return match.group(1) or ""

    text = COMMENT.sub(repl, text.replace("\r\n", "\n").replace("\r", "\n"))
    return IFFALSE.sub("", COMMENT_ENV.sub("", text))


def _lookup(name: str, folder: str, files: dict[str, str]) -> str | None:
    name = name.strip().strip('"')
    for base in (folder, ""):
        path = posixpath.normpath(posixpath.join(base, name)) if name else ""
        for suffix in (".tex", ""):
            if path + suffix in files:
                return path + suffix
    return None


def _included_names(text: str) -> list[str]:
    names = []
    for match in INCLUDE.finditer(text):
        if match.group("two"):
            names.append(posixpath.join(match.group("dir"), match.group("name2")))
        else:
            names.append(match.group("name") or match.group("bare") or "")
    return names


README_TOPLEVEL = re.compile(r"^\s*(\S+)\s+toplevelfile\s*$", re.MULTILINE)
README_JSON_TOPLEVEL = re.compile(r'"filename"\s*:\s*"([^"]+)"\s*,\s*"usage"\s*:\s*"toplevel"')


def readme_main_file(files: dict[str, str]) -> str | None:
    """The top-level file an arXiv ``00README.XXX`` (``name toplevelfile``) or ``00README.json`` names."""
    for path, pattern in (("00README.XXX", README_TOPLEVEL), ("00README.json", README_JSON_TOPLEVEL)):
        match = pattern.search(files.get(path, ""))
        if match and match.group(1) in files:
            return match.group(1)
    return None


def find_main_file(files: dict[str, str]) -> str | None:
    """The main ``.tex`` file of a submission (comment-free texts by path), or None. arXiv's ``00README`` wins."""
    named = readme_main_file(files)
    if named and BEGIN_DOCUMENT.search(files[named]):
        return named
    tex = {p: t for p, t in files.items() if p.lower().endswith((".tex", ".ltx", ".latex")) or "." not in p}
    included = {
        found
        for path, text in tex.items()
        for name in _included_names(text)
        if (found := _lookup(name, posixpath.dirname(path), tex)) and found != path
    }
    candidates = [
        p for p, t in tex.items() if DOCUMENTCLASS.search(t) and BEGIN_DOCUMENT.search(t) and "{subfiles}" not in t
    ]
    if not candidates:
        candidates = [p for p, t in tex.items() if BEGIN_DOCUMENT.search(t)]
    top = [p for p in candidates if p not in included] or candidates
    if not top:
        return None

    def rank(path: str) -> tuple:
        stem = posixpath.splitext(posixpath.basename(path))[0].lower()
        return (stem not in CONVENTIONAL, path.count("/"), -len(tex[path]), path)

    return sorted(top, key=rank)[0]


def _subfile_body(text: str) -> str:
    """A ``subfiles`` document contributes only its body."""
    begin, end = BEGIN_DOCUMENT.search(text), END_DOCUMENT.search(text)
    if DOCUMENTCLASS.search(text) and begin:
        return text[begin.end() : end.start() if end and end.start() > begin.end() else len(text)]
    return text


def flatten(main: str, files: dict[str, str], missing: list[str] | None = None, cut: list[str] | None = None) -> str:
    """The main file with every inclusion expanded recursively (comment-free texts by path).
    Names of included files not in the submission are appended to ``missing``; inclusions left unexpanded because
    they are :data:`MAX_DEPTH` files deep or include a file that includes them, to ``cut`` (a note each)."""

    def expand(path: str, depth: int, stack: tuple[str, ...]) -> str:
        folder = posixpath.dirname(path)

        def repl(match: re.Match) -> str:
            cmd = match.group("two") or match.group("one") or match.group("bare_cmd")
            if match.group("two"):
                base = match.group("dir")
                base = posixpath.join(folder, base) if cmd.startswith("sub") else base
                name, here = posixpath.join(base, match.group("name2")), ""
            else:
                name, here = match.group("name") or match.group("bare") or "", folder
            found = _lookup(name, here, files)
            if found is None or found in stack or depth >= MAX_DEPTH:
                if found is None and missing is not None:
                    missing.append(name)
                elif found is not None and cut is not None:
                    why = "includes a file that includes it" if found in stack else f"{MAX_DEPTH} inclusions deep"
                    cut.append(f"{found} in {path} ({why})")
                return " "
            body = expand(found, depth + 1, (*stack, found))
            if cmd in ("subfile", "subfileinclude"):
                body = _subfile_body(body)
            return f"\n{body}\n" if cmd != "input" else body

        return INCLUDE.sub(repl, files[path])

    return expand(main, 0, (main,))
