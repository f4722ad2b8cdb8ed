"""`citeworth arxiv-sources` on the generated source dump, as a bulk tar, a folder of .gz and unpacked folders."""

import csv
import gzip
import io
import json
import tarfile

from click.testing import CliRunner

from citeworth_assets.cli import main
from citeworth_assets.samples.arxiv_sources import write_source_dump
from citeworth_assets.samples.mag import sample_works


def test_arxiv_sources_converts_each_input_form(tmp_path):
    written = write_source_dump(tmp_path / "src", sample_works(13, 200), papers=4, seed=3)
    bulk = tmp_path / "src" / "arXiv_src_2101_001.tar"
    result = CliRunner().invoke(main, ["arxiv-sources", "--sources", str(bulk), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "4 of 6 submissions converted (corrupt_archive 1, pdf_only 1)" in result.output
    assert "2101.90006: corrupt_archive" in result.output
    with gzip.open(tmp_path / "out" / "unarxive-2022" / "arXiv_src_2101_001.latex.jsonl.gz", "rt") as handle:
        papers = [json.loads(line) for line in handle]
    assert sorted(p["paper_id"] for p in papers) == sorted(written["papers"])
    with open(tmp_path / "out" / "outcomes" / "arXiv_src_2101_001.csv") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["outcome"] for r in rows].count("converted") == 4 and all(float(r["seconds"]) >= 0 for r in rows)
    single = ["arxiv-sources", "--sources", str(bulk), "--out", str(tmp_path / "one"), "--single-reading"]
    assert "4 of 6 submissions converted" in CliRunner().invoke(main, single).output

    gz_folder, unpacked = tmp_path / "gz", tmp_path / "unpacked"
    gz_folder.mkdir()
    with tarfile.open(bulk) as tar:
        for member in tar:
            data = tar.extractfile(member).read()
            (gz_folder / member.name.split("/")[-1]).write_bytes(data)
            if member.name.endswith("90001.gz"):
                with tarfile.open(fileobj=io.BytesIO(gzip.decompress(data))) as inner:
                    inner.extractall(unpacked / "2101.90001", filter="data")
    result = CliRunner().invoke(
        main,
        ["arxiv-sources", "--sources", str(gz_folder), "--sources", str(unpacked), "--out", str(tmp_path / "o2"),
         "--workers", "2"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "gz: 4 of 6 submissions converted" in result.output and "unpacked: 1 of 1" in result.output
