"""citeworth citrec-eval / citrec-train / recommend through Click's runner, on the generated answerable contexts
and on the unarXive 2020 sample's contexts as the arXiv context export writes them."""

import csv
import json

import pytest
from click.testing import CliRunner

from citeworth_assets.cli import main
from citeworth_assets.lib.citrec.contexts import read_catalogue
from citeworth_assets.lib.citrec.dataset import CitrecDatasetSettings, dataset_from_csv
from citeworth_assets.samples.citrec import CitrecSampleSettings, write_citrec_sample
from citeworth_models.citrec.registry import create_model
from citeworth_models.citrec.store import IndexWriter


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    return write_citrec_sample(tmp_path_factory.mktemp("citrec_cli"), CitrecSampleSettings(works=30, citing_papers=90))


def _bow_at_10(output: str) -> float:
    line = next(line for line in output.splitlines() if line.split()[:1] == ["bow"])
    return float(line.split()[3])


def test_citrec_eval_prints_table_6_and_scores_and_writes_results(sample, tmp_path):
    out = tmp_path / "out"
    args = [
        "citrec-eval",
        "--contexts",
        str(sample.contexts_path),
        "--catalogue",
        str(sample.catalogue_path),
        "--min-citing-papers",
        "3",
        "--models",
        "bow,fos",
        "--out",
        str(out),
    ]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "data set contexts: split <=2016 / >=2017" in result.output
    assert "unusable lines: 2 {'bad_context_line': 2}" in result.output  # the sample's two damaged rows
    assert _bow_at_10(result.output) > 0.8
    with open(out / "results.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 2 * 4 * 10 and {r["model"] for r in rows} == {"bow", "fos"}
    assert json.loads((out / "statistics.json").read_text())["test_items"] > 50
    assert (out / "metrics_against_k.png").stat().st_size > 10_000


def test_citrec_eval_rejects_an_unknown_model_before_any_work(sample):
    result = CliRunner().invoke(
        main, ["citrec-eval", "--contexts", str(sample.contexts_path), "--models", "bow,tfidf2"]
    )
    assert result.exit_code == 2 and "unknown ['tfidf2']" in result.output


def test_recommend_without_an_index_names_the_command_that_trains_one(tmp_path):
    result = CliRunner().invoke(main, ["recommend", "--context", "a sparse lattice estimator", "--data", str(tmp_path)])
    assert result.exit_code == 1
    assert "no trained citation recommendation index" in result.output and "citeworth citrec-train" in result.output


def test_recommend_prints_titles_and_scores_from_the_latest_index(sample, tmp_path):
    dataset = dataset_from_csv(
        [sample.contexts_path], CitrecDatasetSettings("generated", 5, 3, 2016), read_catalogue(sample.catalogue_path)
    )
    titles = {w.id: w.title for w in sample.works}
    with IndexWriter(
        tmp_path / "models" / "citrec", "generated", dataset.candidates, [titles[w] for w in dataset.candidates]
    ) as index:
        index.add(create_model("bow").fit(dataset.candidate_texts()))
    work = next(w for w in sample.works if w.id in dataset.candidates)
    context = f"We use the {work.phrase} MAINCIT to study {work.topic[0]} ."
    result = CliRunner().invoke(main, ["recommend", "--context", context, "--top", "3", "--data", str(tmp_path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == 3 and lines[0].split()[2] == work.id and lines[0].endswith(work.title)
    scores = [float(line.split()[1]) for line in lines]
    assert scores == sorted(scores, reverse=True) and scores[-1] > 0
    wrong = CliRunner().invoke(main, ["recommend", "--context", context, "--model", "claim", "--data", str(tmp_path)])
    assert wrong.exit_code == 2 and "trained: bow" in wrong.output


@pytest.mark.slow  # runs the citrec job in-process on a fresh Dagster instance (about 15 s)
def test_citrec_train_builds_the_index_that_recommend_reads(sample, tmp_path, monkeypatch):
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    export = tmp_path / "data" / "exports" / "arxiv"
    export.mkdir(parents=True)
    for path in (sample.contexts_path, sample.catalogue_path):
        (export / path.name).write_bytes(path.read_bytes())
    data = str(tmp_path / "data")
    trained = CliRunner().invoke(
        main, ["citrec-train", "--data", data, "--name", "generated", "--min-citing-papers", "3", "--models", "bow"]
    )
    assert trained.exit_code == 0, trained.output
    work = sample.works[0]
    result = CliRunner().invoke(
        main, ["recommend", "--context", f"the {work.phrase} MAINCIT", "--top", "1", "--data", data]
    )
    assert result.exit_code == 0 and work.id in result.output, result.output


@pytest.mark.slow  # exports the contexts of 100 real papers (about 10 s) and evaluates them twice
def test_citrec_eval_on_the_unarxive_2020_sample_export(shared_data, tmp_path):
    from citeworth_assets.lib.arxiv.context_extraction import contexts_2020
    from citeworth_assets.lib.arxiv.context_windows import PUBLISHED_SETTINGS
    from citeworth_assets.lib.arxiv.csv_export import write_contexts_csv
    from citeworth_assets.lib.read_issues import IssueLog

    papers = shared_data / "unarxive-2020" / "papers"
    csv_path = tmp_path / "unarxive2020.csv"
    assert (
        write_contexts_csv(
            (row.as_row() for row in contexts_2020(papers, papers / "refs.db", PUBLISHED_SETTINGS, IssueLog())),
            csv_path,
        )
        > 2000
    )
    # The thesis's thresholds: 100 random papers cite no work from 5 papers, so there is no candidate.
    # Zeros are no result: the command says nothing was evaluated and exits 1 (issue 24 item 11).
    strict = CliRunner().invoke(main, ["citrec-eval", "--contexts", str(csv_path)])
    assert strict.exit_code == 1, strict.output
    assert "0 candidates, 0 tested, 0 test items" in strict.output and _bow_at_10(strict.output) == 0.0
    assert "nothing was evaluated" in strict.output and "--min-contexts" in strict.output
    loose = CliRunner().invoke(
        main, ["citrec-eval", "--contexts", str(csv_path), "--min-contexts", "1", "--min-citing-papers", "1"]
    )
    assert loose.exit_code == 0, loose.output
    header = loose.output.splitlines()[0]
    candidates, test_items = int(header.split(", ")[1].split()[0]), int(header.split(", ")[3].split()[0])
    assert candidates > 500 and 0 < test_items < 20
    assert _bow_at_10(loose.output) > 0


def test_citrec_eval_of_an_empty_file_says_nothing_was_evaluated(tmp_path):
    """Issue 24 item 11: zeros with exit 0 looked like a result."""
    from click.testing import CliRunner

    from citeworth_assets.cli import main

    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"")
    result = CliRunner().invoke(main, ["citrec-eval", "--contexts", str(empty), "--models", "bow"])
    assert result.exit_code == 1 and "nothing was evaluated: 0 candidates, 0 test items" in result.output
