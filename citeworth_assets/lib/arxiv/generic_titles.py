"""Catalogue titles that are no titles: venue names and reference boilerplate (issue: generic titles in resolution).

Real catalogues hold works titled "Phys. Rev. B", "Nucl. Phys." or "et al" (index pages, mis-parsed records). Such
a title occurs in thousands of reference strings, so finding it there says nothing about which work is cited: with
one author surname in the string it won picks like "S. Ryu, J. E. Moore, and A. W. W. Ludwig, Phys. Rev. B 85"
-> the work titled "phys rev b". A normalised title is generic when every word of it is a venue abbreviation or
boilerplate word below, a number or a single letter; generic titles are never looked for inside strings (an arXiv
id or DOI may still name such a work). The vocabulary comes from the most frequent word runs of real unarXive
reference strings (2020 and 2022 samples) and common physics, mathematics and computing venue abbreviations.
"""

from __future__ import annotations

import re

VENUE_WORDS = frozenset(
    """
    phys physics physical rev review reviews lett letters nucl nuclear astrophys astron astronomy astrophysical j jour
    journal proc proceedings conf conference symp symposium ann annals math mathematical mathematics commun comm
    communications theor theoretical appl applied chem chemical soc society acad natl nat sci science sciences eur
    european am amer american int intl international mod rep reports mon not notices roy royal trans transactions ieee
    acm lect lecture notes ser series adv advances res research bull bulletin jetp zh eksp teor fiz sov z zeitschrift
    class grav gravit cosmol cosmology part fields high energy hep th ph lat ex gr qc cond mat astro quant nlin arxiv
    preprint eprint et al vol volume no pp p ed eds edition in press to appear submitted unpublished private
    communication ibid op cit phd thesis university univ the of and for on a an de der des di du la le von rept
    rmp prl prd prb pra prc pre jhep jcap apj mnras aj aa plb npb cmp jmp jpa ptp pnas epl nature lettere nuovo
    cimento fortsch progr prog suppl supplement sect section part
    """.split()
)
_NUMBER_OR_LETTER = re.compile(r"^(\d+|[a-z]|[ivxlc]+)$")


def is_generic_title(normalised_title: str) -> bool:
    """True when every word of a normalised title is a venue or boilerplate word, a number or one letter."""
    words = normalised_title.split()
    return bool(words) and all(w in VENUE_WORDS or _NUMBER_OR_LETTER.match(w) for w in words)
