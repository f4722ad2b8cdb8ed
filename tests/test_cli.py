import json

from click.testing import CliRunner

from citeworth_assets.cli import main


def test_clean_paper_prints_release_records_and_explains(shared_data, tmp_path):
    bad = tmp_path / "broken.json"
    bad.write_text("{not json")
    result = CliRunner().invoke(main, ["clean-paper", str(shared_data / "cord19" / "pdf_json"), str(bad), "--explain"])
    assert result.exit_code == 1  # one unreadable file, reported; the others are cleaned
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["paper_id"], r["section_idx"]) for r in records] == [
        ("06ced00a5fc04215949aa72528f2eeaae1d58927", 0),
        ("6b0567729c2143a66d737eb0a2f63f2dce2e5a7d", 0),
    ]
    assert records[0]["samples"][0]["label"] == "check-worthy"
    assert "drop 0a3d78fb4b228cdc20e48fcc96f9da3f92ce1207" in result.stderr
    assert f"problem {bad}" in result.stderr


def test_clean_paper_with_the_improved_rules_keeps_more(shared_data):
    paths = [str(shared_data / "cord19" / "pdf_json"), str(shared_data / "s2orc-20200705" / "pdf_parses")]
    faithful = CliRunner().invoke(main, ["clean-paper", *paths])
    improved = CliRunner().invoke(main, ["clean-paper", *paths, "--rules", "citeworth_improved"])
    assert faithful.exit_code == improved.exit_code == 0
    assert len(improved.stdout.splitlines()) >= len(faithful.stdout.splitlines())


def test_unknown_rule_set_fails_fast(tmp_path):
    (tmp_path / "p.json").write_text(json.dumps({"paper_id": "1", "body_text": []}))
    result = CliRunner().invoke(main, ["clean-paper", str(tmp_path / "p.json"), "--rules", "nope"])
    assert result.exit_code == 2 and "CITEWORTH_RULES" in result.output


def test_citesum_baselines_scores_a_tldr_file(tmp_path):
    records = [
        {
            "source": ["We study cats.", "In this paper we propose a new cat model.", "It works well."],
            "target": ["We propose a new cat model."],
        },
        {
            "source": ["Dogs are loyal.", "We introduce dog data."],
            "target": ["Dog data are introduced.", "Dogs are loyal."],
        },
    ]
    path = tmp_path / "tldr.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    result = CliRunner().invoke(main, ["citesum-baselines", "--input", str(path)])
    assert result.exit_code == 0, result.output
    assert "EXT-LEAD" in result.output and "EXT-HEURISTIC" in result.output and "EXT-ORACLE" in result.output
    path.write_text(json.dumps(records[0]) + "\n{broken\n")
    result = CliRunner().invoke(main, ["citesum-baselines", "--input", str(path)])
    assert result.exit_code == 1 and f"{path}:2" in result.output


def test_annotate_without_a_sample_says_what_to_run(tmp_path):
    result = CliRunner().invoke(main, ["annotate", "--data", str(tmp_path)])
    assert result.exit_code == 1 and "citeworth_manual_eval_sample" in result.output
