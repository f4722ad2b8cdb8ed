"""CiteSum §4.1's style rules between CiteSum and SciTLDR, the SciTLDR layout, and Table 7's discipline F1."""

import json

import pytest
from citesum_examples import EXAMPLES

from citeworth_assets.lib.citesum import transfer
from citeworth_assets.lib.citesum.abstractive import discipline_f1, rouge_means
from citeworth_assets.lib.citesum.baselines import TldrFormatError


def test_post_processing_turns_a_leading_ref_into_this_paper_and_drops_the_others():
    # CiteSum's own TLDRs (Appendix A) as a model could output them.
    output = "REF proposed a multi-projection-center (MPC) model with six intrinsic parameters"
    assert transfer.post_process(output) == "This paper" + output.removeprefix("REF")
    assert transfer.post_process(EXAMPLES[3]["target"]) == (
        "In , the authors focus on the use of a private cloud environment in order to improve the High Performance "
        "Computing (HPC) research infrastructure."
    )
    assert transfer.post_process("Zhang et al REF proposed an MPC model REF.") == "Zhang et al proposed an MPC model ."
    assert transfer.post_process("REFERENCE models are rare") == "REFERENCE models are rare"  # a word, not the token
    assert transfer.remove_ref("This paper REF proposes REF a model") == "This paper proposes a model"


def test_few_shot_references_lose_their_leading_we_and_prompts_keep_three_words():
    assert transfer.rewrite_we("We propose a probabilistic meta-learning algorithm.") == (
        "This paper REF propose a probabilistic meta-learning algorithm."
    )
    assert transfer.rewrite_we("  We present data from several German freeways.").startswith("This paper REF present")
    assert transfer.rewrite_we("Weather data is scarce; We study it.") == "Weather data is scarce; We study it."
    assert transfer.rewrite_we("In this paper we propose X.") == "In this paper we propose X."
    assert transfer.gold_prompt(["We present a novel\nmodel of traffic", "other"]) == "We present a"
    assert transfer.gold_prompt(["Short"]) == "Short"


def test_scitldr_is_read_from_the_dump_root_and_a_missing_folder_is_a_reason(tmp_path):
    reason = transfer.missing_reason(tmp_path)
    assert str(tmp_path / "scitldr" / "SciTLDR-A") in reason and "train.jsonl, dev.jsonl, test.jsonl" in reason
    folder = tmp_path / "scitldr" / "SciTLDR-A"
    folder.mkdir(parents=True)
    record = {"source": ["We present data.", "We  simulate\nit."], "target": ["We present traffic data.", "Data."]}
    for split in transfer.SPLITS:
        (folder / f"{split}.jsonl").write_text(json.dumps(record) + "\n\n" + json.dumps(record) + "\n")
    assert transfer.missing_reason(tmp_path) is None
    assert transfer.read_split(tmp_path, "dev")[0] == ("We present data. We simulate it.", record["target"])
    sample = transfer.few_shot_sample(transfer.read_split(tmp_path, "train"), 32, seed=1)
    assert sample == [("We present data. We simulate it.", "This paper REF present traffic data.")] * 2
    (folder / "test.jsonl").write_text('{"source": ["x"], "target": []}\n')
    with pytest.raises(TldrFormatError, match=r"test.jsonl:1: field 'target' holds no reference"):
        transfer.read_split(tmp_path, "test")


def test_few_shot_samples_differ_by_seed_and_keep_file_order():
    train = [(f"source {i}", [f"We did {i}."]) for i in range(300)]
    first, second = transfer.few_shot_sample(train, 32, 0), transfer.few_shot_sample(train, 32, 1)
    assert len(first) == 32 and first != second and first == transfer.few_shot_sample(train, 32, 0)
    assert [int(s.split()[1]) for s, _ in first] == sorted(int(s.split()[1]) for s, _ in first)


def test_scores_use_the_baselines_scorer_and_discipline_f1_counts_invalid_names_wrong():
    assert rouge_means(["a sparse graph network", ""], [["x y", "a sparse graph network"], ["birds"]]) == {
        "rouge1": 50.0,
        "rouge2": 50.0,
        "rougeL": 50.0,
    }
    gold = ["Computer Science", "Computer Science", "Computer Science", "Physics"]
    assert discipline_f1(["Computer Science"] * 4, gold) == {"macro_f1": 0.4286, "weighted_f1": 0.6429}
    # "Physic" names no discipline: Physics is missed (F1 0), Computer Science stays exact (F1 1).
    assert discipline_f1(["Computer Science", "Computer Science", "Computer Science", "Physic"], gold)["macro_f1"] == (
        0.5
    )
    assert discipline_f1(gold, gold) == {"macro_f1": 1.0, "weighted_f1": 1.0}
