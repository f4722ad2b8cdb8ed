"""End to end: generate a two-shard dump, build it as `make demo` does, query the warehouse; then rebuild it (as is,
forced with one worker, with a replaced and a damaged shard) and check that the record of what was built, the lake,
the releases and the warehouse agree. One module, one dump: every build here shares the first one's data root.
"""

import gzip
import json
import os
import re
import time

import dagster as dg
import duckdb
import pytest
from click.testing import CliRunner

from citeworth_assets.build.instance import dagster_instance
from citeworth_assets.cli import main
from citeworth_assets.defs.s2orc.sensors import s2orc_dump_sensor
from citeworth_assets.lib import lake
from citeworth_assets.lib.s2orc.candidate_filter import CRITERION_NAMES
from citeworth_assets.lib.settings import PlatformSettings
from citeworth_assets.resources import PlatformResource
from citeworth_assets.samples.s2orc import generate_sample_dump

pytestmark = pytest.mark.slow  # materializes the graph end to end; `make test-fast` skips it


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("build")
    dumps, data = root / "dumps", root / "data"
    summary = generate_sample_dump(dumps, papers=300, shards=2, seed=3)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DAGSTER_HOME", "")  # restored after the module: the build sets it to the data root's instance
        patch.delenv("DAGSTER_HOME")  # as `make demo` and `make ui`: the instance of the data root
        result = build(dumps, data, "--workers", "2")
        yield dumps, data, summary, result, patch


def build(dumps, data, *options) -> str:
    result = CliRunner().invoke(main, ["build", "--dumps", str(dumps), "--data", str(data), *options])
    assert result.exit_code == 0, result.output
    return result.output


def sensor_requests(dumps, data, rules="citeworth_2021") -> list[str]:
    """The partitions the dump sensor of `citeworth ui` would run now, reading the build's instance."""
    instance = dagster_instance(PlatformSettings.resolve(dumps=str(dumps), data=str(data)))
    settings = PlatformResource(dumps=str(dumps), data=str(data), rules=rules, shard_settle_seconds=0)
    result = s2orc_dump_sensor(dg.build_sensor_context(instance=instance, resources={"citeworth": settings}))
    return [] if isinstance(result, dg.SkipReason) else sorted(r.partition_key for r in result.run_requests)


def everything(data) -> dict[str, object]:
    """Every lake table's rows, every export file's bytes and every warehouse relation's rows."""
    out = {f"lake/{name}": rows for name, rows in lake.sorted_rows(data / "lake").items()}
    for path in sorted((data / "exports").rglob("*")):
        if path.is_file() and ".staging" not in path.parts:
            out[str(path.relative_to(data))] = path.read_bytes()
    with duckdb.connect(str(data / "warehouse.duckdb"), read_only=True) as connection:
        names = connection.execute("SELECT table_schema, table_name FROM information_schema.tables ORDER BY ALL")
        for schema, name in names.fetchall():
            columns = connection.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = ? AND table_name = ?",
                [schema, name],
            ).fetchall()
            exclude = " EXCLUDE (run_id)" if ("run_id",) in columns else ""  # an MLflow run names its build
            out[f"warehouse/{schema}.{name}"] = connection.execute(
                f'SELECT *{exclude} FROM "{schema}"."{name}" ORDER BY ALL'
            ).fetchall()
    return out


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
    from citeworth_assets.resources import PlatformResource

    dumps, data, _, _, _ = built
    strata = query(data, "SELECT method, label, count(*) FROM citeworth.manual_eval_sample GROUP BY ALL")
    assert len(strata) == 4 and len({count for _, _, count in strata}) == 1
    items = query(data, "SELECT item_id, method FROM citeworth.manual_eval_sample ORDER BY position LIMIT 6")
    store = JudgementStore(data / "manual_eval" / "citeworth_2021" / "judgements")
    for number, (item, _) in enumerate(items):
        store.judge("alice", item, True, number % 2 == 0)
    store.undo("alice")
    resources = {"citeworth": PlatformResource(dumps=str(dumps), data=str(data))}
    views = [a for a in build_sql_model_assets() if a.key.path[-1] in ("manual_eval_judgements", "manual_eval_results")]
    assert dg.materialize([citeworth_manual_eval_results, *views], resources=resources).success
    assert query(data, "SELECT count(*) FROM citeworth.manual_eval_judgements WHERE annotator = 'alice'") == [(5,)]
    rows = query(
        data, "SELECT method, judged, yes FROM citeworth.manual_eval_results WHERE question = 'extracted_correctly'"
    )
    judged = {method: count for method, _, count in rows}
    assert sum(judged.values()) == 5 and {method for _, method in items[:5]} == {m for m, n in judged.items() if n}


