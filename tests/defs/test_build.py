"""End to end: generate a two-shard dump, materialize the whole graph in-process, query the warehouse."""

import gzip
import json
import re

import duckdb
import pytest
from click.testing import CliRunner

from citeworth_assets.cli import main
from citeworth_assets.lib.s2orc.candidate_filter import CRITERION_NAMES
from citeworth_assets.samples.s2orc import generate_sample_dump

pytestmark = pytest.mark.slow  # materializes the graph end to end; `make test-fast` skips it


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("build")
    dumps, data = root / "dumps", root / "data"
    summary = generate_sample_dump(dumps, papers=300, shards=2, seed=3)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DAGSTER_HOME", str(root / "dagster_home"))
        result = CliRunner().invoke(main, ["build", "--dumps", str(dumps), "--data", str(data)])
        assert result.exit_code == 0, result.output
        yield dumps, data, summary, result.output, patch


def query(data, sql):
    with duckdb.connect(str(data / "warehouse.duckdb"), read_only=True) as connection:
        return connection.execute(sql).fetchall()


def test_every_view_is_filled_and_the_filter_accounts_for_every_paper(built):
    _, data, summary, output, _ = built
    assert "[2/2] 20200705v1_1" in output and "warehouse: refreshed" in output
    reasons = summary["rejection_reasons"]
    assert query(data, "SELECT count(*) FROM s2orc.papers") == [(300,)]
    assert query(data, "SELECT count(*) FROM s2orc.candidate_papers") == [(reasons["accepted"],)]
    drops = dict(query(data, "SELECT failed_criterion, count(*) FROM s2orc.paper_rejections GROUP BY 1"))
    assert drops == {name: reasons[name] for name in CRITERION_NAMES if reasons[name]}
    assert query(data, "SELECT count(*) FROM s2orc.read_issues") == [(0,)]
    paragraphs = query(data, "SELECT count(*), count(DISTINCT paper_id) FROM s2orc.paragraphs")[0]
    assert paragraphs[0] > paragraphs[1] > 0
    assert query(
        data,
        "SELECT count(*) FROM s2orc.paragraphs WHERE paper_id NOT IN (SELECT paper_id FROM s2orc.candidate_papers)",
    ) == [(0,)]
    linked = query(
        data,
        "SELECT count(*) FROM s2orc.paragraphs, unnest(cite_spans) AS s(span) WHERE span.linked_paper_id IS NOT NULL",
    )
    assert linked[0][0] > 0


def test_sql_models_are_in_the_warehouse(built):
    _, data, summary, _, _ = built
    drops = dict(query(data, "SELECT failed_criterion, papers FROM s2orc.candidate_filter_totals"))
    assert sum(drops.values()) == 300 - summary["rejection_reasons"]["accepted"]
    fields = query(data, "SELECT count(*) FROM s2orc.papers_per_field")
    assert fields[0][0] == 19


def test_the_citeworth_dataset_is_built_checked_and_released(built):
    _, data, _, output, _ = built
    assert "CiteWorth paragraphs" in output
    accepted = query(data, "SELECT count(*) FROM citeworth.paragraphs WHERE rule_set = 'citeworth_2021'")[0][0]
    assert accepted > 0
    dropped = dict(query(data, "SELECT level, count(DISTINCT paper_id) FROM citeworth.rejections GROUP BY 1"))
    assert dropped["paper"] > 0 and dropped["paragraph"] > 0
    unexplained = query(
        data, "SELECT DISTINCT reason FROM citeworth.rejections ANTI JOIN citeworth.drop_reasons USING (reason)"
    )
    assert unexplained == []  # an analyst can look up every recorded reason
    fields = query(data, "SELECT field, count(*) FROM citeworth.dataset GROUP BY 1")
    assert len({count for _, count in fields}) == 1  # balanced
    splits = dict(query(data, "SELECT split, count(*) FROM citeworth.sentences GROUP BY 1"))
    assert set(splits) <= {"train", "dev", "test"} and sum(splits.values()) > 0
    stats = query(data, "SELECT sentences FROM citeworth.statistics WHERE field = 'all'")
    assert stats == [(sum(splits.values()),)]
    rule_sets = dict(query(data, "SELECT rule_set, sentences_per_1000 FROM citeworth.rule_comparison"))
    assert rule_sets["citeworth_improved_v1"] > rule_sets["citeworth_2021"] > 0
    release = data / "exports" / "citeworth" / "citeworth_2021"
    assert sum(1 for split in ("train", "dev", "test") for _ in (release / f"{split}.jsonl").open()) == sum(
        c for _, c in fields
    )


