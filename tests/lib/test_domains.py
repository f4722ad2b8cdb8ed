"""Each domain declares what it owns; the warehouse merges the declarations: lake tables, cards and drop reasons."""

import duckdb
import pyarrow as pa
import pytest

from citeworth_assets.defs.warehouse.assets import SQL_MODELS_DIR, create_sources, upstream_assets
from citeworth_assets.lib import domains, lake, warehouse
from citeworth_assets.lib.citeworth.cleaning import REJECTION_SCHEMA
from citeworth_assets.lib.reasons import ReasonRegistry
from citeworth_assets.lib.settings import PlatformSettings
from citeworth_assets.lib.sql_models import load_models


def test_every_domain_declares_its_own_tables_once():
    tables = domains.lake_tables()
    owners = {domains.domain_of(m): {t.name for t in getattr(m, "LAKE_TABLES", ())} for m in domains.owned_modules()}
    assert {"s2orc", "citeworth", "citesum", "citrec", "arxiv", "mag", "sciqfs", "manual_eval", "models"} <= set(owners)
    assert "arxiv_contexts" in owners["arxiv"] and "works" in owners["mag"] and "citesum_drops" in owners["citesum"]
    assert tables["arxiv_contexts"].dimension == "dump_file" and tables["s2orc_papers"].dimension == "shard"
    assert tables["citeworth_dataset"].dimension == "rules" and tables["works"].dimension is None
    assert sum(len(names) for names in owners.values()) == len(tables)


def test_every_lake_relation_a_view_reads_is_declared():
    for model in load_models(SQL_MODELS_DIR):
        _, unknown = upstream_assets(model, {})
        assert all(not name.startswith("lake.") for name in unknown), (model.relation, unknown)


def test_the_releasing_domains_declare_their_cards():
    cards = domains.dataset_cards()
    assert set(cards) == {"citeworth", "citesum", "sciqfs"}
    assert "CiteWorth" in cards["citeworth"].paper and cards["citesum"].task_categories == ("summarization",)


def test_a_registry_refuses_unknown_repeated_or_unexplained_reasons():
    registry = ReasonRegistry("demo", ("paper",))
    assert registry.add("too_short", "paper", "fewer words than the minimum") == "too_short"
    with pytest.raises(ValueError, match="twice"):
        registry.add("too_short", "paper", "again")
    with pytest.raises(ValueError, match="level"):
        registry.add("odd", "sentence", "a level the registry does not have")
    with pytest.raises(ValueError, match="one non-empty line"):
        registry.add("blank", "paper", "")
    with pytest.raises(ValueError, match="not a registered demo drop reason"):
        registry.require("too_long")
    assert registry.require("too_short") == "too_short" and list(registry) == ["too_short"]


def test_drop_reasons_view_lists_every_domain_with_lake_counts(tmp_path):
    settings = PlatformSettings(dumps=tmp_path / "dumps", data=tmp_path / "data")
    rejection = {name: None for name in REJECTION_SCHEMA.names}
    rows = [
        {**rejection, "rule_set": "citeworth_2021", "paper_id": str(i), "reason": "hanging_citation"} for i in range(3)
    ]
    lake.write_partition(settings.lake, "citeworth_rejections", REJECTION_SCHEMA, rows, "citeworth_2021.s_0")
    model = next(m for m in load_models(SQL_MODELS_DIR) if m.relation == "platform.drop_reasons")
    deps, unknown = upstream_assets(model, {})
    assert not unknown and {"citeworth_rejections", "s2orc_paper_rejections", "citesum_drops"} <= {
        key.path[-1] for key in deps
    }
    with duckdb.connect() as connection:
        create_sources(connection, settings, model.upstream)
        warehouse.create_relation(connection, model.relation, model.sql)
        found = connection.execute("SELECT domain, reason, dropped FROM platform.drop_reasons").fetchall()
    by_reason = {(domain, reason): dropped for domain, reason, dropped in found}
    assert by_reason[("citeworth", "hanging_citation")] == 3
    assert by_reason[("citeworth", "sentence_too_short")] == 0  # counted, none dropped
    assert by_reason[("s2orc", "venue_or_id")] == 0 and by_reason[("citesum", "unlinked_citation")] == 0
    assert by_reason[("sciqfs", "paper_too_long")] is None  # no lake table counts ROUGE-SciQFS's skipped pairs
    assert {domain for domain, _ in by_reason} == {"s2orc", "citeworth", "citesum", "sciqfs"}
    assert isinstance(domains.drop_reason_table(), pa.Table)


def test_every_reason_the_sciqfs_example_builder_counts_is_registered():
    """The example builder counts skipped pairs by name; each name must have a registered meaning."""
    import re
    from pathlib import Path

    from citeworth_assets.lib.sciqfs import examples
    from citeworth_assets.lib.sciqfs.reasons import REASONS

    counted = set(re.findall(r'skipped\["(\w+)"\]', Path(examples.__file__).read_text()))
    assert counted and counted <= set(REASONS)
