"""End to end from a bulk LaTeX source dump to citation contexts (Saier 2019 §4.2): the source tar is converted,
the converted papers are ingested as an arXiv dump file, resolved against the sample catalogue and give contexts;
a rebuild writes the same bytes and no duplicate rows."""

import hashlib

import dagster as dg
import pytest
from arxiv_graph_helpers import build, latest_metadata, query

from citeworth_assets.lib.arxiv.dump_files import MAG_DIR
from citeworth_assets.lib.arxiv_sources.source_dumps import SOURCE_DIR
from citeworth_assets.samples.arxiv_sources import write_source_dump
from citeworth_assets.samples.mag import sample_works, write_mag_dump

pytestmark = pytest.mark.slow
DUMP_KEY = "unarxive_2022_arxiv_src_2101_001_latex"


def test_a_source_dump_flows_through_the_graph_to_contexts(tmp_path):
    works = sample_works(13, 200)
    write_mag_dump(tmp_path / "dumps" / MAG_DIR, works, [])
    written = write_source_dump(tmp_path / "dumps" / SOURCE_DIR, works, papers=4, seed=5)
    with dg.instance_for_test() as instance:
        settings, failed, _ = build(tmp_path / "dumps", tmp_path / "data", instance)
        assert failed == []
        outcomes = dict(query(settings, "SELECT arxiv_id, outcome FROM arxiv.source_outcomes"))
        assert outcomes == {**{i: "converted" for i in written["papers"]}, **written["damaged"]}
        assert latest_metadata(instance, "arxiv_source_papers", "arxiv_src_2101_001")["arxiv_dump_file"] == DUMP_KEY
        assert query(settings, "SELECT count(*), sum(n_markers) FROM arxiv.papers") == [(4, 28)]
        resolved = query(settings, "SELECT count(resolved_mag_id), count(*) FROM arxiv.references")
        assert resolved == [(28, 28)]
        contexts = query(settings, "SELECT count(*), count(DISTINCT citing_paper_id) FROM arxiv.contexts")[0]
        assert contexts == (28, 4)
        converted = tmp_path / "data" / "converted" / "unarxive-2022" / "arXiv_src_2101_001.latex.jsonl.gz"
        first = hashlib.sha256(converted.read_bytes()).hexdigest()
        settings, failed, _ = build(tmp_path / "dumps", tmp_path / "data", instance)
        assert failed == [] and hashlib.sha256(converted.read_bytes()).hexdigest() == first
        assert query(settings, "SELECT count(*) FROM arxiv.contexts") == [(28,)]
