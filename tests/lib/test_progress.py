"""Quiet libraries unless asked, and progress as one line per step when not on a terminal."""

import io
import logging

from click.testing import CliRunner

from citeworth_assets.lib.progress import Steps, epoch_reporter, quiet_libraries, track


def test_library_logs_are_warning_unless_verbose(monkeypatch):
    monkeypatch.delenv("TRANSFORMERS_VERBOSITY", raising=False)
    try:
        quiet_libraries()
        assert logging.getLogger("mlflow").level == logging.WARNING
        assert logging.getLogger("transformers").level >= logging.WARNING
        import os

        assert os.environ["TRANSFORMERS_VERBOSITY"] == "error" and os.environ["HF_HUB_DISABLE_PROGRESS_BARS"] == "1"
        quiet_libraries(verbose=True)
        assert logging.getLogger("urllib3").level == logging.INFO and os.environ["TRANSFORMERS_VERBOSITY"] == "info"
    finally:
        quiet_libraries()


def test_user_setting_wins_when_quiet(monkeypatch):
    monkeypatch.setenv("TRANSFORMERS_VERBOSITY", "debug")
    quiet_libraries()
    import os

    assert os.environ["TRANSFORMERS_VERBOSITY"] == "debug"


def test_transformers_load_report_is_silenced(tmp_path, capfd):
    """The weight-loading report and bars that filled the demo's output (a checkpoint loaded into another head)."""
    quiet_libraries()
    from transformers import BertConfig, BertForMaskedLM, BertModel

    BertForMaskedLM(
        BertConfig(hidden_size=8, num_hidden_layers=1, num_attention_heads=1, intermediate_size=8, vocab_size=30)
    ).save_pretrained(tmp_path)
    capfd.readouterr()
    BertModel.from_pretrained(tmp_path)
    out, err = capfd.readouterr()
    assert "LOAD REPORT" not in out + err and "UNEXPECTED" not in out + err and "Loading weights" not in out + err


def test_steps_print_one_line_each_off_a_terminal():
    stream = io.StringIO()
    with Steps("shards", 2, stream=stream) as steps:
        steps.advance("s_0: 10 papers")
        steps.advance("s_1: 12 papers")
    assert stream.getvalue().splitlines() == ["shards [1/2] s_0: 10 papers", "shards [2/2] s_1: 12 papers"]
    assert "\r" not in stream.getvalue()


def test_track_and_epoch_reporter(capsys):
    assert list(track(["a", "b"], "fields")) == ["a", "b"]
    seen = []
    report = epoch_reporter("bert", 2, lambda epoch, f1: seen.append((epoch, f1)))
    report(0, 0.5)
    report(1, 0.75)
    out = capsys.readouterr().out
    assert "fields [2/2] b" in out and "bert epochs [2/2] dev F1 0.750" in out and seen == [(0, 0.5), (1, 0.75)]


def test_build_verbose_turns_logs_up_before_the_work(tmp_path):
    from citeworth_assets.cli import main
    from citeworth_assets.cli.app import QUIET_RUN

    try:
        result = CliRunner().invoke(
            main, ["build", "--verbose", "--dumps", str(tmp_path / "none"), "--data", str(tmp_path / "d")]
        )
        assert result.exit_code != 0 and "does not exist" in result.output
        assert logging.getLogger("dagster").level == logging.INFO
        assert QUIET_RUN["loggers"]["console"]["config"]["log_level"] == "INFO"
        CliRunner().invoke(main, ["build", "--dumps", str(tmp_path / "none")])
        assert logging.getLogger("dagster").level == logging.WARNING
        assert QUIET_RUN["loggers"]["console"]["config"]["log_level"] == "WARNING"
    finally:
        quiet_libraries()
