"""MAG fields of study as static partitions (keys like ``computer_science``)."""

import dagster as dg

from citeworth_assets.lib.fields import MAG_FIELDS, field_key

mag_fields = dg.StaticPartitionsDefinition([field_key(field) for field in MAG_FIELDS])
