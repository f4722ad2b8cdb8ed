"""MAG TSV and OpenAlex snapshot readers into the works catalogue, with damaged lines."""

import gzip
import json

from citeworth_assets.lib.mag import tsv
from citeworth_assets.lib.mag.catalogue import (
    mag_work_references,
    mag_works,
    openalex_works,
)
from citeworth_assets.lib.mag.titles import mag_normalise_title, surname
from citeworth_assets.lib.read_issues import IssueLog


def write(path, lines):
    path.write_bytes(b"".join((line.encode() if isinstance(line, str) else line) + b"\n" for line in lines))


def paper_line(paper_id, title, year, citations, doi="", columns=26):
    cells = [
        str(paper_id),
        "1",
        doi,
        "Journal",
        mag_normalise_title(title),
        title,
        "",
        str(year),
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "0",
        str(citations),
        str(citations),
        "",
        "",
        "",
        "",
        "2016-06-24",
    ]
    return "\t".join(cells[:columns])


def mag_folder(tmp_path):
    write(
        tmp_path / "Papers.txt",
        [
            paper_line(2081580037, "WordNet: a lexical database for English", 1995, 100, "10.1145/219717.219748"),
            paper_line(2811252340, "hep-th", 2000, 0, columns=20),  # an older release: 20 columns
            "123\t1\tbroken line",  # too few columns
            b"2599889364\t1\t\tJournal\tpas\xffs\tPas\xffs\t\t2013" + b"\t" * 11 + b"5",  # invalid UTF-8
            paper_line("notanid", "x", 2000, 1),
        ],
    )
    write(tmp_path / "Authors.txt", ["1\t1\tgeorge a miller\tGeorge A. Miller\t\t1", "2\t1\the\tHe\t\t1"])
    write(tmp_path / "PaperAuthorAffiliations.txt", ["2081580037\t1\t\t1\tG. Miller\t", "2811252340\t2\t\t1\tHe\t"])
    write(
        tmp_path / "FieldsOfStudy.txt",
        ["41008148\t1\tcomputer science\tComputer Science\t\t0", "204321447\t1\tnlp\tNatural language processing\t\t1"],
    )
    write(tmp_path / "PaperFieldsOfStudy.txt", ["2081580037\t41008148\t0.9", "2081580037\t204321447\t0.5"])
    write(tmp_path / "PaperReferences.txt", ["2599889364\t2081580037", "2599889364"])
    return tmp_path


def test_title_normalisation_as_the_mag():
    assert mag_normalise_title("WordNet: a lexical database for English") == "wordnet a lexical database for english"
    assert mag_normalise_title("Şenoğuz’s  “Reheat”\ttemperature") == "senoguz s reheat temperature"
    assert surname("Trevor J. Hastie") == "hastie"


def test_mag_works_by_position_with_old_releases_and_bad_lines(tmp_path):
    log = IssueLog()
    works = {w["mag_id"]: w for w in mag_works(mag_folder(tmp_path), log)}
    assert set(works) == {"2081580037", "2811252340", "2599889364"}
    wordnet = works["2081580037"]
    assert wordnet["authors"] == ["George A. Miller"] and wordnet["fields"] == ["Computer Science"]
    assert wordnet["doi"] == "10.1145/219717.219748" and wordnet["citation_count"] == 100 and wordnet["year"] == 1995
    assert works["2811252340"]["normalised_title"] == "hep th" and works["2811252340"]["citation_count"] == 0
    assert "\ufffd" in works["2599889364"]["title"]
    assert log.counts == {"too_few_columns": 1, "invalid_utf8": 1, "bad_value": 1}
    issue = next(i for i in log.issues if i.kind == "too_few_columns")
    assert issue.file.endswith("Papers.txt") and issue.line == 3
    edges = list(mag_work_references(tmp_path, log))
    assert edges == [{"citing_work_id": "mag:2599889364", "cited_work_id": "mag:2081580037", "source": "mag"}]
    assert log.counts["too_few_columns"] == 2


def test_every_mag_file_requires_its_columns(tmp_path):
    for spec in tsv.MAG_FILES:
        path = tmp_path / spec.name
        write(path, ["\t".join(["1"] * (spec.required - 1))])
        log = IssueLog()
        assert list(tsv.read_mag_file(path, spec, log)) == []
        assert log.counts == {"too_few_columns": 1}, spec.name


def test_openalex_snapshot_into_the_same_rows(tmp_path):
    part = tmp_path / "works" / "updated_date=2023-05-01" / "part_000.gz"
    part.parent.mkdir(parents=True)
    records = [
        {
            "id": "https://openalex.org/W2081580037",
            "doi": "https://doi.org/10.1145/219717.219748",
            "title": "WordNet: a lexical database for English",
            "publication_year": 1995,
            "cited_by_count": 12000,
            "ids": {"openalex": "https://openalex.org/W2081580037", "mag": "2081580037"},
            "authorships": [{"author": {"display_name": "George A. Miller"}}],
            "concepts": [{"display_name": "Computer Science", "level": 0}, {"display_name": "WordNet", "level": 2}],
            "referenced_works": ["https://openalex.org/W1"],
        },
        {
            "id": "https://openalex.org/W3",
            "doi": "https://doi.org/10.48550/arXiv.1703.01234",
            "title": None,
            "publication_year": "2017",
            "ids": {},
        },
    ]
    body = "".join(json.dumps(r) + "\n" for r in records).encode() + b'{"id": "https://openalex.org/W4", "ti'
    part.write_bytes(gzip.compress(body))
    log, edges = IssueLog(), []
    works = list(openalex_works(tmp_path, log, edges))
    assert [w["work_id"] for w in works] == ["W2081580037", "W3"]
    assert works[0]["mag_id"] == "2081580037" and works[0]["fields"] == ["Computer Science"]
    assert works[0]["normalised_title"] == "wordnet a lexical database for english"
    assert works[1]["arxiv_id"] == "1703.01234" and works[1]["year"] is None
    assert edges == [{"citing_work_id": "W2081580037", "cited_work_id": "W1", "source": "openalex"}]
    assert log.counts == {"bad_type": 1, "truncated_line": 1}
