"""A deterministic, streaming generator of a synthetic S2ORC 20200705v1 dump (package facade).

Why it exists: the real release is hundreds of gigabytes behind a licence click-through, yet the
platform's readers, candidate filter and the CiteWorth / CiteSum dataset rules have to be exercised
end to end in tests, demos and benchmarks.  This package writes a small (or, for benchmarks, large)
release that has the real on-disk layout and record schemas, and whose text deliberately contains
the cases those rules must accept or reject.

Design rules, and why:

* Only the standard library, so the generator runs before (and without) the heavy dependencies.
* Streaming: papers are generated and written one at a time.  Anything a paper needs to know about
  another paper (its id, title, authors, year, abstract, whether it may be cited) is a cheap pure
  function of ``(seed, index)``, so memory does not grow with the number of papers.
* Determinism: every random choice comes from a ``random.Random`` seeded by a string built from
  ``(seed, index, purpose)`` or from an integer mix of them; never the global generator or
  ``hash()``.  Gzip members are written with ``mtime=0`` and an empty file name, so the same seed
  gives byte-identical files.
* Atomic files: each shard is written under a temporary name in its final folder and renamed into
  place when complete, pdf_parses before metadata, so a watcher never sees half a shard.

Modules: ``graph`` (outcomes, paper ids, citation graph), ``vocabulary`` (field words, names),
``identity`` (fields, titles, authors, abstracts), ``text`` (sentence material, paragraph
builder), ``paper`` (``_PaperWriter``: the pdf parse's paragraphs), ``metadata`` (the metadata record),
``bibliography`` (bib and ref entries), ``citing`` (citation spans), ``defects`` (paragraph-case writers),
``grobid`` (GROBID-style text), ``dump`` (files and ``generate_sample_dump``).  This facade re-exports
their names, so existing imports keep working.
"""

from __future__ import annotations

# The facade re-exports every name of the former single module, private ones included (tests
# reach into them).
# ruff: noqa: F401
from citeworth_assets.lib.fields import MAG_FIELDS
from citeworth_assets.samples.s2orc.defects import (
    _DEFECT_WRITERS,
    _write_bracketed_decimal,
    _write_crossing_citation,
    _write_equation,
    _write_hanging_citation,
    _write_inline_citation,
    _write_lowercase_start,
    _write_mid_sentence_citation,
    _write_missed_citation,
    _write_missing_final_period,
    _write_short_sentence,
)
from citeworth_assets.samples.s2orc.dump import (
    _AtomicGzipLines,
    generate_sample_dump,
)
from citeworth_assets.samples.s2orc.graph import (
    _ID_BASE,
    _LINK_WINDOW,
    _MASK64,
    _METADATA_CRITERIA,
    _OUTCOME_CYCLE,
    _OUTSIDE_ID_BASE,
    _PARSED_FLAGS,
    _VENUE_OR_ID_KEYS,
    ACCEPTED,
    CANDIDATE_CRITERIA,
    _between,
    _citation_mask,
    _cites,
    _mix,
    _outcome,
    _outcome_cycle,
    _pick,
    _rng,
    _window,
    in_dump_citers,
    intended_first_failure,
    is_link_target,
    linked_targets,
    paper_id_for,
)
from citeworth_assets.samples.s2orc.identity import (
    _ABSTRACT_SENTENCES,
    _TITLE_TEMPLATES,
    _Abstract,
    _abstract_parts,
    _abstract_text,
    _author_record,
    _author_year_label,
    _capitalize,
    _field_cycle,
    _Identity,
    _identity,
    _random_author,
    abstract_for,
)
from citeworth_assets.samples.s2orc.paper import _PaperWriter
from citeworth_assets.samples.s2orc.text import (
    _CITE_APPETITE,
    _CLAIMS,
    _CONTINUATIONS,
    _KIND_NAMES,
    _KIND_WEIGHTS,
    _OWN_STATEMENTS,
    _OWN_WITH_FIGURE,
    _OWN_WITH_TABLE,
    _PARAGRAPH_KINDS,
    _SECTION_TITLES,
    _BibItem,
    _Paragraph,
    _Slots,
)
from citeworth_assets.samples.s2orc.vocabulary import (
    _FIELD_VOCAB,
    _FIRST_NAMES,
    _LAST_NAMES,
    _MIDDLE_INITIALS,
    _Vocab,
    _vocab,
)

__all__ = [
    "ACCEPTED",
    "CANDIDATE_CRITERIA",
    "MAG_FIELDS",
    "abstract_for",
    "generate_sample_dump",
    "in_dump_citers",
    "intended_first_failure",
    "is_link_target",
    "linked_targets",
    "paper_id_for",
]
