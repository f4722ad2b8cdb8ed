"""Defects 9 and 10 of issue 10: bad settings fail before any work; messages, not tracebacks."""

import pytest
from click.testing import CliRunner

from citeworth_assets.cli import _model_params, main
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
    args = ["build", "--dumps", str(tmp_path / "dumps"), "--data", str(tmp_path / "data"), "--models", "--model-params", params]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and message in result.output and "--model-params" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert not (tmp_path / "data" / "lake").exists()


def test_good_model_params_are_accepted():
    assert _model_params('{"epochs": 1, "lr": 1, "device": "cpu", "mlm_probability": 0.2}')["epochs"] == 1
