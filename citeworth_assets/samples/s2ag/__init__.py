"""A synthetic Semantic Scholar Academic Graph (S2AG) release of the sample papers (issue 30).

S2ORC is distributed today as the S2AG datasets, so ``citeworth generate-sample`` writes its papers in that layout
too: ``<out>/s2ag/<release>/{s2orc,s2orc_v2,papers,abstracts}/<opaque name>.gz``, one file per dataset and 2020
shard. Every S2AG record is read off the paper's 2020 metadata line and pdf parse (:mod:`.records`), so the same
paper read from either layout gives the same CiteWorth paragraphs and sentences:

* the ``s2orc`` text is the title, author blocks and parsed abstract, then the 2020 body paragraphs joined by a
  blank line (``"\\n\\n"``, the real files' separator), each a ``paragraph`` span, with a ``sectionheader`` span
  holding the 2020 section string before the first paragraph of each section (a header holding only a space where
  a paragraph without section follows a titled one; ``n`` only where the title carries no number of its own, so
  the section is the header's text, stripped), then figure/table blocks and the bibliography (:mod:`.layout`);
* citation spans become ``bibref`` spans over the same characters, ``ref_id`` ``BIBREFn`` -> ``bn``; figure and
  table references ``figureref`` / ``tableref`` (``fig_k`` / ``tab_k``); bib entries ``bibentry`` with
  ``matched_paper_id`` = the 2020 entry's ``link`` and title, author, name, venue sub-spans;
* a missing 2020 part (``has_pdf_parsed_*`` false) is a ``null`` annotation: no ``abstract``, no ``paragraph``,
  no ``bibentry``, no ``figure``/``table``;
* ``papers`` carries the 2020 ids, venue and journal, year, the MAG fields as ``s2fieldsofstudy`` with source
  ``external`` (S2's own ``s2-fos-model`` entries beside them, some with categories MAG lacks), the inbound
  citations as ``citationcount``; ``abstracts`` the 2020 metadata abstract (no row where it is null);
* ``s2orc_v2`` holds the same body (with ``sentence`` spans) and bibliography as two texts with snake_case keys;
  it has no abstract or front matter (no real ``s2orc_v2`` record is public; the shape is the lead's).

The real files' faults are planted as documented in :mod:`.faults`: every span list repeated two or three times in
every record, and one paper per shard for each other fault, listed in the summary under ``s2ag.faults``.
"""

from citeworth_assets.samples.s2ag.faults import BODY_FAULTS, FAULTS
from citeworth_assets.samples.s2ag.release import DATASETS, DEFAULT_RELEASE, S2agRelease, file_name
from citeworth_assets.samples.s2ag.sample import LAYOUTS, generate_s2ag_release, generate_sample

__all__ = [
    "BODY_FAULTS",
    "DATASETS",
    "DEFAULT_RELEASE",
    "FAULTS",
    "LAYOUTS",
    "S2agRelease",
    "file_name",
    "generate_s2ag_release",
    "generate_sample",
]