def test_the_citesum_dataset_is_split_without_leakage_and_released(built):
    _, data, _, _, _ = built
    report = query(data, "SELECT candidates, kept FROM citesum.threshold_report")[0]
    assert report[0] > report[1] > 0
    assert query(
        data,
        "SELECT count(*) FROM citesum.candidates "
        "WHERE kept AND (rouge1_recall < 50 OR rouge2_recall < 20 OR rougeL_recall < 40)",
    ) == [(0,)]
    leaked = query(
        data,
        "SELECT count(*) FROM "
        "(SELECT cited_paper_id FROM citesum.examples GROUP BY 1 HAVING count(DISTINCT split) > 1)",
    )
    assert leaked == [(0,)]
    assert query(data, "SELECT count(*) FROM citesum.examples WHERE target LIKE '%REF%'")[0][0] == report[1]
    splits = dict(query(data, "SELECT split, examples FROM citesum.statistics"))
    assert sum(splits.values()) == report[1] and splits["train"] > splits["validation"] > 0
    methods = {row[0] for row in query(data, "SELECT method FROM citesum.baselines")}
    assert methods == {"EXT-LEAD", "EXT-HEURISTIC", "EXT-ORACLE"}
    release = data / "exports" / "citesum"
    record = json.loads((release / "train.jsonl").read_text().splitlines()[0])
    assert list(record) == ["src", "tgt", "paper_id", "title", "discipline"]


def test_manual_evaluation_sample_judgements_and_table_3(built):
    import dagster as dg

    from citeworth_assets.defs.manual_eval.assets import citeworth_manual_eval_results
    from citeworth_assets.defs.warehouse.assets import build_sql_model_assets
    from citeworth_assets.lib.manual_eval.store import JudgementStore
    from citeworth_assets.resources import CiteworthSettings

    dumps, data, _, _, _ = built
    strata = query(data, "SELECT method, label, count(*) FROM citeworth.manual_eval_sample GROUP BY ALL")
    assert len(strata) == 4 and len({count for _, _, count in strata}) == 1
    items = query(data, "SELECT item_id, method FROM citeworth.manual_eval_sample ORDER BY position LIMIT 6")
    store = JudgementStore(data / "manual_eval" / "citeworth_2021" / "judgements")
    for number, (item, _) in enumerate(items):
        store.judge("alice", item, True, number % 2 == 0)
    store.undo("alice")
    resources = {"citeworth": CiteworthSettings(dumps=str(dumps), data=str(data))}
    views = [a for a in build_sql_model_assets() if a.key.path[-1] in ("manual_eval_judgements", "manual_eval_results")]
    assert dg.materialize([citeworth_manual_eval_results, *views], resources=resources).success
    assert query(data, "SELECT count(*) FROM citeworth.manual_eval_judgements WHERE annotator = 'alice'") == [(5,)]
    rows = query(
        data, "SELECT method, judged, yes FROM citeworth.manual_eval_results WHERE question = 'extracted_correctly'"
    )
    judged = {method: count for method, _, count in rows}
    assert sum(judged.values()) == 5 and {method for _, method in items[:5]} == {m for m, n in judged.items() if n}


