"""What the tree promises of its own structure, checked by reading the source: papers named instead of development
paths, ``citeworth_models`` standing alone, and no import cycle between the library's domains."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIB = ROOT / "citeworth_assets" / "lib"
DEVELOPMENT_PATH = re.compile(r"\bseeds" + "/")  # built so that this file does not match itself
USER_FACING = ["citeworth_assets", "citeworth_models", "dbt_like_sql", "docs", "benchmarks", "deploy"]
TOP_FILES = ["README.md", "CONTRIBUTING.md", "Makefile", "pyproject.toml", "workspace.yaml"]
SUFFIXES = {".py", ".sql", ".md", ".html", ".yaml", ".yml", ".toml", ".txt"}


def _text_files() -> list[Path]:
    found = [ROOT / name for name in TOP_FILES if (ROOT / name).is_file()]
    for folder in USER_FACING:
        found += [p for p in (ROOT / folder).rglob("*") if p.is_file() and p.suffix in SUFFIXES]
    return found


def test_no_development_path_in_code_sql_or_documents():
    """Descriptions, --help, docs and docstrings name the paper and section ("CiteWorth §3.3"), never the path a
    developer's checkout keeps the paper under."""
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in _text_files()
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if DEVELOPMENT_PATH.search(line)
    ]
    assert not offenders, f"name the paper and section instead: {offenders}"


def _imports(path: Path) -> set[str]:
    """Every module a file imports (at module level or inside functions), absolute names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_citeworth_models_imports_nothing_from_citeworth_assets():
    offenders = {
        str(path.relative_to(ROOT)): sorted(n for n in _imports(path) if n.split(".")[0] == "citeworth_assets")
        for path in (ROOT / "citeworth_models").rglob("*.py")
    }
    assert not {path: names for path, names in offenders.items() if names}


def _domain_graph() -> dict[str, set[str]]:
    """lib domain -> the other lib domains its modules import."""
    domains = sorted(p.name for p in LIB.iterdir() if p.is_dir() and (p / "__init__.py").is_file())
    graph: dict[str, set[str]] = {domain: set() for domain in domains}
    for domain in domains:
        for path in (LIB / domain).rglob("*.py"):
            for name in _imports(path):
                parts = name.split(".")
                if parts[:2] == ["citeworth_assets", "lib"] and len(parts) > 2 and parts[2] in graph:
                    if parts[2] != domain:
                        graph[domain].add(parts[2])
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> list[str] | None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*trail[trail.index(nxt) :], nxt] if nxt in trail else [node, nxt]
            if nxt not in state and (found := visit(nxt, [*trail, nxt])):
                return found
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start, [start])):
            return found
    return None


def test_no_import_cycle_between_lib_domains():
    graph = _domain_graph()
    assert graph["arxiv"] and graph["citrec"] is not None  # the scan sees the domains
    assert _cycle(graph) is None, f"import cycle between lib domains: {' -> '.join(_cycle(graph))}"


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
