"""``citeworth contexts`` on a plain folder (the published extraction reproduced byte for byte) and
``citeworth generate-sample-arxiv`` (the dump-root layout the sensors and the build read)."""

import hashlib

import pytest
from click.testing import CliRunner

from citeworth_assets.cli import main
from citeworth_assets.lib.arxiv.dump_files import catalogue_files, discover_dump_files

# sha256 of unarXive's published extraction on the real 2020 sample (NLTK's trained English Punkt as nltk 3.4.5
# splits; the untrained preset as the published script with an untrained Punkt; as in tests/lib/arxiv)
PUBLISHED = {
    (): "fd05b5ea61994698aaf0f84e191b30553572abad2ee8883c89200a36ee720eb3",  # its defaults: 1 sentence each side
    ("--preset", "unarxive_published"): "11e55d1528f81208a74a86437d01f4c894b982420106d29c2605a126f06ec5fd",
    (
        "--sentences-before",
        "0",
        "--sentences-after",
        "0",
        "--tokenizer",
        "untrained",
    ): "a48bc146ca0e715688e060f33b63647576c3bb0077a6a32d6faa8be114e074d3",
    ("--words", "50"): "e00413179650198bfba6b2f574ee13cc44303dc01c78a1b2f7462b55fced892c",
}


@pytest.mark.parametrize(
    "window", [pytest.param(w, marks=[pytest.mark.slow] if "--words" not in w else []) for w in sorted(PUBLISHED)]
)  # the sentence windows tokenise the sample for over 10 s
def test_contexts_of_the_real_2020_folder_equal_the_published_extraction(shared_data, tmp_path, window):
    out = tmp_path / "contexts.csv"
    papers = shared_data / "unarxive-2020" / "papers"
    result = CliRunner().invoke(main, ["contexts", "--papers", str(papers), *window, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert hashlib.sha256(out.read_bytes()).hexdigest() == PUBLISHED[window]
    assert "citing_paper_missing" in result.output  # refs.db lists papers whose text is not in the sample: counted


def test_contexts_of_a_2022_file_and_a_tarball(tmp_path):
    from citeworth_assets.samples.arxiv import write_unarxive_2020, write_unarxive_2022
    from citeworth_assets.samples.mag import sample_works

    works = sample_works(3, 40)
    folder, _ = write_unarxive_2020(tmp_path / "folder", works, papers=6, damaged=False)
    tarball, _ = write_unarxive_2020(tmp_path / "dump.tar.gz", works, papers=6, damaged=False, tarball=True)
    jsonl, _ = write_unarxive_2022(tmp_path / "u.jsonl.gz", works, papers=3)
    outputs = {}
    for name, source in (("folder", folder), ("tarball", tarball), ("jsonl", jsonl)):
        out = tmp_path / f"{name}.csv"
        result = CliRunner().invoke(main, ["contexts", "--papers", str(source), "--words", "10", "--out", str(out)])
        assert result.exit_code == 0, result.output
        outputs[name] = out.read_bytes()
    assert outputs["folder"] == outputs["tarball"] and outputs["folder"]
    assert outputs["jsonl"].count(b"\n") > 0 and b"{{cite:" not in outputs["jsonl"]


def test_contexts_rejects_two_kinds_of_window(shared_data, tmp_path):
    papers = shared_data / "unarxive-2020" / "papers"
    result = CliRunner().invoke(
        main,
        [
            "contexts",
            "--papers",
            str(papers),
            "--words",
            "5",
            "--sentences-before",
            "1",
            "--out",
            str(tmp_path / "x.csv"),
        ],
    )
    assert result.exit_code == 2 and "either --words or" in result.output


def test_generate_sample_arxiv_writes_the_dump_root_layout(tmp_path):
    result = CliRunner().invoke(
        main, ["generate-sample-arxiv", "--out", str(tmp_path), "--papers", "6", "--papers-2022", "2"]
    )
    assert result.exit_code == 0, result.output
    assert [d.key for d in discover_dump_files(tmp_path)] == [
        "unarxive_2020_papers",
        "unarxive_2022_arxiv_src_sample",
        "unarxive_2022_unarxive_2024_sample",
    ]
    names = {path.relative_to(tmp_path).as_posix() for path in catalogue_files(tmp_path)}
    assert {"mag/Papers.txt", "mag/FieldsOfStudy.txt", "arxiv-metadata/arxiv-metadata.jsonl"} <= names
    assert "openalex/works/updated_date=2023-01-01/part_000.gz" in names  # the layout before 2026
    assert {  # the 2026 layout: the Parquet copy where a part has one, the JSON-lines part where it has none
        "openalex/data/parquet/works/updated_date=2026-03-15/part_0000.parquet",
        "openalex/data/jsonl/works/updated_date=2026-03-20/part_0000.gz",
    } <= names and "openalex/data/jsonl/works/updated_date=2026-03-15/part_0000.gz" not in names
    again = CliRunner().invoke(main, ["generate-sample-arxiv", "--out", str(tmp_path / "again"), "--papers", "6"])
    for name in ("unarxive-2022/unarxive_2024_sample.jsonl.gz", "openalex/data/parquet/manifest.json"):
        assert (tmp_path / name).read_bytes() == (tmp_path / "again" / name).read_bytes()  # deterministic
    assert again.exit_code == 0


def test_contexts_reports_the_graphs_kinds_with_file_and_line_and_a_broken_refs_db_clearly(tmp_path):
    """Issue 24 items 4 and 11: no traceback for a refs.db that is not one; problems named with file and line."""
    from citeworth_assets.samples.arxiv import write_unarxive_2020
    from citeworth_assets.samples.mag import sample_works

    folder, _ = write_unarxive_2020(tmp_path / "folder", sample_works(3, 40), papers=6, damaged=True)
    out = tmp_path / "out.csv"
    result = CliRunner().invoke(main, ["contexts", "--papers", str(folder), "--out", str(out)])
    assert result.exit_code == 0, result.output
    # what the graph's ingestion reports (markers, bibitems, bytes), each issue with its file
    for kind in ("no_citation_markers", "marker_without_bibitem", "invalid_utf8"):
        assert f"issues: {kind}:" in result.stderr
    assert f"{folder}/1705.00004.txt:2 (paper 1705.00004): invalid_utf8" in result.stderr
    (folder / "refs.db").write_bytes(b"not a database at all\n" * 20)
    result = CliRunner().invoke(main, ["contexts", "--papers", str(folder), "--out", str(out)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "refs.db: not unarXive's refs.db (file is not a database); no contexts written" in result.output
