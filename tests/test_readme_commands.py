"""Every command the README tells a user to type exists: each `make` target and variable, each `citeworth`
subcommand and option. A README that drifts from the code fails here rather than on a stranger's machine."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
MAKEFILE = ROOT / "Makefile"


def _snippets(text: str) -> list[str]:
    """Lines of the fenced code blocks and the inline code spans (the commands table)."""
    fenced = re.findall(r"```[a-z]*\n(.*?)```", text, flags=re.S)
    without_fences = re.sub(r"```.*?```", "", text, flags=re.S)
    inline = re.findall(r"`([^`\n]+)`", without_fences)
    return [line for block in fenced for line in block.splitlines()] + inline


def _commands(program: str) -> list[list[str]]:
    """Each invocation of `program` in the README, as its words up to a comment or the next shell operator."""
    found = []
    for line in _snippets(README.read_text(encoding="utf-8")):
        line = line.split(" #", 1)[0]
        for match in re.finditer(rf"(?:^|[\s;&|(:])(?:\.venv/bin/)?{program}\s+([^;&|`]*)", line):
            found.append(match.group(1).split())
    return found


def _make_targets() -> set[str]:
    return set(re.findall(r"^([A-Za-z][\w.-]*):(?!=)", MAKEFILE.read_text(), flags=re.M))


def _make_variables() -> set[str]:
    text = MAKEFILE.read_text()
    return set(re.findall(r"^(?:[\w.-]+:\s*)?([A-Z_]+)\s*[?:]?=", text, flags=re.M)) | set(
        re.findall(r"\$\(([A-Z_]+)\)", text)
    )


def test_readme_names_make_targets_and_variables_that_exist():
    targets, variables = _make_targets(), _make_variables()
    invocations = _commands("make")
    assert len(invocations) >= 6, invocations  # install, demo, ui, mlflow, annotate, install-pretrained
    for words in invocations:
        for word in words:
            if "=" in word:
                assert word.split("=", 1)[0] in variables, f"make variable {word} (README) is not in the Makefile"
            elif re.fullmatch(r"[a-z][\w-]*", word):
                assert word in targets, f"make target {word!r} (README) is not in the Makefile"


def test_readme_names_citeworth_commands_and_options_that_exist():
    from citeworth_assets.cli import main

    invocations = [words for words in _commands("citeworth") if words and not words[0].isupper()]
    assert len(invocations) >= 6, invocations
    for words in invocations:
        if words[0].startswith("-"):
            assert set(words) <= {"--help"}, words
            continue
        command = main.commands.get(words[0])
        assert command is not None, f"citeworth {words[0]} (README) is not a command; have {sorted(main.commands)}"
        options = {"--help"} | {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)}
        named = {option for word in words[1:] for option in re.findall(r"--[a-z][\w-]*", word)}
        assert named <= options, f"citeworth {words[0]}: README names {sorted(named - options)}, not options of it"


def test_readme_stands_alone():
    text = README.read_text(encoding="utf-8")
    assert "../shared" not in text and "seeds/" not in text  # a user's clone has neither
    for link in re.findall(r"\]\(((?!https?://|#)[^)]+)\)", text):
        if link.startswith("docs/") and link != "docs/README.md":
            continue  # domain documents may arrive with their domain's merge
        assert (ROOT / link).exists(), f"README links to {link}, which does not exist"


@pytest.mark.parametrize("snippet", ["make ui PORT=3001", "make annotate ANNOTATOR=alice"])
def test_ports_and_annotator_reach_the_commands(snippet):
    """`make -n` shows that the variables get through to the command that serves."""
    import subprocess

    words = snippet.split()[1:]
    shown = subprocess.run(
        ["make", "-n", "-W", "pyproject.toml", *words], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    served = next(line for line in shown.splitlines() if "citeworth " in line)
    for word in words[1:]:
        name, value = word.split("=")
        assert value in served, (snippet, served)
