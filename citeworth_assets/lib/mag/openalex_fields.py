"""OpenAlex topics mapped to the MAG's 19 level-0 fields of study (the keys of the static field partitions).

OpenAlex deprecated its concepts (the MAG's field hierarchy) in favour of topics, each of which sits in one of 26
fields in 4 domains (the ASJC-based classification). A work without level-0 concepts gets its fields from its
``primary_topic`` and ``topics`` through this table, which docs/arxiv.md writes out. Two OpenAlex fields span
several MAG fields (Arts and Humanities; Social Sciences); their subfield decides where one is named here, the
field's default otherwise. A topic that names a domain but no field maps by domain, except Physical Sciences,
which spans too many MAG fields to pick one.
"""

from __future__ import annotations

# OpenAlex field (display name) -> MAG level-0 field, by domain
FIELD_TO_MAG: dict[str, str] = {
    # Life Sciences
    "Agricultural and Biological Sciences": "Biology",
    "Biochemistry, Genetics and Molecular Biology": "Biology",
    "Immunology and Microbiology": "Biology",
    "Neuroscience": "Biology",
    "Pharmacology, Toxicology and Pharmaceutics": "Medicine",
    # Social Sciences
    "Arts and Humanities": "Art",
    "Business, Management and Accounting": "Business",
    "Decision Sciences": "Business",
    "Economics, Econometrics and Finance": "Economics",
    "Psychology": "Psychology",
    "Social Sciences": "Sociology",
    # Physical Sciences
    "Chemical Engineering": "Engineering",
    "Chemistry": "Chemistry",
    "Computer Science": "Computer Science",
    "Earth and Planetary Sciences": "Geology",
    "Energy": "Engineering",
    "Engineering": "Engineering",
    "Environmental Science": "Environmental Science",
    "Materials Science": "Materials Science",
    "Mathematics": "Mathematics",
    "Physics and Astronomy": "Physics",
    # Health Sciences
    "Medicine": "Medicine",
    "Nursing": "Medicine",
    "Veterinary": "Medicine",
    "Dentistry": "Medicine",
    "Health Professions": "Medicine",
}

# subfields that name a MAG field of their own inside Arts and Humanities and Social Sciences
SUBFIELD_TO_MAG: dict[str, str] = {
    "History": "History",
    "Philosophy": "Philosophy",
    "History and Philosophy of Science": "Philosophy",
    "Religious studies": "Philosophy",
    "Geography, Planning and Development": "Geography",
    "Political Science and International Relations": "Political Science",
}

DOMAIN_TO_MAG: dict[str, str] = {
    "Life Sciences": "Biology",
    "Health Sciences": "Medicine",
    "Social Sciences": "Sociology",
}


def _name(value) -> str | None:
    name = value.get("display_name") if isinstance(value, dict) else None
    return name if isinstance(name, str) and name else None


def topic_field(topic: dict) -> str | None:
    """The MAG level-0 field of one OpenAlex topic (its subfield, field or domain), or None."""
    subfield, field, domain = (_name(topic.get(part)) for part in ("subfield", "field", "domain"))
    if field in ("Arts and Humanities", "Social Sciences") and subfield in SUBFIELD_TO_MAG:
        return SUBFIELD_TO_MAG[subfield]
    if field is not None:
        return FIELD_TO_MAG.get(field)
    return DOMAIN_TO_MAG.get(domain) if domain is not None else None
