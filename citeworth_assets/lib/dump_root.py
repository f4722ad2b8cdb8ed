"""Finding one input under the dump root by its partition key, with an error that says where it was expected."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TypeVar

Found = TypeVar("Found")


def find_by_key(found: Iterable[Found], key: str, what: str, dumps: Path, expected: str) -> Found:
    """The item of ``found`` whose ``key`` is ``key``; else a FileNotFoundError naming the dump root, the layout
    ``expected`` there and the setting to check."""
    for item in found:
        if item.key == key:
            return item
    raise FileNotFoundError(
        f"{what} {key!r} not found under dump root {dumps} (expected {expected}; check CITEWORTH_DUMPS / --dumps)"
    )
