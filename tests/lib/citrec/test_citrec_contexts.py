"""Reading unarXive's context CSV: fields, lists, missing values, bad lines counted with file and line."""

import gzip

import pytest

from citeworth_assets.lib.citrec.contexts import WorkInfo, arxiv_year, citing_year, read_catalogue, read_contexts
from citeworth_assets.lib.read_issues import IssueLog

S, L = "\u241e", "\u241f"


def line(
    cited="2038721957",
    adjacent="2081580037",
    citing="None",
    cited_arxiv="None",
    adj_arxiv="None",
    citing_arxiv="1412.3684",
    text="as listed in the Wordnet CIT MAINCIT lexical database .",
):
    return S.join([cited, adjacent, citing, cited_arxiv, adj_arxiv, citing_arxiv, text]) + "\n"


@pytest.mark.parametrize(
    "arxiv_id, year",
    [
        ("1412.3684", 2014),
        ("0704.0001", 2007),
        ("2012.01234v2", 2020),
        ("hep-th/9901001", 1999),
        ("math.AG/0601001", 2006),
        ("cs/0512345", 2005),
        ("hep-ph0606272", 2006),
        ("quant-ph9904013", 1999),
        ("1413.0001", None),
        ("not an id", None),
        (None, None),
    ],
)
def test_arxiv_year(arxiv_id, year):
    assert arxiv_year(arxiv_id) == year


def test_listing_4_2_line_is_read(tmp_path):
    path = tmp_path / "contexts.csv"
    path.write_text(line(adjacent=f"2081580037{L}111"), encoding="utf-8")
    (context,) = list(read_contexts(path))
    assert context.cited == "2038721957"
    assert context.adjacent == ("2081580037", "111")
    assert context.citing == "arXiv:1412.3684"  # no citing MAG id: the arXiv id stands in
    assert context.citing_arxiv == "1412.3684"
    assert "MAINCIT" in context.text and context.line == 1


def test_bad_lines_are_counted_with_file_and_line(tmp_path):
    path = tmp_path / "contexts.csv"
    good = line()
    with open(path, "wb") as f:
        f.write(good.encode())
        f.write("only\u241etwo fields\n".encode())  # line 2
        f.write(line(cited="None").encode())  # line 3: no cited work
        f.write(b"\xff\xfe" + good.encode())  # line 4: not UTF-8
        f.write(line(citing_arxiv="None").encode())  # line 5: no citing paper
        f.write(good.encode())  # line 6
        f.write(good.encode()[:30])  # line 7: truncated, no newline
    issues = IssueLog()
    contexts = list(read_contexts(path, issues))
    assert [c.line for c in contexts] == [1, 6]
    assert issues.counts == {"bad_context_line": 3, "bad_encoding": 1, "truncated_line": 1}
    assert sorted(i.line for i in issues.issues) == [2, 3, 4, 5, 7]
    assert all(i.file == str(path) for i in issues.issues)
    assert "expected 7 fields" in str(next(i for i in issues.issues if i.line == 2))


def test_gzipped_csv_and_arxiv_only_ids(tmp_path):
    path = tmp_path / "contexts.csv.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write(line(cited="None", cited_arxiv="1301.0001", adjacent="None", adj_arxiv=f"1302.0002{L}1303.0003"))
    (context,) = list(read_contexts(path))
    assert context.cited == "arXiv:1301.0001"
    assert context.adjacent == ("arXiv:1302.0002", "arXiv:1303.0003")


def test_catalogue_year_wins_and_bad_rows_counted(tmp_path):
    path = tmp_path / "catalogue.jsonl"
    path.write_text(
        '{"id": "arXiv:1412.3684", "year": 2015, "title": "T", "fields_of_study": ["WordNet"]}\n'
        '{"id": "x", "year": "2015"}\n',
        encoding="utf-8",
    )
    issues = IssueLog()
    catalogue = read_catalogue(path, issues)
    assert catalogue == {"arXiv:1412.3684": WorkInfo(2015, "T", ("WordNet",))}
    assert issues.counts == {"bad_catalogue_row": 1}
    context_path = tmp_path / "c.csv"
    context_path.write_text(line(), encoding="utf-8")
    (context,) = list(read_contexts(context_path))
    assert citing_year(context) == 2014
    assert citing_year(context, catalogue) == 2015
