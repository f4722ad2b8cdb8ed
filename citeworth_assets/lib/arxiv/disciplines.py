"""unarXive 2022's ``discipline`` (arXiv's subject groups) as MAG level-0 fields, the keys of the static field
partitions.

The fallback field of an arXiv paper the catalogue does not know. arXiv's groups are not MAG fields: three are the same
name, the others are mapped to the MAG field that holds their subject (our choice, stated here once; a discipline
missing from the table gives no field, and the field asset counts such papers).
"""

from citeworth_assets.lib.fields import FIELD_BY_KEY, field_key

DISCIPLINE_FIELDS: dict[str, str] = {
    "Physics": "Physics",
    "Mathematics": "Mathematics",
    "Computer Science": "Computer Science",
    "Quantitative Biology": "Biology",
    "Quantitative Finance": "Economics",
    "Statistics": "Mathematics",
    "Electrical Engineering and Systems Science": "Engineering",
    "Economics": "Economics",
}
assert all(field_key(field) in FIELD_BY_KEY for field in DISCIPLINE_FIELDS.values())
