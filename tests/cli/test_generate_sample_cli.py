"""`citeworth generate-sample` says what it wrote in a few lines; the full summary goes to a JSON file
(or --verbose)."""

import json

from click.testing import CliRunner

from citeworth_assets.cli import main


def test_generate_sample_prints_a_short_summary_and_writes_the_full_one(tmp_path):
    result = CliRunner().invoke(main, ["generate-sample", "--out", str(tmp_path), "--papers", "40", "--shards", "2"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) <= 6 and not any(line.startswith("summary: {") for line in lines)
    full = json.loads((tmp_path / "sample_summary.json").read_text())
    assert full["papers"] == 40 and full["shards"] == 2
    reasons = full["rejection_reasons"]
    accepted, rejected = reasons["accepted"], sum(v for k, v in reasons.items() if k != "accepted")
    assert accepted + rejected == 40
    assert f"candidates: {accepted} pass the candidate filter, {rejected} rejected" in result.output
    kinds = full["paragraph_kinds"]
    assert (
        f"paragraphs: {kinds['clean']} clean, {sum(kinds.values()) - kinds['clean']} with a realistic artefact"
        in result.output
    )
    assert "hanging_citation" in result.output and str(tmp_path / "sample_summary.json") in result.output


def test_generate_sample_verbose_prints_the_full_summary(tmp_path):
    result = CliRunner().invoke(
        main, ["generate-sample", "--out", str(tmp_path), "--papers", "10", "--shards", "1", "--verbose"]
    )
    assert result.exit_code == 0, result.output
    printed = json.loads(result.output[result.output.index("{") :])
    assert printed == json.loads((tmp_path / "sample_summary.json").read_text())
    assert printed["files"]  # the per-file detail only the full summary has
