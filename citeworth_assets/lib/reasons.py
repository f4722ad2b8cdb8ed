"""Why a filter drops something: every domain registers its reasons in a registry, each once, with a one-line meaning.

Every filter (:mod:`citeworth_assets.lib.filters`: the S2ORC candidate filter, CiteWorth's rules, CiteSum's and
ROUGE-SciQFS's criteria) drops an item for a reason's name only, and the domain's :class:`ReasonRegistry` says what
that name means. A criterion declaring, or a tally counting, a name that was never registered is an error where it
is given (:meth:`ReasonRegistry.require`), so the registries cannot fall behind the code.
:func:`citeworth_assets.lib.domains.drop_reason_table` merges every domain's registry; the warehouse publishes them as
``platform.drop_reasons`` with the count of each reason the filters' tallies hold.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from citeworth_assets.lib.lazy import lazy_module

pa = lazy_module("pyarrow")


@cache
def drop_reason_schema() -> pa.Schema:
    return pa.schema(
        [
            ("domain", pa.string()),
            ("reason", pa.string()),
            ("level", pa.string()),
            ("description", pa.string()),
        ]
    )


@dataclass(frozen=True)
class DropReason:
    domain: str  # the registry it belongs to: s2orc, citeworth, citesum, sciqfs
    name: str
    level: str  # what it judges: paper, paragraph, sentence, example, ...
    description: str


class ReasonRegistry(Mapping[str, DropReason]):
    """One domain's reasons, in registration order; a mapping of name -> :class:`DropReason`."""

    def __init__(self, domain: str, levels: Sequence[str]):
        self.domain, self.levels = domain, tuple(levels)
        self._reasons: dict[str, DropReason] = {}

    def add(self, name: str, level: str, description: str) -> str:
        """Register a reason; returns its name, so code can keep it as a constant."""
        if level not in self.levels:
            raise ValueError(f"{self.domain} reason {name}: level {level!r} is not one of {self.levels}")
        if name in self._reasons:
            raise ValueError(f"{self.domain} reason {name} is registered twice")
        if not description or "\n" in description:
            raise ValueError(f"{self.domain} reason {name}: the description must be one non-empty line")
        self._reasons[name] = DropReason(self.domain, name, level, description)
        return name

    def describe(self, level: str, descriptions: Mapping[str, str]) -> None:
        """Register several reasons of one level: name -> one-line description."""
        for name, description in descriptions.items():
            self.add(name, level, description)

    def require(self, name: str) -> str:
        """``name`` if registered, else a ValueError naming the registry."""
        if name not in self._reasons:
            raise ValueError(f"{name!r} is not a registered {self.domain} drop reason ({', '.join(self._reasons)})")
        return name

    def __getitem__(self, name: str) -> DropReason:
        return self._reasons[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._reasons)

    def __len__(self) -> int:
        return len(self._reasons)

    def rows(self) -> list[dict]:
        """Rows of :data:`drop_reason_schema()`, by level (in the registry's order of levels), then registration."""
        ordered = sorted(self._reasons.values(), key=lambda reason: self.levels.index(reason.level))
        return [{"domain": r.domain, "reason": r.name, "level": r.level, "description": r.description} for r in ordered]
