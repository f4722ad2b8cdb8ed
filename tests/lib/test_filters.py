"""The one filter contract: criteria give None or a registered reason; the runner writes kept, dropped and tallies."""

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from citeworth_assets.lib import filters, lake
from citeworth_assets.lib.reasons import ReasonRegistry

REASONS = ReasonRegistry("demo", ("word",))
REASONS.describe("word", {"too_short": "fewer than 3 letters", "not_lower": "has an upper-case letter"})


@filters.criterion(REASONS, "too_short")
def long_enough(word: str) -> bool:
    return len(word) >= 3


@filters.criterion(REASONS, "not_lower")
def lower_case(word: str) -> bool:
    return word == word.lower()


@filters.column_criterion(REASONS, "too_short")
def long_enough_column(words: pa.Table) -> np.ndarray:
    return pc.fill_null(pc.greater_equal(pc.utf8_length(words.column("word")), 3), False).to_numpy(zero_copy_only=False)


@filters.column_criterion(REASONS, "not_lower")
def lower_case_column(words: pa.Table) -> np.ndarray:
    column = words.column("word")
    return pc.fill_null(pc.equal(column, pc.utf8_lower(column)), False).to_numpy(zero_copy_only=False)


WORDS = ["cell", "Hi", "DNA", "ox", "gene", "Protein"]
ROWS = [{"word": word} for word in WORDS]
SCHEMA = pa.schema([("word", pa.string())])
DROP_SCHEMA = pa.schema([("word", pa.string()), ("reason", pa.string())])


def test_the_first_failing_criterion_names_the_drop_row_by_row_and_over_columns():
    by_item = [filters.first_failure((long_enough, lower_case), word) for word in WORDS]
    assert by_item == [None, "too_short", "not_lower", "too_short", None, "not_lower"]
    over_columns = filters.first_failures((long_enough_column, lower_case_column), pa.Table.from_pylist(ROWS))
    assert over_columns.tolist() == by_item


def test_a_reason_must_be_registered_where_it_is_declared_and_where_it_is_given():
    with pytest.raises(filters.UnregisteredReason, match="too_long"):
        filters.criterion(REASONS, "too_long")(lambda word: True)
    liar = filters.criterion(REASONS, "too_short", "not_lower")(lambda word: "boring")
    with pytest.raises(filters.UnregisteredReason, match="boring"):
        liar("word")
    with pytest.raises(ValueError, match="not a registered demo drop reason"):
        filters.Tally(REASONS).drop("boring")


def test_the_runner_writes_kept_dropped_and_their_tally_together(tmp_path):
    kept, dropped = ("demo_kept", SCHEMA), ("demo_dropped", DROP_SCHEMA)
    with filters.run(tmp_path, "demo_step", "s_0", [REASONS], kept, dropped) as run:
        for row in ROWS:
            if reason := filters.first_failure((long_enough, lower_case), row["word"]):
                run.drop(reason, {**row, "reason": reason})
            else:
                run.keep(row)
    assert lake.read_partition(tmp_path, "demo_kept", "s_0").column("word").to_pylist() == ["cell", "gene"]
    assert lake.read_partition(tmp_path, "demo_dropped", "s_0").num_rows == 4
    tallies = lake.read_partition(tmp_path, "filter_tallies", "demo_step.s_0", dimension="tally").to_pylist()
    assert tallies == [
        {"step": "demo_step", "partition": "s_0", "domain": "demo", "reason": None, "items": 2},
        {"step": "demo_step", "partition": "s_0", "domain": "demo", "reason": "not_lower", "items": 2},
        {"step": "demo_step", "partition": "s_0", "domain": "demo", "reason": "too_short", "items": 2},
    ]


def test_a_failed_run_publishes_nothing(tmp_path):
    with pytest.raises(ValueError, match="boring"):
        with filters.run(tmp_path, "demo_step", "s_0", [REASONS], ("demo_kept", SCHEMA)) as run:
            run.keep({"word": "cell"})
            run.drop("boring")
    assert not lake.has_data(tmp_path, "demo_kept") and not lake.has_data(tmp_path, "filter_tallies")


def test_every_registered_reason_of_a_filter_has_its_criterion():
    """Adding a drop reason is registering it and writing its criterion (CONTRIBUTING.md): neither without the other."""
    from citeworth_assets.lib.citesum import criteria as citesum
    from citeworth_assets.lib.citesum.reasons import REASONS as CITESUM_REASONS
    from citeworth_assets.lib.s2orc import candidate_filter as s2orc
    from citeworth_assets.lib.sciqfs import examples as sciqfs
    from citeworth_assets.lib.sciqfs.reasons import REASONS as SCIQFS_REASONS

    def given(*filters_):
        return [reason for criteria in filters_ for judge in criteria for reason in judge.reasons]

    assert given(s2orc.CRITERIA) == list(s2orc.REASONS)
    assert sorted(given(citesum.PARAGRAPH_CRITERIA, citesum.SENTENCE_CRITERIA)) == sorted(CITESUM_REASONS)
    assert sorted(given(sciqfs.PAIR_CRITERIA)) == sorted(SCIQFS_REASONS)