def test_the_shards_ran_as_queued_runs_of_the_data_roots_instance(built):
    dumps, data, _, output, _ = built
    assert "shards: 2 runs in" in output and "at most 2 at a time" in output
    assert os.environ["DAGSTER_HOME"] == str(data / "dagster_home")
    instance = dagster_instance(PlatformSettings.resolve(dumps=str(dumps), data=str(data)))
    done = instance.get_run_records(dg.RunsFilter(statuses=[dg.DagsterRunStatus.SUCCESS]))
    shard_runs = [r.dagster_run for r in done if r.dagster_run.job_name == "s2orc_shard_job"]
    # ROUGE-SciQFS partitions: queued runs as well, requested by the automation conditions after each shard
    sciqfs_runs = [
        r.dagster_run for r in done if dg.AssetKey("sciqfs_s2orc_examples") in (r.dagster_run.asset_selection or ())
    ]
    for runs in (shard_runs, sciqfs_runs):
        assert sorted(run.tags["dagster/partition"] for run in runs) == ["20200705v1_0", "20200705v1_1"]
    assert all(run.tags.get("citeworth/in_build_process") is None for run in sciqfs_runs)  # queued, not in process
    assert sensor_requests(dumps, data) == []  # `citeworth ui` after a build launches no shard run
    # Another rule set's cleaning is not built yet: the sensor configured with it would run both shards.
    assert sensor_requests(dumps, data, rules="citeworth_improved") == ["20200705v1_0", "20200705v1_1"]


@pytest.mark.ops  # two more whole builds (about 40 s): with the operational tests, so make test keeps its 5 minutes
def test_a_rebuild_replaces_and_never_duplicates_and_one_worker_builds_what_two_did(built):
    """CiteSum does not depend on build history; one run at a time in the build's process (`--in-process`) gives
    the lake of two queued runs at a time (`--workers 2`)."""
    dumps, data, _, _, _ = built
    before = everything(data)
    # The manual-evaluation test before this one judged items, and re-sampling keeps judged items by design: the
    # rebuilt manual-evaluation sample is compared as it is (same size), everything else must be identical. The
    # papers' tables follow the judgements too (CiteWorth Table 3, refreshed by the daemon, here by the rebuild).
    ignored = {name for name in before if "manual_eval" in name or "paper_tables" in name}
    cross = [row for row in before["lake/citesum_candidates"] if row[-1].endswith("_0")]
    assert cross  # cited papers of the second shard found for the first shard's citing sentences on the first build
    again = build(dumps, data, "--in-process")  # (the same plan, every run in the build's process: quicker)
    assert "20200705v1_0: built from these files already" in again and "building 0 of 2 shards" in again
    after = everything(data)
    assert sorted(after) == sorted(before) and len(before) > 40
    assert [name for name in before if after[name] != before[name] and name not in ignored] == []
    assert len(after["lake/citeworth_manual_eval_sample"]) == len(before["lake/citeworth_manual_eval_sample"])
    assert query(data, "SELECT count(*) FROM s2orc.papers") == [(300,)]
    assert before["lake/s2orc_papers"] and before["lake/citeworth_paragraphs"] and before["lake/sciqfs_examples"]
    forced = build(dumps, data, "--force", "--in-process")
    assert (
        "building 2 of 2 shards" in forced
        and "shards: 2 runs in" in forced
        and "one at a time in this process" in forced
    )
    assert [name for name, rows in everything(data).items() if before.get(name) != rows and name not in ignored] == []
    unjudged = {  # the papers' tables but for the cells the judgements fill
        name: [row for row in rows if row[:2] != ("citeworth", "3")]
        for name, rows in everything(data).items()
        if "paper_tables" in name
    }
    assert len(unjudged) == 3 and all(
        rows == [row for row in before[name] if row[:2] != ("citeworth", "3")] for name, rows in unjudged.items()
    )
    catalogue = before["lake/citesum_cited_abstracts"]
    assert len({row[0] for row in catalogue}) == len(catalogue) > 0


