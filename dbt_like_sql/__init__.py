"""Warehouse views as SQL models: each <schema>/<name>.sql is the relation <schema>.<name> (a package so that a
wheel ships the files)."""
