"""Libraries a run needs but loading the definitions does not: pyarrow, NumPy, DuckDB and ISA-L, imported on first use.

Every process that loads the code location (the UI, the daemon, each run worker) imports the definitions, and most
never read a table. A module names such a library ``pa = lazy_module("pyarrow")`` and uses it as it would the module;
the import happens at the first attribute read. Nothing at module level may read one (a table schema is a cached
function, built on first use), which tests/defs/test_import_time.py checks."""

import importlib
from typing import Any


class LazyModule:
    """Stands for the module ``name`` until an attribute is read; each attribute read is kept on the instance, so a
    later read costs what a module attribute read does."""

    def __init__(self, name: str):
        self._name = name

    def __getattr__(self, attribute: str) -> Any:
        name = self.__dict__.get("_name")
        if name is None:  # not initialised (an instance being built by copy or pickle): nothing to stand for yet
            raise AttributeError(attribute)
        value = getattr(importlib.import_module(name), attribute)
        setattr(self, attribute, value)
        return value

    def __reduce__(self) -> tuple:
        """Pickled (with a function that names it, for a worker process) as the name, not the attributes read."""
        return (LazyModule, (self._name,))

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}>"


def lazy_module(name: str) -> Any:
    """The module ``name``, imported when first used (typed ``Any``: it stands for whatever module it names)."""
    return LazyModule(name)
