from transformers import AutoModel, AutoTokenizer, BertTokenizerFast

from citeworth_models.training import autocast, batched, pick_device


def test_tiny_bert_loads_offline(tiny_encoder):
    tokenizer = AutoTokenizer.from_pretrained(tiny_encoder)
    model = AutoModel.from_pretrained(tiny_encoder)
    assert isinstance(tokenizer, BertTokenizerFast)
    assert model.config.hidden_size == 32 and model.config.num_hidden_layers == 2
    out = model(**tokenizer(["It has been shown that the error rate varies."], return_tensors="pt"))
    assert out.last_hidden_state.shape[-1] == 32


def test_cpu_helpers():
    device = pick_device("cpu")
    assert device.type == "cpu"
    with autocast(device):
        pass
    assert batched(list(range(5)), 2) == [[0, 1], [2, 3], [4]]
    assert sorted(sum(batched(list(range(5)), 2, shuffle=True, seed=3), [])) == list(range(5))


def test_wordpiece_vocabulary_is_learned(tmp_path):
    from citeworth_models.tiny_bert import train_wordpiece

    tokenizer = train_wordpiece(["It has been shown that the error rate varies with temperature."] * 5, tmp_path, 300)
    reloaded = AutoTokenizer.from_pretrained(tmp_path)
    assert len(reloaded) > 20
    assert reloaded.unk_token not in reloaded.tokenize("the error rate")
    assert reloaded("the error")["input_ids"] == tokenizer("the error")["input_ids"]
