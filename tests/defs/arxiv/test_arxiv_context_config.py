"""The arxiv_contexts run configuration: the published presets and the sentence-splitter choice."""

from citeworth_assets.defs.arxiv.assets import ContextConfig
from citeworth_assets.lib.arxiv.context_windows import PRESETS, ContextWindow


def test_defaults_are_the_scripts_window_with_the_published_punkt():
    assert ContextConfig().settings() == ContextWindow("sentences", 1, 1, "unarxive_published")


def test_a_preset_replaces_the_window_and_the_splitter():
    config = ContextConfig(preset="unarxive_published", before=3, tokenizer="untrained")
    assert config.settings() == PRESETS["unarxive_published"] == ContextWindow("sentences", 0, 0, "unarxive_published")
    assert ContextConfig(tokenizer="untrained").settings().tokenizer == "untrained"


def test_an_unknown_preset_is_an_error_naming_the_presets():
    import dagster as dg
    import pytest

    with pytest.raises(dg.Failure, match="unarxive_published, unarxive_script"):
        ContextConfig(preset="published").settings()
