"""Deterministic sample dumps (unarXive 2020/2022, MAG, OpenAlex) that exercise every reader and rule."""
