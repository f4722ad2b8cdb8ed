"""The demo's SciTLDR-A sample: the released files' fields, read by the transfer's reader, in the authors' style that
CiteSum §4.1's rules rewrite, with the faults of real files."""

import json

from citeworth_assets.lib.citesum import transfer
from citeworth_assets.samples.scitldr import SPLITS, write_scitldr_sample


def test_the_sample_is_read_as_scitldr_and_carries_its_style_and_faults(tmp_path):
    assert write_scitldr_sample(tmp_path, seed=3) == SPLITS
    assert transfer.missing_reason(tmp_path) is None
    train, test = transfer.read_split(tmp_path, "train"), transfer.read_split(tmp_path, "test")
    assert len(train) == 160 >= max(size for _, size in transfer.FEW_SHOT_SIZES) and len(test) == 32
    assert all(len(references) == 1 for _, references in train)
    assert any(len(references) > 1 for _, references in test)
    assert any(len(set(references)) < len(references) for _, references in test)  # a repeated reference
    rewritten = [transfer.rewrite_we(references[0]) for _, references in train]
    assert any(text.startswith("This paper REF ") for text in rewritten)  # "We ..." -> "This paper REF ..."
    records = [
        json.loads(line) for line in (tmp_path / "scitldr" / "SciTLDR-A" / "test.jsonl").read_text().splitlines()
    ]
    assert {"source", "source_labels", "rouge_scores", "paper_id", "target", "title"} <= set(records[0])
    assert all(len(r["source"]) == len(r["source_labels"]) == len(r["rouge_scores"]) for r in records)
    train_titles = [json.loads(line)["title"] for line in (tmp_path / "scitldr/SciTLDR-A/train.jsonl").open()]
    assert any("\n" in title for title in train_titles)
    assert write_scitldr_sample(tmp_path / "again", seed=3) == SPLITS
    assert (tmp_path / "again/scitldr/SciTLDR-A/dev.jsonl").read_bytes() == (
        tmp_path / "scitldr/SciTLDR-A/dev.jsonl"
    ).read_bytes()  # deterministic for a seed
