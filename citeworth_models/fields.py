"""The Microsoft Academic Graph level-0 fields of study: the vocabulary the ``fos`` recommenders match in text by
default, and the fields the platform partitions by (:mod:`citeworth_assets.lib.fields` takes them from here)."""

MAG_FIELDS: tuple[str, ...] = (
    "Art",
    "Biology",
    "Business",
    "Chemistry",
    "Computer Science",
    "Economics",
    "Engineering",
    "Environmental Science",
    "Geography",
    "Geology",
    "History",
    "Materials Science",
    "Mathematics",
    "Medicine",
    "Philosophy",
    "Physics",
    "Political Science",
    "Psychology",
    "Sociology",
)
