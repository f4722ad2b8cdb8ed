import pickle
import sys

import pytest

from citeworth_assets.lib.lazy import lazy_module


def test_a_lazy_module_imports_at_the_first_attribute_read_and_pickles_as_its_name():
    name = "colorsys"  # a small stdlib module nothing here imports
    sys.modules.pop(name, None)
    module = lazy_module(name)
    assert name not in sys.modules
    assert module.rgb_to_hsv(1.0, 0.0, 0.0) == (0.0, 1.0, 1.0)
    assert name in sys.modules and module.rgb_to_hsv is sys.modules[name].rgb_to_hsv
    again = pickle.loads(pickle.dumps(module))
    assert "rgb_to_hsv" not in vars(again) and again.hls_to_rgb is sys.modules[name].hls_to_rgb


def test_a_missing_attribute_is_an_attribute_error_naming_it():
    with pytest.raises(AttributeError, match="no_such_function"):
        lazy_module("colorsys").no_such_function  # noqa: B018