def test_a_rebuild_replaces_and_never_duplicates(built):
    dumps, data, _, _, _ = built
    before = query(data, "SELECT count(*) FROM s2orc.paragraphs")
    result = CliRunner().invoke(main, ["build", "--dumps", str(dumps), "--data", str(data)])
    assert result.exit_code == 0, result.output
    assert query(data, "SELECT count(*) FROM s2orc.paragraphs") == before
    assert query(data, "SELECT count(*) FROM s2orc.papers") == [(300,)]


def test_a_damaged_shard_is_reported_and_loses_nothing_else(built, tmp_path):
    dumps, data, _, _, _ = built
    full = dumps / "20200705v1" / "full"
    metadata = gzip.decompress((full / "metadata" / "metadata_0.jsonl.gz").read_bytes()).splitlines()
    parses = gzip.decompress((full / "pdf_parses" / "pdf_parses_0.jsonl.gz").read_bytes()).splitlines()
    first = json.loads(metadata[0])
    first["inbound_citations"] = None
    damaged = [json.dumps(first).encode(), b'{"paper_id": "x", "title":', *metadata[1:], metadata[-1][:40]]
    (full / "metadata" / "metadata_7.jsonl.gz").write_bytes(gzip.compress(b"\n".join(damaged)))
    (full / "pdf_parses" / "pdf_parses_7.jsonl.gz").write_bytes(gzip.compress(b"\n".join(parses))[:-200])
    try:
        result = CliRunner().invoke(main, ["build", "--dumps", str(dumps), "--data", str(data)])
        assert result.exit_code == 0, result.output
        issues = dict(
            query(data, "SELECT kind, count(*) FROM s2orc.read_issues WHERE shard = '20200705v1_7' GROUP BY 1")
        )
        assert issues == {"null_list": 1, "invalid_json": 1, "truncated_line": 1, "truncated_gzip": 1}
        lines = query(data, "SELECT file, line FROM s2orc.read_issues WHERE kind = 'invalid_json'")
        assert lines == [("metadata_7.jsonl.gz", 2)]
        assert query(data, "SELECT count(*) FROM s2orc.papers WHERE shard = '20200705v1_7'") == [(len(metadata),)]
        kept = query(data, "SELECT count(*) FROM s2orc.paragraphs WHERE shard = '20200705v1_7'")[0][0]
        whole = query(data, "SELECT count(*) FROM s2orc.paragraphs WHERE shard = '20200705v1_0'")[0][0]
        assert 0 < kept < whole  # everything before the cut in pdf_parses is kept
    finally:
        for kind in ("metadata", "pdf_parses"):
            (full / kind / f"{kind}_7.jsonl.gz").unlink()


def test_asset_checks_ran_and_passed(built):
    _, _, _, output, _ = built
    # every check of the build, not only the last job's: the CiteWorth checks (internal errors included) and the
    # ROUGE-SciQFS ones ran and passed; the arXiv/MAG and citation-recommendation checks have nothing to check here
    (line,) = [line for line in output.splitlines() if line.startswith("checks: ")]
    passed, failed = (int(n) for n in re.match(r"checks: (\d+) passed, (\d+) failed", line).groups())
    assert (passed, failed) == (9, 0), line
    assert "models (test" not in output and "read issues:" in output and "duckdb -readonly" not in output


def test_bad_settings_fail_fast_and_name_the_setting(tmp_path):
    result = CliRunner().invoke(main, ["build", "--dumps", str(tmp_path / "missing"), "--data", str(tmp_path)])
    assert result.exit_code == 2 and "CITEWORTH_DUMPS" in result.output and "--dumps" in result.output
    (tmp_path / "file").write_text("")
    result = CliRunner().invoke(main, ["build", "--dumps", str(tmp_path), "--data", str(tmp_path / "file")])
    assert result.exit_code == 2 and "CITEWORTH_DATA" in result.output
    result = CliRunner().invoke(main, ["build", "--dumps", str(tmp_path), "--data", str(tmp_path / "data")])
    assert result.exit_code == 1 and "no S2ORC shards" in result.output
