import pytest

from citeworth_assets.defs.warehouse.assets import SQL_MODELS_DIR
from citeworth_assets.lib.sql_models import (
    SqlModelError,
    load_model,
    load_models,
    parsed_upstream,
    upstream_record,
    upstream_relations,
    write_upstream,
)


def test_upstream_relations_come_from_from_join_subquery_and_cte_bodies():
    sql = """
        WITH recent AS (SELECT * FROM s2orc.papers WHERE year > 2015)
        SELECT r.paper_id FROM recent AS r
        JOIN s2orc.paper_rejections AS j ON r.paper_id = j.paper_id, unnest([1, 2]) AS u(x)
        WHERE r.paper_id IN (SELECT paper_id FROM citeworth.sentences)
    """
    assert upstream_relations(sql) == {"s2orc.papers", "s2orc.paper_rejections", "citeworth.sentences"}


def test_a_model_file_names_its_relation_and_materialization(tmp_path):
    path = tmp_path / "analytics" / "recent_papers.sql"
    path.parent.mkdir()
    path.write_text("-- Papers since 2015.\n-- materialized: table\nSELECT * FROM s2orc.papers WHERE year > 2015;\n")
    model = load_model(path)
    assert (model.relation, model.materialized, model.description) == (
        "analytics.recent_papers",
        "table",
        "Papers since 2015.",
    )
    assert model.upstream == {"s2orc.papers"} and not model.sql.endswith(";")


@pytest.mark.parametrize(
    "name, text", [("Bad-Name.sql", "SELECT 1"), ("empty.sql", "  \n"), ("broken.sql", "SELEC x FROM")]
)
def test_bad_model_files_are_named_in_the_error(tmp_path, name, text):
    path = tmp_path / "analytics" / name
    path.parent.mkdir()
    path.write_text(text)
    with pytest.raises(SqlModelError, match=name.replace(".", r"\.")):
        load_model(path)


def test_the_shipped_models_load():
    models = {model.relation: model for model in load_models(SQL_MODELS_DIR)}
    assert models["s2orc.papers_per_field"].upstream == {"s2orc.papers", "s2orc.candidate_papers"}
    assert models["s2orc.candidate_filter_drops"].upstream == {"s2orc.paper_rejections"}


def test_the_shipped_upstream_file_is_what_duckdb_parses_now():
    """Rewrite it with ``write_upstream(SQL_MODELS_DIR)`` (lib/sql_models.py) after adding or changing a model."""
    assert parsed_upstream(SQL_MODELS_DIR) == upstream_record(SQL_MODELS_DIR)


def test_a_model_changed_since_the_upstream_file_was_written_is_parsed_again(tmp_path):
    path = tmp_path / "analytics" / "recent.sql"
    path.parent.mkdir()
    path.write_text("SELECT * FROM s2orc.papers")
    write_upstream(tmp_path)
    assert load_models(tmp_path)[0].upstream == {"s2orc.papers"}
    path.write_text("-- Now joined.\nSELECT * FROM s2orc.papers JOIN citeworth.sentences USING (paper_id);\n")
    assert load_models(tmp_path)[0].upstream == {"s2orc.papers", "citeworth.sentences"}
    (tmp_path / "analytics" / "broken.sql").write_text("SELEC x FROM")  # not in the file: parsed, and named
    with pytest.raises(SqlModelError, match=r"broken\.sql"):
        load_models(tmp_path)
