"""CiteSum's abstractive models as an asset: every row of Tables 5-7 from a small release, the tiny BART marked
meaningless, MLflow runs with per-epoch validation ROUGE, and the warehouse view with the agreed columns."""

import json

import dagster as dg
import duckdb
import mlflow
import pytest
from citesum_examples import EXAMPLES

from citeworth_assets.defs.citesum.abstractive import citesum_abstractive_scores
from citeworth_assets.defs.warehouse.assets import build_sql_model_assets
from citeworth_assets.lib import lake
from citeworth_assets.lib.citesum.abstractive import aic_sections, scores_schema
from citeworth_assets.lib.citesum.tables import example_schema
from citeworth_assets.lib.s2orc.schema import paragraph_schema
from citeworth_assets.resources import PlatformResource, TrainingDevice

pytestmark = pytest.mark.slow  # trains 19 tiny models; `make test-fast` skips it

COLUMNS = [
    "model", "checkpoint", "meaningful", "task", "source", "targets", "eval_set", "setting", "variant",
    "train_examples", "seeds", "rouge1", "rouge2", "rougeL", "macro_f1", "weighted_f1", "examples",
    "mlflow_run_id", "reason",
]  # fmt: skip


def release_rows() -> list[dict]:
    """The paper's four examples, three times each (train), once more each for validation and test; a repeated
    span and a blank target among them, as real releases have."""
    rows = []
    for copy, split in enumerate(["train", "train", "train", "validation", "test"]):
        for index, example in enumerate(EXAMPLES):
            rows.append(
                {
                    **{name: None for name in example_schema().names},
                    **example,
                    "cited_paper_id": f"{example['cited_paper_id']}-{copy}",
                    "citing_paper_id": f"citing-{copy}-{index}",
                    "sentence": example["target"],
                    "split": split,
                }
            )
    rows[1]["abstract"] = rows[1]["abstract"] + " " + rows[1]["abstract"]  # a repeated span
    rows[2]["target"] = "  "  # blank: left out of training
    return rows


def paragraph(paper_id: str, index: int, section: str, text: str) -> dict:
    row = {name: None for name in paragraph_schema().names}
    return row | {"paper_id": paper_id, "paragraph_index": index, "section": section, "text": text, "shard": "0"}


def test_tables_5_to_7_are_trained_tracked_and_published(tmp_path):
    data, dumps = tmp_path / "data", tmp_path / "dumps"
    lake.write_partition(data / "lake", "citesum_dataset", example_schema(), release_rows())
    introduction = "Traffic jams form near\nbottlenecks such as lane closings."
    paragraphs = [
        paragraph("traffic-4", 1, "Conclusion", "The IDM reproduces every observed state."),
        paragraph("traffic-4", 0, "1 Introduction", introduction),
        paragraph("traffic-4", 2, "Results", "Not part of AIC."),
    ]
    lake.write_partition(data / "lake", "s2orc_paragraphs", paragraph_schema(), paragraphs, key="0")
    assert aic_sections(data / "lake", {"traffic-4", "maml-4"}) == {
        "traffic-4": f"{introduction} The IDM reproduces every observed state."
    }
    folder = dumps / "scitldr" / "SciTLDR-A"
    folder.mkdir(parents=True)
    for split, count in (("train", 3), ("dev", 1), ("test", 2)):
        records = [{"source": [e["abstract"]], "target": ["We " + e["title"], e["target"]]} for e in EXAMPLES]
        (folder / f"{split}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records[:count]))
    view = [a for a in build_sql_model_assets() if a.key.path == ["citesum", "abstractive_scores"]]
    result = dg.materialize(
        [citesum_abstractive_scores, *view],
        resources={
            "citeworth": PlatformResource(dumps=str(dumps), data=str(data)),
            "training_device": TrainingDevice(device="cpu", cpu_threads=1),
        },
        run_config={"ops": {"citesum_abstractive_scores": {"config": {"seeds": 1, "params_json": '{"epochs": 1}'}}}},
    )
    assert result.success
    with duckdb.connect(str(data / "warehouse.duckdb"), read_only=True) as connection:
        relation = connection.sql("SELECT * FROM citesum.abstractive_scores")
        assert relation.columns == COLUMNS
        rows = relation.to_arrow_table().cast(scores_schema()).to_pylist()
    assert len(rows) == 16 and all(r["checkpoint"] == "tiny-random-bart" and not r["meaningful"] for r in rows)
    assert all(r["reason"] is None and r["mlflow_run_id"] for r in rows), [r["reason"] for r in rows]
    by_shape = {(r["model"], r["task"], r["source"], r["targets"], r["setting"], r["variant"]): r for r in rows}
    aic = by_shape[("BART", "tldr", "aic", "tldr", "fine-tuned", "")]
    assert aic["examples"] == 4 and aic["rouge1"] is not None and aic["train_examples"] is None
    discipline = by_shape[("CITES", "discipline", "abstract", "discipline", "fine-tuned", "")]
    assert discipline["examples"] == 3 and discipline["rouge1"] is None and 0 <= discipline["macro_f1"] <= 1
    few = by_shape[("BART", "tldr", "abstract", "tldr", "few-shot", "")]
    assert few["train_examples"] == 3 and few["seeds"] == 1 and few["examples"] == 2
    gold = by_shape[("CITES", "tldr", "abstract", "tldr", "zero-shot", "prompting, gold 3 tokens")]
    assert gold["eval_set"] == "scitldr-a" and gold["examples"] == 2 and gold["rouge1"] > 0  # "We Congested traffic"
    client = mlflow.tracking.MlflowClient(f"sqlite:///{data / 'mlflow.db'}")
    run = client.get_run(by_shape[("BART", "tldr", "abstract", "tldr", "fine-tuned", "")]["mlflow_run_id"])
    assert run.data.tags["meaningful"] == "False" and run.data.params["num_beams"] == "2"
    assert {"test_rouge1", "generated_tokens_per_second"} <= set(run.data.metrics)
    assert len(client.get_metric_history(run.info.run_id, "validation_rouge_mean")) == 1
    assert (data / "models" / "citesum" / "BART-tldr-abstract-tldr" / "config.json").is_file()
