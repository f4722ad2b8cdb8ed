"""What an S2AG span is read as, by kind: typed structs for msgspec, so that decoding a span list also checks it.

Only the attributes the reader uses are fields (the rest of a span's JSON is skipped, never built). Loaded on first
use by :mod:`.span_columns` (the definitions do not need msgspec).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import msgspec


class Offsets(msgspec.Struct, gc=False):
    """A span of a kind whose attributes nobody reads (paragraphs, headers, what covers text)."""

    start: int
    end: int


class ReferenceAttributes(msgspec.Struct, frozen=True, gc=False):
    ref_id: str | int | None = None


class Reference(msgspec.Struct, gc=False):
    """A citation, figure or table reference: the entry it names."""

    start: int
    end: int
    attributes: ReferenceAttributes | None = None


class EntryAttributes(msgspec.Struct, frozen=True, gc=False):
    id: str | int | None = None
    matched_paper_id: int | str | None = None


class Entry(msgspec.Struct, gc=False):
    """A bibliography entry: its id and the paper it was matched to."""

    start: int
    end: int
    attributes: EntryAttributes | None = None


SHAPES = {"offsets": Offsets, "reference": Reference, "entry": Entry}
NOT_SPANS = (msgspec.MsgspecError, UnicodeEncodeError)  # not JSON, not spans of the shape, a lone surrogate
NO_ATTRIBUTES = {"reference": ReferenceAttributes(), "entry": EntryAttributes()}  # a span without attributes reads so


@cache
def decoder(shape: str) -> Callable:
    """Decodes a JSON span list into a list of ``shape``."""
    return msgspec.json.Decoder(list[SHAPES[shape]]).decode


def converted(value, shape: str) -> list | None:
    """A span list given as JSON values already (not a string) as a list of ``shape``; None where it is not one."""
    try:
        return msgspec.convert(value, list[SHAPES[shape]])
    except msgspec.MsgspecError:
        return None
