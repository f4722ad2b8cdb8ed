"""The real unarXive 2022 sample through the graph into the SciQFS tables and examples: the arXiv ingest and
resolution, then the dump file's partition of sciqfs_arxiv_tables and sciqfs_arxiv_examples. The works catalogue
holds no abstracts and no paper of the sample cites another, so the queries come from a small arXiv metadata
snapshot written here for five of the cited arXiv ids: the example count is small by construction."""

import json

import pytest

from citeworth_assets.lib import lake

pytestmark = pytest.mark.slow  # materializes the graph end to end

SAMPLE_2022 = "arXiv_src_2212_086.first20.jsonl"
KEY = "unarxive_2022_arxiv_src_2212_086_first20"
QUIET = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}


def test_real_unarxive_papers_become_sciqfs_examples(shared_data, tmp_path, build_graph):
    dumps = tmp_path / "dumps"
    (dumps / "unarxive-2022").mkdir(parents=True)
    (dumps / "unarxive-2022" / SAMPLE_2022).symlink_to(shared_data / "unarxive-2022" / SAMPLE_2022)
    settings, built, instance, defs = build_graph(dumps, tmp_path / "data")
    assert built.failed == []
    references = lake.read_partition(settings.lake, "arxiv_references", KEY, ["arxiv_ids"], "dump_file")
    cited = sorted({i for ids in references.column("arxiv_ids").to_pylist() for i in ids})
    (dumps / "arxiv-metadata").mkdir()
    (dumps / "arxiv-metadata" / "meta.jsonl").write_text(
        "".join(
            json.dumps({"id": i, "title": f"Work {i}", "abstract": f"Random polynomials and their roots {i}."}) + "\n"
            for i in cited[:5]
        )
    )
    result = defs.resolve_job_def("sciqfs_dump_file_job").execute_in_process(
        instance=instance, run_config=QUIET, partition_key=KEY
    )
    assert result.success
    tables = {
        e.asset_key.to_user_string(): e.step_materialization_data.materialization.metadata
        for e in result.get_asset_materialization_events()
    }
    papers, citations = (
        tables["sciqfs_arxiv_tables"]["sciqfs_papers"].value,
        tables["sciqfs_arxiv_tables"]["sciqfs_citations"].value,
    )
    with_abstract, examples = (
        tables["sciqfs_arxiv_tables"]["references_with_abstract"].value,
        tables["sciqfs_arxiv_examples"]["examples"].value,
    )
    print(
        f"\nreal unarXive 2022 sample: {papers} papers, {citations} citations, {with_abstract} references with an "
        f"abstract, {examples} examples; skipped {tables['sciqfs_arxiv_examples']['skipped_pairs'].value}"
    )
    assert (papers, citations) == (20, 842)
    assert 0 < with_abstract <= 5 and examples >= with_abstract
