"""The generated unarXive, MAG and OpenAlex samples: deterministic, read without unexplained loss, and
resolved against the generated catalogue as their ground truth says."""

import sqlite3
from collections import Counter

import pytest

from citeworth_assets.lib.arxiv import unarxive2020, unarxive2022
from citeworth_assets.lib.arxiv.context_extraction import contexts_2020, contexts_2022
from citeworth_assets.lib.arxiv.context_windows import ContextWindow
from citeworth_assets.lib.arxiv.resolution import (
    Catalogue,
    agreement,
    resolution_report,
    resolve_all,
)
from citeworth_assets.lib.identifiers import read_arxiv_metadata_titles
from citeworth_assets.lib.mag.catalogue import mag_works, openalex_works
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.samples.arxiv import STYLES, write_unarxive_2020, write_unarxive_2022
from citeworth_assets.samples.mag import (
    NOISE_MAG_ID,
    sample_works,
    write_arxiv_metadata,
    write_mag_dump,
    write_openalex_snapshot,
)


@pytest.fixture(scope="module")
def dumps(tmp_path_factory):
    root = tmp_path_factory.mktemp("generated")
    works = sample_works(13, 120)
    folder, references = write_unarxive_2020(root / "u2020", works, papers=25)
    tarball, _ = write_unarxive_2020(root / "u2020.tar.gz", works, papers=25, tarball=True)
    jsonl, references_2022 = write_unarxive_2022(root / "u2022.jsonl.gz", works, papers=10)
    mag = write_mag_dump(root / "mag", works)
    snapshot = write_openalex_snapshot(root / "openalex", works, per_part=50)
    metadata = write_arxiv_metadata(root / "arxiv-metadata.jsonl", works)
    return {
        "root": root,
        "works": works,
        "folder": folder,
        "references": references,
        "tarball": tarball,
        "jsonl": jsonl,
        "references_2022": references_2022,
        "mag": mag,
        "openalex": snapshot,
        "metadata": metadata,
    }


def test_generators_are_deterministic(dumps, tmp_path):
    works = sample_works(13, 120)
    folder, _ = write_unarxive_2020(tmp_path / "again", works, papers=25)
    for path in sorted(dumps["folder"].glob("*.txt")):
        assert (folder / path.name).read_bytes() == path.read_bytes()
    rows = lambda db: sqlite3.connect(db).execute("select * from bibitem order by uuid").fetchall()
    assert rows(folder / "refs.db") == rows(dumps["folder"] / "refs.db")
    jsonl, _ = write_unarxive_2022(tmp_path / "again.jsonl.gz", works, papers=10)
    import gzip

    assert gzip.decompress(jsonl.read_bytes()) == gzip.decompress(dumps["jsonl"].read_bytes())
    styles = Counter(r.style for r in dumps["references"])
    assert set(styles) == set(STYLES)  # every reference style of the generator occurs


def test_generated_2020_read_with_every_damage_counted(dumps):
    for source in (dumps["folder"], dumps["tarball"]):
        log = IssueLog()
        with unarxive2020.refs_db_path(source, None, log) as db:
            refs = unarxive2020.RefsDb(db)
            papers = list(unarxive2020.iter_papers(source, log, refs))
            references = list(unarxive2020.iter_references(refs, log))
            refs.close()
        assert len(papers) == 25
        assert log.counts == {"marker_without_bibitem": 1, "no_citation_markers": 1, "invalid_utf8": 2}, source
        assert len(references) == len(dumps["references"]) + 1
        assert sum(p.row["n_markers_without_reference"] for p in papers) == 1


def test_generated_contexts_have_groups_and_distant_markers(dumps):
    folder = dumps["folder"]
    rows = contexts_2020(folder, folder / "refs.db", ContextWindow(), IssueLog(), published_labels=False)
    assert rows and all("MAINCIT" in row.text and "{{cite:" not in row.text for row in rows)
    assert any(row.adjacent for row in rows) and any(not row.adjacent for row in rows)
    assert any("see also CIT" in row.text or "see also MAINCIT" in row.text for row in rows)
    # the et al. / Fig. / e.g. abbreviations never end a citing sentence
    assert not any(row.text.rstrip().endswith(("et al.", "Fig.", "e.g.")) for row in rows)
    papers = list(unarxive2022.iter_papers(dumps["jsonl"], IssueLog()))
    rows_2022 = [row for paper in papers for row in contexts_2022(paper, ContextWindow())]
    assert rows_2022 and all("}" not in row.text for row in rows_2022)


def test_resolution_of_generated_references_against_both_catalogues(dumps):
    log = IssueLog()
    mag = Catalogue.from_works(mag_works(dumps["mag"], log))
    mag.add_arxiv_titles(read_arxiv_metadata_titles(dumps["metadata"], log))
    assert log.counts == {"too_few_columns": 1, "invalid_utf8": 1, "bad_value": 1}
    rows = {
        r["ref_id"]: r
        for r in unarxive2020.iter_references(unarxive2020.RefsDb(dumps["folder"] / "refs.db"), IssueLog())
    }
    sample = {r.uuid: r for r in dumps["references"]}
    resolutions = {r["ref_id"]: r for r in resolve_all([rows[u] for u in sample], mag)}
    for uuid, reference in sample.items():
        got = resolutions[uuid]
        if reference.style in ("arxiv_old", "arxiv_new", "doi"):
            assert got["resolved_by"] == reference.style.split("_")[0].replace("arxiv", "arxiv_id"), reference.raw
            assert got["mag_id"] == reference.truth
        elif reference.style in ("title", "quoted", "longer"):
            assert got["mag_id"] == reference.truth, reference.raw  # longer titles beat contained shorter ones
        elif reference.style in ("noise", "non_publication", "no_title"):
            assert got["work_id"] is None and got["failure"] == "no_title", reference.raw
    report = agreement(resolutions.values(), [rows[u] for u in sample])
    noise = sum(1 for r in sample.values() if r.style == "noise")
    assert report["different"] == 0 and report["shipped_only"] >= noise  # the shipped noise links are refused
    summary = resolution_report(resolutions.values())
    assert set(summary["by_route"]) == {"arxiv_id", "doi", "title"}
    openalex = Catalogue.from_works(openalex_works(dumps["openalex"], IssueLog()))
    again = {r["ref_id"]: r for r in resolve_all([rows[u] for u in sample], openalex)}
    assert {u: r["mag_id"] for u, r in again.items()} == {u: r["mag_id"] for u, r in resolutions.items()}
    assert all(str(NOISE_MAG_ID) != r["mag_id"] for r in again.values())


def test_generated_2022_links_agree_with_the_resolver(dumps):
    papers = list(unarxive2022.iter_papers(dumps["jsonl"], IssueLog()))
    references = [r for p in papers for r in p.references]
    assert len(references) == len(dumps["references_2022"])
    catalogue = Catalogue.from_works(openalex_works(dumps["openalex"], IssueLog()))
    report = agreement(resolve_all(references, catalogue), references)
    assert report["same"] > 0 and report["different"] == 0
