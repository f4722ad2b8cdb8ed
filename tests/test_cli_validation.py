"""Defects 9 and 10 of issue 10: bad settings fail before any work; messages, not tracebacks."""

import gzip
import json
import socket

import pytest
from click.testing import CliRunner

from citeworth_assets.cli import _model_params, main
from citeworth_assets.lib import lake
from citeworth_assets.lib.manual_eval.evaluation import sample_schema
from citeworth_assets.samples.s2orc import generate_sample_dump


@pytest.mark.parametrize(
    "params,message",
    [
        ("{bad", "not JSON"),
        ("[1]", "expected a JSON object"),
        ('{"epoch": 1}', "unknown keys ['epoch']"),
        ('{"epochs": "1"}', "'epochs' is '1'; expected int"),
        ('{"weighted": 1}', "expected bool"),
    ],
)
def test_bad_model_params_fail_before_anything_is_built(tmp_path, monkeypatch, params, message):
    generate_sample_dump(tmp_path / "dumps", papers=20, shards=1, seed=1)
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "home"))
    args = [
        "build",
        "--dumps",
        str(tmp_path / "dumps"),
        "--data",
        str(tmp_path / "data"),
        "--models",
        "--model-params",
        params,
    ]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and message in result.output and "--model-params" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert not (tmp_path / "data" / "lake").exists()


def test_good_model_params_are_accepted():
    assert _model_params('{"epochs": 1, "lr": 1, "device": "cpu", "mlm_probability": 0.2}')["epochs"] == 1


def test_an_unknown_model_set_fails_before_anything_is_built(tmp_path):
    args = ["build", "--dumps", str(tmp_path), "--data", str(tmp_path / "data"), "--models", "--model-set", "quick"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "--model-set" in result.output and "'fast'" in result.output
    assert not (tmp_path / "data").exists()


def test_the_fast_model_set_is_the_models_without_an_encoder_and_has_its_job():
    from citeworth_assets.definitions import defs
    from citeworth_models.registry import FAST_MODELS

    assert FAST_MODELS == ("logistic_regression", "transformer")
    selected = defs.resolve_job_def("models_fast_job").asset_layer.selected_asset_keys
    assert {key.to_user_string() for key in selected} == {
        "model_logistic_regression",
        "model_transformer",
        "citeworth_model_comparison",  # (the comparison and the matrix of the models trained, then their views)
        "citeworth_domain_matrix",
        "citeworth/model_comparison",
        "citeworth/domain_matrix",
    }


NESTED = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    "content,message",
    [
        (bytes(range(256)) * 20, "tldr.jsonl:1: not"),
        ('{"source": ["Ça va."], "target": ["é"]}\n'.encode("latin-1"), "not UTF-8"),
        (gzip.compress(b'{"source": 1}\n'), "must be a list of strings"),
        (gzip.compress(b'{"source": ["a b c."]')[:-6], "unreadable"),
        (NESTED.encode(), "nested too deeply"),
        (b"", "no records read"),
        (b"\n\n", "no records read"),
    ],
    ids=["binary", "latin-1", "wrong-type", "truncated-gzip", "nested", "empty", "blank-lines"],
)
def test_citesum_baselines_gives_a_message_for_bad_input(tmp_path, content, message):
    path = tmp_path / "tldr.jsonl"
    path.write_bytes(content)
    result = CliRunner().invoke(main, ["citesum-baselines", "--input", str(path)])
    assert result.exit_code == 1 and message in result.output, result.output
    assert isinstance(result.exception, SystemExit)


def test_citesum_baselines_reads_a_gzipped_file(tmp_path):
    path = tmp_path / "tldr.jsonl.gz"
    path.write_bytes(gzip.compress(json.dumps({"source": ["A cat sat."], "target": ["A cat sat."]}).encode() + b"\n"))
    result = CliRunner().invoke(main, ["citesum-baselines", "--input", str(path)])
    assert result.exit_code == 0 and "EXT-ORACLE" in result.output.upper().replace("_", "-"), result.output


def test_clean_paper_reports_deep_nesting_and_empty_input(tmp_path):
    (tmp_path / "deep.json").write_text(NESTED)
    result = CliRunner().invoke(main, ["clean-paper", str(tmp_path / "deep.json")])
    assert result.exit_code == 1 and "nested too deeply" in result.output and isinstance(result.exception, SystemExit)
    (tmp_path / "empty").mkdir()
    result = CliRunner().invoke(main, ["clean-paper", str(tmp_path / "empty")])
    assert result.exit_code == 1 and "no paper read" in result.output


def test_annotate_on_a_busy_or_impossible_port_says_so(tmp_path):
    data = tmp_path / "data"
    lake.write_partition(data / "lake", "citeworth_manual_eval_sample", sample_schema(), [], "citeworth_2021", "rules")
    result = CliRunner().invoke(main, ["annotate", "--data", str(data), "--port", "70000"])
    assert result.exit_code == 2 and "70000" in result.output
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(main, ["annotate", "--data", str(data), "--port", str(port)])
    assert result.exit_code == 1 and f"cannot serve on 127.0.0.1:{port}" in result.output, result.output