@pytest.mark.ops  # another whole build of a damaged copy (about 40 s): with the operational tests, as above
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
    replaced = full / "pdf_parses" / "pdf_parses_1.jsonl.gz"  # the same bytes again: a replaced file runs again
    built_at = replaced.stat().st_mtime
    replaced.write_bytes(replaced.read_bytes())
    os.utime(replaced, (built_at - 500,) * 2)  # (as `cp -p` of an older copy: settled, and another signature)
    for path in (full / "metadata" / "metadata_7.jsonl.gz", full / "pdf_parses" / "pdf_parses_7.jsonl.gz"):
        os.utime(path, (time.time() - 100,) * 2)  # settled
    try:
        assert sensor_requests(dumps, data) == ["20200705v1_1", "20200705v1_7"]
        result = build(dumps, data, "--in-process")
        assert "building 2 of 3 shards" in result and "20200705v1_0: built from these files already" in result
        assert sensor_requests(dumps, data) == []
        issues = dict(
            query(data, "SELECT kind, count(*) FROM s2orc.read_issues WHERE shard = '20200705v1_7' GROUP BY 1")
        )
        assert issues == {"null_list": 1, "invalid_json": 1, "truncated_line": 1, "truncated_gzip": 1}
        lines = query(data, "SELECT file, line FROM s2orc.read_issues WHERE kind = 'invalid_json'")
        assert lines == [("metadata_7.jsonl.gz", 2)]
        # shard 7 repeats shard 0's papers: read and listed, each counted once (from shard 0) in views and datasets
        read = query(data, "SELECT count(*) FROM lake.s2orc_papers WHERE shard = '20200705v1_7'")
        repeated = query(data, "SELECT count(*) FROM s2orc.duplicate_papers WHERE shard = '20200705v1_7' AND NOT kept")
        assert read == repeated == [(len(metadata),)]
        assert query(data, "SELECT count(*) FROM s2orc.papers WHERE shard = '20200705v1_7'") == [(0,)]
        kept = query(data, "SELECT count(*) FROM lake.s2orc_paragraphs WHERE shard = '20200705v1_7'")[0][0]
        whole = query(data, "SELECT count(*) FROM s2orc.paragraphs WHERE shard = '20200705v1_0'")[0][0]
        assert 0 < kept < whole  # everything before the cut in pdf_parses is kept
        for relation, key in (
            ("citesum.examples", "citing_paper_id, paragraph_index, sentence_index"),
            ("citesum.candidates", "citing_paper_id, paragraph_index, sentence_index"),
            ("s2orc.paragraphs", "paper_id, paragraph_index"),
            ("citeworth.sentences", "rule_set, paper_id, section_idx, sentence_idx"),
        ):
            assert query(data, f"SELECT count(*) - count(DISTINCT ({key})) FROM {relation}") == [(0,)], relation
        assert query(data, "SELECT count(*) FROM citesum.examples")[0][0] > 0
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
