"""The papers' published tables beside the rebuild's figures (``citeworth reproduce``): each table's published
cells are package data (``published/<paper>.csv``), its own cells are computed from the warehouse; no Dagster here."""
