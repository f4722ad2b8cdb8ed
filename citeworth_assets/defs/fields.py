"""The MAG level-0 fields of study (:mod:`citeworth_assets.lib.fields`) as static partitions, keys like
``computer_science``: CiteWorth's per-field paragraphs and the arXiv papers of each field share them."""

import dagster as dg

from citeworth_assets.lib.fields import MAG_FIELDS, field_key

mag_fields = dg.StaticPartitionsDefinition([field_key(field) for field in MAG_FIELDS])
