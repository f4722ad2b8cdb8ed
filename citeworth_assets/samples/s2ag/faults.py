"""The faults of the real S2AG files, planted in a small, known set of papers.

Every record repeats each annotation's span list two or three times (:func:`annotation_values`): the real files do
so throughout. The other faults are each given to one paper per shard (:class:`FaultPicker`), the same paper in
``s2orc`` and ``s2orc_v2`` (and in ``papers`` for the title), and listed by corpus id in the summary, so a test
knows which papers it may compare with their 2020 form and which must show a fault:

* ``null_annotation``: the paper's section headers are ``null`` although its paragraphs have sections;
* ``unparsable_annotation``: its citation spans are a JSON string cut in the middle;
* ``span_past_text_end``: an extra paragraph span runs 25 characters past the end of the text;
* ``overlapping_spans``: an extra paragraph span covers the second half of one paragraph and the first of the next;
* ``bibref_without_entry``: one citation span names a bibliography entry the paper does not have;
* ``title_with_newline``: the title holds a line break (``papers``, the ``s2orc`` title span, ``s2orc_v2`` title);
* ``lone_surrogate``: a character of the first paragraph is the escaped lone surrogate ``\\ud835``;
* ``bad_byte``: a character of the first paragraph is the byte ``0xff``, which is not UTF-8.
"""

from __future__ import annotations

import json

import orjson

FAULTS = (
    "null_annotation",
    "unparsable_annotation",
    "span_past_text_end",
    "overlapping_spans",
    "bibref_without_entry",
    "title_with_newline",
    "lone_surrogate",
    "bad_byte",
)
# Faults that change a paper's paragraphs, sections or citation spans as read: such papers are left out of the
# 2020-parity comparison (``title_with_newline`` does not touch the body).
BODY_FAULTS = frozenset(FAULTS) - {"title_with_newline"}
LONE_SURROGATE = "\ud835"  # the high half of a mathematical letter, as PDF extraction leaves it
BAD_BYTE_MARK = "\ue000"  # private-use character, never generated; its UTF-8 is replaced by BAD_BYTE in the line
BAD_BYTE = b"\xff"
PAST_END = 25


class FaultPicker:
    """Gives the faults, in order, to the first eligible papers of a shard after a seeded number are passed by."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.start_shard(0)

    def start_shard(self, shard: int) -> None:
        self.skip, self.next = (self.seed + shard) % 3, 0

    def pick(self, meta: dict, parse: dict | None) -> str | None:
        if self.next >= len(FAULTS) or not eligible(meta, parse):
            return None
        if self.skip:
            self.skip -= 1
            return None
        fault = FAULTS[self.next]
        self.next += 1
        return fault


def eligible(meta: dict, parse: dict | None) -> bool:
    """A paper every fault can be shown on: all parts parsed, two paragraphs, a linked citation, a two-word title."""
    if parse is None or not all(meta.get(flag) for flag in PARSED_FLAGS):
        return False
    body = parse["body_text"]
    if len(body) < 2 or " " not in (meta["title"] or "") or not any(p["section"] for p in body):
        return False
    return any(span["ref_id"] for paragraph in body for span in paragraph["cite_spans"])


PARSED_FLAGS = (
    "has_pdf_parsed_abstract",
    "has_pdf_parsed_body_text",
    "has_pdf_parsed_bib_entries",
    "has_pdf_parsed_ref_entries",
)


def title(text: str, fault: str | None) -> str:
    if fault != "title_with_newline":
        return text
    words = text.split(" ")
    half = max(1, len(words) // 2)
    return " ".join(words[:half]) + "\n" + " ".join(words[half:])


def body_text(parse: dict, fault: str | None) -> dict:
    """The parse with one character of its first paragraph replaced, for the two encoding faults."""
    if fault not in ("lone_surrogate", "bad_byte"):
        return parse
    first = parse["body_text"][0]
    at = next((i for i, char in enumerate(first["text"]) if char.isalpha() and i > 3), 0)
    mark = LONE_SURROGATE if fault == "lone_surrogate" else BAD_BYTE_MARK
    text = first["text"][:at] + mark + first["text"][at + 1 :]
    return {**parse, "body_text": [{**first, "text": text}, *parse["body_text"][1:]]}


def spans(kinds: dict[str, list[dict]], text_length: int, fault: str | None, names: dict[str, str | None]) -> None:
    """Plant the span faults in ``kinds`` (the format's names are looked up in ``names``)."""
    paragraph, bibref = names["paragraph"], names["bib_ref"]
    if fault == "span_past_text_end":
        kinds[paragraph].append({"end": text_length + PAST_END, "start": max(0, text_length - 10)})
    elif fault == "overlapping_spans":
        first, second = kinds[paragraph][0], kinds[paragraph][1]
        middle = {"end": (second["start"] + second["end"]) // 2, "start": (first["start"] + first["end"]) // 2}
        kinds[paragraph].insert(1, middle)
    elif fault == "bibref_without_entry":
        span = next(span for span in kinds[bibref] if "attributes" in span)
        span["attributes"] = {"ref_id": "b999"}


def annotation_values(
    kinds: dict[str, list[dict]], keys: tuple[str, ...], repeats: int, fault: str | None, names: dict
) -> dict[str, str | None]:
    """Each key's spans as the JSON string the real files hold, the list repeated ``repeats`` times; ``null`` where
    a kind has no span. The two value faults are applied here."""
    values = {}
    for key in keys:
        found = kinds.get(key)
        if found:
            once = orjson.dumps(found)[1:-1].decode()
            values[key] = "[" + ",".join([once] * repeats) + "]"
        else:
            values[key] = None
    if fault == "null_annotation":
        values[names["section_header"]] = None
    elif fault == "unparsable_annotation":
        value = values[names["bib_ref"]]
        values[names["bib_ref"]] = value[: len(value) // 2]
    return values


def encode(record: dict) -> bytes:
    """A record as a compact JSON line (the real files' form): a lone surrogate becomes its ``\\uXXXX`` escape,
    the bad-byte mark the byte 0xff."""
    try:
        data = orjson.dumps(record)
    except TypeError:  # orjson refuses lone surrogates; the standard encoder writes them, escaped below
        data = json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "backslashreplace")
    return data.replace(BAD_BYTE_MARK.encode(), BAD_BYTE) if BAD_BYTE_MARK.encode() in data else data
