"""Hostile and damaged submissions: nothing leaves the submission, links are refused, bombs stop at a budget."""

import gzip
import io
import os
import tarfile

import pytest

from citeworth_assets.lib.arxiv_sources import archive
from citeworth_assets.lib.arxiv_sources.archive import (
    CorruptArchive,
    Limits,
    read_folder_submission,
    read_gz_submission,
)
from citeworth_assets.lib.arxiv_sources.convert import convert_submission


def tar_bytes(members: list[tarfile.TarInfo], payloads: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for info in members:
            data = payloads.get(info.name)
            if data is not None:
                info.size = len(data)
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return buffer.getvalue()


def member(name: str, kind: bytes = tarfile.REGTYPE, target: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, target
    return info


MAIN = b"\\documentclass{article}\\begin{document}Hello \\cite{a}.\\end{document}"


def test_paths_outside_the_submission_and_links_are_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = tar_bytes(
        [
            member("main.tex"),
            member("../evil.tex"),
            member("/etc/evil.tex"),
            member("a/../../evil2.tex"),
            member("link.tex", tarfile.SYMTYPE, "/etc/passwd"),
            member("hard.tex", tarfile.LNKTYPE, "main.tex"),
        ],
        {"main.tex": MAIN, "../evil.tex": b"x", "/etc/evil.tex": b"x", "a/../../evil2.tex": b"x"},
    )
    submission = read_gz_submission("2101.00001", gzip.compress(data))
    assert set(submission.files) == {"main.tex"}
    assert len(submission.skipped) == 5
    assert list(tmp_path.iterdir()) == []  # unpacked in memory: nothing written anywhere
    outcome, record = convert_submission(
        archive.RawSubmission("2101.00001", "t.tar", "2101/2101.00001.gz", gzip.compress(data))
    )
    assert outcome.outcome == "converted" and outcome.n_skipped_members == 5 and "outside" in outcome.detail


@pytest.mark.parametrize("name", ["", "x", ".", "a/b/../c.tex"])
def test_safe_member_names(name):
    assert archive.safe_member_name(name) in (None, "x", "a/c.tex")


def test_a_decompression_bomb_stops_at_the_ratio_limit():
    zeros = tar_bytes([member("main.tex"), member("zeros.tex")], {"main.tex": MAIN, "zeros.tex": bytes(64 << 20)})
    bomb = gzip.compress(zeros, compresslevel=9)
    assert len(bomb) < 200_000
    with pytest.raises(CorruptArchive, match="bomb"):
        read_gz_submission("2101.00002", bomb)
    outcome, _ = convert_submission(archive.RawSubmission("2101.00002", "t.tar", "m", bomb))
    assert outcome.outcome == "corrupt_archive" and "bomb" in outcome.detail


def test_a_member_over_the_size_limit_is_skipped_not_read():
    data = tar_bytes([member("main.tex"), member("big.tex")], {"main.tex": MAIN, "big.tex": b"%" * 5000})
    submission = read_gz_submission("2101.00003", gzip.compress(data), Limits(max_member_bytes=1000))
    assert set(submission.files) == {"main.tex"} and "over the member limit" in submission.skipped[0]


def test_a_gzipped_single_file_a_pdf_and_garbage():
    assert read_gz_submission("1", gzip.compress(MAIN)).kind == "single"
    assert read_gz_submission("2", gzip.compress(b"%PDF-1.4 ...")).kind == "pdf"
    assert read_gz_submission("3", b"%PDF-1.5 raw").kind == "pdf"
    with pytest.raises(CorruptArchive, match="gzip"):
        read_gz_submission("4", b"\x1f\x8b\x08\x00garbage")
    with pytest.raises(CorruptArchive):
        read_gz_submission("5", gzip.compress(b"\0" * 100 + b"ustar")[:-4])  # truncated


def test_an_unpacked_folder_skips_symlinks(tmp_path):
    outside = tmp_path / "secret.tex"
    outside.write_text("secret")
    folder = tmp_path / "2101.00004"
    folder.mkdir()
    (folder / "main.tex").write_bytes(MAIN)
    os.symlink(outside, folder / "link.tex")
    submission = read_folder_submission(folder)
    assert set(submission.files) == {"main.tex"} and submission.skipped == ["link.tex (link)"]


def test_bulk_member_names_give_arxiv_ids():
    assert archive.arxiv_id_of("2101/2101.00001.gz") == "2101.00001"
    assert archive.arxiv_id_of("9901/hep-th9901001.gz") == "hep-th/9901001"
    assert archive.arxiv_id_of("0701/math.AG0701001.pdf") == "math.AG/0701001"
    assert archive.arxiv_id_of("2101/readme.txt") is None
