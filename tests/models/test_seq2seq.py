"""The seq2seq unit on a tiny random BART: it learns a few of the paper's own examples, generates, keeps prompts."""

import pytest
import torch
from citesum_examples import EXAMPLES

from citeworth_assets.lib.citesum.abstractive import TABLE_5, evaluation_pairs, training_pairs
from citeworth_models import seq2seq

PARAMS = {**seq2seq.TINY_PARAMS, "batch_size": 4, "epochs": 15, "lr": 3e-3, "device": "cpu", "max_new_tokens": 12}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    texts = [text for example in EXAMPLES for text in (example["abstract"], example["target"], example["title"])]
    folder = seq2seq.build_tiny_bart(texts, tmp_path_factory.mktemp("tiny_bart"), vocab_size=400)
    return folder


def test_a_tiny_bart_learns_the_pairs_and_generates_text(tiny):
    torch.set_num_threads(1)
    model, tokenizer = seq2seq.load(tiny)
    for token in seq2seq.PREFIXES.values():  # one token each, not split into pieces
        assert len(tokenizer(token, add_special_tokens=False).input_ids) == 1
    pairs = [(example["abstract"], example["target"]) for example in EXAMPLES]
    before = seq2seq.batch_loss(model, tokenizer, pairs, PARAMS, torch.device("cpu")).item()
    chosen = []
    scores = seq2seq.fine_tune(
        model,
        tokenizer,
        pairs,
        [(source, [target]) for source, target in pairs[:2]],
        {**PARAMS, "epochs": 3, "batch_size": 2},
        lambda outputs, references: float(len(" ".join(outputs))),
        on_epoch=lambda epoch, score: chosen.append(epoch),
    )
    assert chosen == [0, 1, 2] and len(scores) == 3
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for _ in range(40):
        optimizer.zero_grad()
        seq2seq.batch_loss(model, tokenizer, pairs, PARAMS, torch.device("cpu")).backward()
        optimizer.step()
    after = seq2seq.batch_loss(model, tokenizer, pairs, PARAMS, torch.device("cpu")).item()
    assert after < before / 2  # learns the four pairs
    sources = [source for source, _ in pairs]
    prompts = ["This paper", None, "We propose a", None]
    outputs, speed = seq2seq.generate(model, tokenizer, sources, PARAMS, prompts=prompts)
    assert all(isinstance(text, str) for text in outputs) and any(outputs[1:2] + outputs[3:])
    assert outputs[0].startswith("This paper") and outputs[2].startswith("We propose a")
    assert speed["generated_examples_per_second"] > 0 and speed["generated_tokens_per_second"] > 0


def test_multi_task_pairs_carry_prefix_tokens_and_leave_out_missing_targets():
    table = {experiment.targets: experiment for experiment in TABLE_5 if experiment.source == "abstract"}
    three = training_pairs(EXAMPLES, table["tldr/title/discipline"])
    prefixes = [source.split(" ", 1)[0] for source, _ in three]
    assert prefixes.count("<|TLDR|>") == 4 and prefixes.count("<|TITLE|>") == 4 and prefixes.count("<|DISCI|>") == 3
    assert ("<|DISCI|> " + EXAMPLES[1]["abstract"], "Computer Science") in three
    assert ("<|TITLE|> " + EXAMPLES[2]["abstract"], EXAMPLES[2]["title"].replace("\n", " ")) in three  # newline out
    assert [source for source, _ in training_pairs(EXAMPLES, table["tldr"])] == [e["abstract"] for e in EXAMPLES]
    scored = evaluation_pairs(EXAMPLES, table["tldr/title"])  # scored on the TLDR, behind its prefix
    assert scored[0] == ("<|TLDR|> " + EXAMPLES[0]["abstract"], [EXAMPLES[0]["target"]])
    with_discipline = next(e for e in TABLE_5 if e.source == "abstract+discipline")
    assert [s for s, _ in training_pairs(EXAMPLES, with_discipline)][0].startswith("Physics </s> We present data")
    assert len(training_pairs(EXAMPLES, with_discipline)) == 3  # the example without a discipline is left out


@pytest.mark.parametrize(
    "text,message",
    [("{", "not JSON"), ('{"epochs": 1}', "keys among"), ("[1]", "keys among")],
)
def test_the_seq2seq_config_of_build_is_checked_before_any_work(text, message):
    import click

    from citeworth_assets.cli.seq2seq import seq2seq_config

    with pytest.raises(click.BadParameter, match=message):
        seq2seq_config(text)
    assert seq2seq_config('{"seeds": 1, "params": {"epochs": 1}}') == {"seeds": 1, "params_json": '{"epochs": 1}'}
