"""Each domain declares what it owns; the warehouse merges the declarations: lake tables, cards and drop reasons."""

import duckdb
import pyarrow as pa
import pytest

from citeworth_assets.defs.warehouse.assets import SQL_MODELS_DIR, create_sources, upstream_assets
from citeworth_assets.lib import domains, filters, warehouse
from citeworth_assets.lib.citeworth.partition import cleaning_run, rejection_schema
from citeworth_assets.lib.reasons import ReasonRegistry
from citeworth_assets.lib.sciqfs.reasons import REASONS as SCIQFS_REASONS
from citeworth_assets.lib.settings import PlatformSettings
from citeworth_assets.lib.sql_models import load_models


def test_every_domain_declares_its_own_tables_once():
    tables = domains.lake_tables()
    owners = {domains.domain_of(m): {t.name for t in getattr(m, "LAKE_TABLES", ())} for m in domains.owned_modules()}
    assert {"s2orc", "citeworth", "citesum", "citrec", "arxiv", "mag", "sciqfs", "manual_eval", "models"} <= set(owners)
    assert "arxiv_contexts" in owners["arxiv"] and "works" in owners["mag"] and "citesum_drops" in owners["citesum"]
    assert tables["arxiv_contexts"].dimension == "dump_file" and tables["s2orc_papers"].dimension == "shard"
    assert tables["citeworth_dataset"].dimension == "rules" and tables["works"].dimension is None
    assert sum(len(names) for names in owners.values()) + 1 == len(tables)  # and the filters' shared tallies
    assert {"s2orc_candidate_filter", "citeworth_cleaning", "citesum_candidates", "sciqfs_arxiv_examples"} <= set(
        tables["filter_tallies"].assets
    )


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
    rejection = {name: None for name in rejection_schema().names}
    tables = ("citeworth_paragraphs", "citeworth_rejections")
    with cleaning_run(settings.lake, "citeworth_cleaning", tables, "citeworth_2021", "s_0") as run:
        for i in range(3):
            run.drop("hanging_citation", {**rejection, "rule_set": "citeworth_2021", "paper_id": str(i)})
    arxiv = ("citeworth_arxiv_paragraphs", "citeworth_arxiv_rejections")
    with cleaning_run(
        settings.lake, "citeworth_arxiv_cleaning", arxiv, "citeworth_2021", "f", candidate_filter=True
    ) as run:
        run.drop("hanging_citation", {**rejection, "rule_set": "citeworth_2021", "paper_id": "a"})
        run.drop("venue_or_id", {**rejection, "rule_set": "citeworth_2021", "paper_id": "b"}, "s2orc")
    with filters.run(settings.lake, "sciqfs_s2orc_examples", "s_0", [SCIQFS_REASONS]) as run:
        run.tally.drop("paper_too_long", 2)  # ROUGE-SciQFS keeps no rows of its skipped pairs, only their tally
    model = next(m for m in load_models(SQL_MODELS_DIR) if m.relation == "platform.drop_reasons")
    deps, unknown = upstream_assets(model, {})
    assert not unknown and {"citeworth_cleaning", "s2orc_candidate_filter", "citesum_candidates"} <= {
        key.path[-1] for key in deps
    }
    with duckdb.connect() as connection:
        create_sources(connection, settings, model.upstream)
        warehouse.create_relation(connection, model.relation, model.sql)
        found = connection.execute("SELECT domain, reason, dropped FROM platform.drop_reasons").fetchall()
    by_reason = {(domain, reason): dropped for domain, reason, dropped in found}
    assert len(by_reason) == len(found)  # one row per reason, whichever steps drop for it
    assert by_reason[("citeworth", "hanging_citation")] == 4 and by_reason[("s2orc", "venue_or_id")] == 1
    assert by_reason[("citeworth", "sentence_too_short")] == 0  # counted, none dropped
    assert by_reason[("s2orc", "abstract")] == 0 and by_reason[("citesum", "unlinked_citation")] == 0
    assert by_reason[("sciqfs", "paper_too_long")] == 2
    assert {domain for domain, _ in by_reason} == {"s2orc", "citeworth", "citesum", "sciqfs"}
    assert isinstance(domains.drop_reason_table(), pa.Table)


def test_every_reason_the_sciqfs_example_builder_gives_is_registered():
    """The example builder skips pairs by its criteria; each gives a registered reason, and each reason has one."""
    from citeworth_assets.lib.sciqfs.examples import PAIR_CRITERIA

    assert {reason for judge in PAIR_CRITERIA for reason in judge.reasons} == set(SCIQFS_REASONS)
