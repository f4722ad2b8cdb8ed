"""The evaluation data set survives the lake: rows out, rows back, the same candidates, contexts and test items."""

import pyarrow as pa
import pytest

from citeworth_assets.lib.citrec.contexts import read_catalogue
from citeworth_assets.lib.citrec.dataset import CitrecDatasetSettings, dataset_from_csv
from citeworth_assets.lib.citrec.tables import (
    candidate_rows,
    candidate_schema,
    check_dataset_name,
    context_rows,
    context_schema,
    dataset_from_tables,
    settings_from_statistics,
    statistics_row,
    statistics_schema,
)
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.samples.citrec import CitrecSampleSettings, write_citrec_sample


def test_dataset_round_trips_through_its_lake_rows(tmp_path):
    sample = write_citrec_sample(tmp_path, CitrecSampleSettings(works=20, citing_papers=60))
    catalogue = read_catalogue(sample.catalogue_path)
    issues = IssueLog()
    settings = CitrecDatasetSettings("generated", 4, 2, 2015, ("Physics",))
    built = dataset_from_csv([sample.contexts_path], CitrecDatasetSettings("generated", 4, 2, 2015), catalogue, issues)
    built.settings = settings  # the settings travel in the statistics row, citing_fields included
    contexts = pa.Table.from_pylist(list(context_rows(built)), schema=context_schema())
    candidates = pa.Table.from_pylist(candidate_rows(built, catalogue), schema=candidate_schema())
    statistics = pa.Table.from_pylist([statistics_row(built, issues, ["Physics"])], schema=statistics_schema())
    row = statistics.to_pylist()[0]
    assert row["read_issues"] == 2 and row["candidates"] == len(built.candidates) > 5
    back = dataset_from_tables(settings_from_statistics(row), candidates, contexts)
    assert back.settings == settings
    assert back.candidates == built.candidates
    assert back.train == built.train and back.test == built.test
    assert back.train_citing == built.train_citing and back.test_citing == built.test_citing
    titled = candidates.to_pylist()[0]
    assert titled["title"] == catalogue[titled["work"]].title and titled["train_contexts"] == len(
        built.train[titled["work"]]
    )
    assert sum(candidates.column("test_items").to_pylist()) == len(built.test)


@pytest.mark.parametrize("name", ["arxiv", "arxiv_2016", "mag2"])
def test_dataset_names_are_partition_keys(name):
    assert check_dataset_name(name) == name


@pytest.mark.parametrize("name", ["ArXiv", "arxiv-loose", "", "2016", "a/b"])
def test_other_dataset_names_fail_naming_the_rule(name):
    with pytest.raises(ValueError, match="lower-case letters"):
        check_dataset_name(name)
