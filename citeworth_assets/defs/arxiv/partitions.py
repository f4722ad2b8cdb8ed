"""unarXive dump files (a 2020 folder or tarball, a 2022 JSON-lines file) as dynamic partitions, added by the dump
sensors or by ``citeworth build``."""

import dagster as dg

arxiv_dump_files = dg.DynamicPartitionsDefinition(name="arxiv_dump_files")
