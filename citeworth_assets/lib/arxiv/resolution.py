"""Reference resolution (Saier 2019 §4.2.4): a reference string -> a work of the catalogue.

Title identification: through the catalogue by an arXiv id, else a DOI, found in the string (the work
found gives the title); otherwise the titles of the catalogue that occur in the string, as whole words
after normalisation, with the string's identifiers removed first (so ``hep-th/0303251`` cannot read as
the MAG's noise paper titled "hep-th"). This replaces the thesis' Neural ParsCit, which needs a model
server; it can only find titles that the catalogue holds, which is all matching can use anyway.

Matching: candidates are the works with the identified normalised title; titles are tried longest
first, so a title contained in a longer one never wins while the longer one matches (§4.3's errors 1
and 2); venue names and boilerplate ("phys rev b", "et al": :mod:`generic_titles`) are never searched for; a
candidate is accepted only when one of its authors' surnames occurs in the string as a whole
word (the published matcher accepted any name part as a substring, which let "He" match "hep th");
ties go to the higher citation count, then the smaller work id, so the result is deterministic.

Every decision is a row: ``resolved_by`` (arxiv_id / doi / title) or ``failure`` (empty_string,
no_title, author_mismatch), the title used and the number of candidates seen.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache

from citeworth_assets.lib.arxiv.generic_titles import is_generic_title
from citeworth_assets.lib.identifiers import (
    DOI,
    NEW_STYLE,
    OLD_STYLE,
    normalise_arxiv_id,
    normalise_doi,
    short_openalex_id,
)
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.mag.titles import mag_normalise_title, surname

pa = lazy_module("pyarrow")


@cache
def resolution_schema() -> pa.Schema:
    return pa.schema(
        [
            ("ref_id", pa.string()),
            ("citing_paper_id", pa.string()),
            ("work_id", pa.string()),
            ("mag_id", pa.string()),
            ("openalex_id", pa.string()),
            ("resolved_by", pa.string()),  # arxiv_id | doi | title | null
            ("failure", pa.string()),  # empty_string | no_title | author_mismatch | null
            ("title", pa.string()),  # the normalised title matched or tried
            ("candidates", pa.int32()),
        ]
    )


@dataclass(frozen=True)
class ResolutionSettings:
    min_title_words: int = 2  # shorter catalogue titles are too ambiguous to find inside a string
    min_surname_length: int = 2  # as published: one-letter name parts are ignored
    # longer catalogue titles are not looked for inside strings (each string gives every run of words up to this
    # length as a key to join with the catalogue; MAG titles rarely pass 30 words)
    max_title_words: int = 40
    # venue names and boilerplate ("phys rev b", "et al") are never looked for inside strings (generic_titles)
    skip_generic_titles: bool = True


@dataclass
class Catalogue:
    """In-memory indexes over work_schema() rows (for samples and partitions; a dump's goes through DuckDB)."""

    settings: ResolutionSettings = field(default_factory=ResolutionSettings)
    by_title: dict[str, list[dict]] = field(default_factory=dict)
    by_arxiv: dict[str, dict] = field(default_factory=dict)
    by_doi: dict[str, dict] = field(default_factory=dict)
    by_prefix: dict[tuple, set[tuple]] = field(default_factory=dict)
    # arXiv id -> title from arXiv's metadata (the MAG has no arXiv ids; the thesis looked titles up there)
    arxiv_titles: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_works(cls, works: Iterable[dict], settings: ResolutionSettings | None = None) -> Catalogue:
        catalogue = cls(settings or ResolutionSettings())
        for work in works:
            catalogue.add(work)
        return catalogue

    def add(self, work: dict) -> None:
        title = work.get("normalised_title") or ""
        words = tuple(title.split())
        if title:
            self.by_title.setdefault(title, []).append(work)
            if self._searchable(words):
                self.by_prefix.setdefault(words[: self.settings.min_title_words], set()).add(words)
        if work.get("arxiv_id"):
            self.by_arxiv.setdefault(normalise_arxiv_id(work["arxiv_id"]), work)
        if work.get("doi"):
            self.by_doi.setdefault(normalise_doi(work["doi"]), work)

    def _searchable(self, words: tuple) -> bool:
        if not self.settings.min_title_words <= len(words) <= self.settings.max_title_words:
            return False
        return not (self.settings.skip_generic_titles and is_generic_title(" ".join(words)))

    def add_arxiv_titles(self, titles: Iterable[tuple[str, str]]) -> None:
        for arxiv_id, title in titles:
            if arxiv_id and title:
                self.arxiv_titles[normalise_arxiv_id(arxiv_id)] = mag_normalise_title(title)

    def title_of(self, route: str, identifier: str) -> tuple[str | None, dict | None]:
        """The normalised title an identifier gives, and the work it names if the catalogue has it."""
        found = (self.by_arxiv if route == "arxiv_id" else self.by_doi).get(identifier)
        if found is not None and found.get("normalised_title"):
            return found["normalised_title"], found
        if route == "arxiv_id" and identifier in self.arxiv_titles:
            return self.arxiv_titles[identifier], None
        return None, None

    def titles_in(self, normalised: str) -> list[str]:
        """Catalogue titles occurring in a normalised string as whole words, longest first."""
        words = normalised.split()
        size = self.settings.min_title_words
        found = set()
        for start in range(len(words) - size + 1):
            for title in self.by_prefix.get(tuple(words[start : start + size]), ()):
                if tuple(words[start : start + len(title)]) == title:
                    found.add(" ".join(title))
        return sorted(found, key=lambda t: (-len(t.split()), -len(t), t))


def title_windows(raw: str, settings: ResolutionSettings) -> set[str]:
    """Every run of min..max title words of a reference string (identifiers removed): the titles it may hold."""
    words = mag_normalise_title(_without_identifiers(raw)).split()
    low, high = settings.min_title_words, settings.max_title_words
    windows = {" ".join(words[i:j]) for i in range(len(words)) for j in range(i + low, min(len(words), i + high) + 1)}
    return {w for w in windows if not is_generic_title(w)} if settings.skip_generic_titles else windows


def _without_identifiers(raw: str) -> str:
    for pattern in (DOI, OLD_STYLE, NEW_STYLE):
        raw = pattern.sub(" ", raw)
    return re.sub(r"arxiv\s*:?", " ", raw, flags=re.IGNORECASE)


def authors_in(work: dict, normalised_words: set[str], settings: ResolutionSettings) -> bool:
    """True when one of the work's author surnames is a whole word of the string."""
    for name in work.get("authors") or []:
        last = surname(name)
        if len(last) >= settings.min_surname_length and last in normalised_words:
            return True
    return False


def _best(candidates: list[dict], words: set[str], settings: ResolutionSettings) -> dict | None:
    accepted = [work for work in candidates if authors_in(work, words, settings)]
    if not accepted:
        return None
    return min(accepted, key=lambda w: (-(w.get("citation_count") or 0), str(w["work_id"])))


def _row(reference: dict, work: dict | None, resolved_by, failure, title, candidates) -> dict:
    return {
        "ref_id": reference.get("ref_id"),
        "citing_paper_id": reference.get("citing_paper_id"),
        "work_id": work["work_id"] if work else None,
        "mag_id": work.get("mag_id") if work else None,
        "openalex_id": work.get("openalex_id") if work else None,
        "resolved_by": resolved_by,
        "failure": failure,
        "title": title,
        "candidates": candidates,
    }


def resolve(reference: dict, catalogue: Catalogue) -> dict:
    """The resolution of one reference_schema() row (a resolution_schema() row)."""
    settings = catalogue.settings
    raw = reference.get("raw_string") or ""
    if not raw.strip():
        return _row(reference, None, None, "empty_string", None, 0)
    words = set(mag_normalise_title(raw).split())
    routes = [("arxiv_id", a) for a in reference.get("arxiv_ids") or []]
    routes += [("doi", d) for d in reference.get("dois") or []]
    for route, identifier in routes:
        title, found = catalogue.title_of(route, identifier)
        if title is None:
            continue
        candidates = catalogue.by_title.get(title) or ([found] if found else [])
        best = _best(candidates, words, settings)
        if best is not None:
            return _row(reference, best, route, None, title, len(candidates))
        return _row(reference, None, None, "author_mismatch", title, len(candidates))
    titles = catalogue.titles_in(mag_normalise_title(_without_identifiers(raw)))
    if not titles:
        return _row(reference, None, None, "no_title", None, 0)
    seen = 0
    for title in titles:
        candidates = catalogue.by_title[title]
        seen += len(candidates)
        best = _best(candidates, words, settings)
        if best is not None:
            return _row(reference, best, "title", None, title, seen)
    return _row(reference, None, None, "author_mismatch", titles[0], seen)


def resolve_all(references: Iterable[dict], catalogue: Catalogue) -> Iterator[dict]:
    for reference in references:
        yield resolve(reference, catalogue)


def resolution_report(resolutions: Iterable[dict]) -> dict:
    """Share resolved by route and failure reasons (as §4.4.1 reports them)."""
    routes, failures, total = Counter(), Counter(), 0
    for row in resolutions:
        total += 1
        if row["resolved_by"]:
            routes[row["resolved_by"]] += 1
        else:
            failures[row["failure"]] += 1
    resolved = sum(routes.values())
    share = lambda n, d: round(n / d, 4) if d else 0.0
    return {
        "references": total,
        "resolved": resolved,
        "resolved_share": share(resolved, total),
        "by_route": dict(sorted(routes.items())),
        "route_share_of_resolved": {k: share(v, resolved) for k, v in sorted(routes.items())},
        "failures": dict(sorted(failures.items())),
        "failure_share": {k: share(v, total) for k, v in sorted(failures.items())},
    }


def agreement(resolutions: Iterable[dict], references: Iterable[dict]) -> dict:
    """Our resolver against the links shipped in the input (refs.db cited_mag_id, unarXive 2022 ids).

    A reference is compared on the MAG id when it ships one, else on the OpenAlex id.
    """
    shipped = {}
    for ref in references:
        if ref.get("linked_mag_id"):
            shipped[ref["ref_id"]] = ("mag_id", str(ref["linked_mag_id"]))
        elif ref.get("linked_openalex_id"):
            shipped[ref["ref_id"]] = ("openalex_id", short_openalex_id(str(ref["linked_openalex_id"])))
        else:
            shipped[ref["ref_id"]] = None
    counts = Counter()
    for row in resolutions:
        link = shipped.get(row["ref_id"])
        ours = row["work_id"] is not None
        if link is None:
            counts["ours_only" if ours else "neither"] += 1
        elif not ours:
            counts["shipped_only"] += 1
        else:
            key, value = link
            counts["same" if short_openalex_id(str(row.get(key) or "")) == value else "different"] += 1
    both = counts["same"] + counts["different"]
    return {
        **{k: counts[k] for k in ("same", "different", "shipped_only", "ours_only", "neither")},
        "agreement": round(counts["same"] / both, 4) if both else None,
    }
