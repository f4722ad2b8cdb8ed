"""CiteSum's abstractive experiments (§3, Table 5; §4.2, Table 7): which model, input and target each row is, the
(source, target) pairs it trains on, and how its test outputs are scored (the extractive baselines' scorer).

No torch here: the rows and pairs are plain data; :mod:`citeworth_assets.lib.citesum.abstractive_runs` trains."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from statistics import mean

from citeworth_assets.lib.citesum.construction import ROUGE_TYPES
from citeworth_assets.lib.lazy import lazy_module

pa = lazy_module("pyarrow")

SCORES_TABLE = "citesum_abstractive_scores"


@cache
def scores_schema() -> pa.Schema:
    return pa.schema(
        [
            ("model", pa.string()),  # BART | CITES
            ("checkpoint", pa.string()),  # the base folder, or tiny-random-bart
            ("meaningful", pa.bool_()),  # false for the tiny random model: its scores mean nothing
            ("task", pa.string()),  # tldr | title | discipline
            ("source", pa.string()),  # abstract | aic | abstract+title | abstract+discipline
            ("targets", pa.string()),  # tldr | tldr/title | tldr/title/discipline | title | discipline
            ("eval_set", pa.string()),  # citesum | scitldr-a | scitldr-aic | scitldr-full
            ("setting", pa.string()),  # fine-tuned | zero-shot | few-shot
            ("variant", pa.string()),  # '' | post-processing | prompting | prompting, gold 3 tokens
            ("train_examples", pa.int64()),  # null: the whole train split
            ("seeds", pa.int32()),  # runs averaged
            ("rouge1", pa.float64()),  # F1 x100
            ("rouge2", pa.float64()),
            ("rougeL", pa.float64()),
            ("macro_f1", pa.float64()),  # discipline only (scikit-learn, 0-1 as the paper prints it)
            ("weighted_f1", pa.float64()),
            ("examples", pa.int64()),  # test examples scored
            ("mlflow_run_id", pa.string()),
            ("reason", pa.string()),  # null when the row has scores; else why it could not be computed
        ]
    )


SEPARATOR = " </s> "  # between title or discipline and the abstract (BART's separator token)


@dataclass(frozen=True)
class Experiment:
    """One fine-tuned row of Table 5 or 7: the model (BART from the base checkpoint, or CITES = BART fine-tuned on
    abstract -> TLDR first), the task scored on test, the input, and the targets trained on."""

    model: str
    task: str
    source: str
    targets: str

    @property
    def name(self) -> str:
        return f"{self.model}-{self.task}-{self.source}-{self.targets}".replace("/", "_").replace("+", "_")

    @property
    def multi_task(self) -> bool:
        return "/" in self.targets


CITES = Experiment("BART", "tldr", "abstract", "tldr")  # §4: CITES is this model
TABLE_5 = (
    CITES,
    Experiment("BART", "tldr", "aic", "tldr"),
    Experiment("BART", "tldr", "abstract+title", "tldr"),
    Experiment("BART", "tldr", "abstract+discipline", "tldr"),
    Experiment("BART", "tldr", "abstract", "tldr/title"),
    Experiment("BART", "tldr", "abstract", "tldr/title/discipline"),
)
TABLE_7 = tuple(
    Experiment(model, task, "abstract", task) for task in ("title", "discipline") for model in ("BART", "CITES")
)
EXPERIMENTS = TABLE_5 + TABLE_7


def source_text(example: dict, source: str, aic: dict[str, str] | None = None) -> str | None:
    """The model input of one release example; None when the input needs a field the example lacks."""
    abstract = example.get("abstract") or ""
    if source == "abstract":
        return abstract
    if source == "aic":
        extra = (aic or {}).get(example["cited_paper_id"])
        return f"{abstract} {extra}" if extra else abstract
    field = {"abstract+title": "title", "abstract+discipline": "discipline"}[source]
    value = " ".join((example.get(field) or "").split())
    return f"{value}{SEPARATOR}{abstract}" if value else None


def target_text(example: dict, target: str) -> str | None:
    value = example.get({"tldr": "target"}.get(target, target))
    value = " ".join((value or "").split())
    return value or None


def training_pairs(examples: list[dict], experiment: Experiment, aic: dict | None = None) -> list[tuple[str, str]]:
    """(source, target) pairs; a multi-task row gives one pair per target, each source behind its prefix token.
    An example whose input or target is missing (a title, a discipline) is left out (§4.2)."""
    from citeworth_models.seq2seq import PREFIXES

    pairs = []
    targets = experiment.targets.split("/")
    for example in examples:
        source = source_text(example, experiment.source, aic)
        if not source:
            continue
        for target in targets:
            text = target_text(example, target)
            if text:
                pairs.append((f"{PREFIXES[target]} {source}" if experiment.multi_task else source, text))
    return pairs


def evaluation_pairs(examples: list[dict], experiment: Experiment, aic: dict | None = None) -> list[tuple[str, list]]:
    """(source, [reference]) of the row's task; a multi-task row is scored on its TLDR output."""
    task_only = Experiment(experiment.model, experiment.task, experiment.source, experiment.task)
    pairs = training_pairs(examples, task_only, aic)
    if experiment.multi_task:
        from citeworth_models.seq2seq import PREFIXES

        pairs = [(f"{PREFIXES[experiment.task]} {source}", target) for source, target in pairs]
    return [(source, [target]) for source, target in pairs]


def rouge_means(predictions: list[str], references: list[list[str]]) -> dict[str, float]:
    """Mean ROUGE-1/2/L F1 x100 (2 decimals), each prediction's best over its references: the scorer of the
    extractive baselines (:func:`citeworth_assets.lib.citesum.baselines.best_f1`)."""
    from citeworth_assets.lib.citesum.baselines import best_f1

    scores = [best_f1(prediction, refs) for prediction, refs in zip(predictions, references)]
    return {name: round(100 * mean(s[name] for s in scores), 2) if scores else 0.0 for name in ROUGE_TYPES}


def selection_score(predictions: list[str], references: list[list[str]]) -> float:
    """What an epoch is chosen on: the mean of validation ROUGE-1, -2 and -L F1 (the paper names no metric)."""
    return mean(rouge_means(predictions, references).values())


def discipline_f1(predictions: list[str], gold: list[str]) -> dict[str, float]:
    """Macro and weighted F1 of generated discipline names (an output that names no discipline is wrong), as
    fractions with 2 decimals like Table 7."""
    from sklearn.metrics import f1_score

    labels = sorted(set(gold))
    cleaned = [prediction.strip() for prediction in predictions]
    return {
        "macro_f1": round(float(f1_score(gold, cleaned, labels=labels, average="macro", zero_division=0)), 4),
        "weighted_f1": round(float(f1_score(gold, cleaned, labels=labels, average="weighted", zero_division=0)), 4),
    }


def empty_row(**values) -> dict:
    return {name: values.get(name) for name in scores_schema().names}


def aic_sections(lake_root: Path, paper_ids: set[str]) -> dict[str, str]:
    """Introduction and conclusion paragraphs of the cited papers whose full text the lake holds (S2ORC
    ``s2orc_paragraphs``, by section name), in paragraph order: the "IC" of AIC. The CiteSum release carries only
    the abstract, so a cited paper outside the dump's full texts has none."""
    from citeworth_assets.lib import lake
    from citeworth_assets.lib.duckdb_limits import bounded

    if not paper_ids or not lake.has_data(lake_root, "s2orc_paragraphs"):
        return {}
    query = """
        SELECT paper_id, string_agg(text, ' ' ORDER BY paragraph_index) AS text
        FROM (
            SELECT paper_id, paragraph_index, text FROM read_parquet($glob)
            WHERE paper_id IN (SELECT unnest($ids))
              AND regexp_matches(lower(coalesce(section, '')), 'introduction|conclusion')
            QUALIFY row_number() OVER (PARTITION BY paper_id, paragraph_index ORDER BY release, shard) = 1
        )
        GROUP BY paper_id
    """
    with bounded() as connection:
        rows = connection.execute(
            query, {"glob": lake.table_glob(lake_root, "s2orc_paragraphs"), "ids": sorted(paper_ids)}
        ).fetchall()
    return {paper_id: text for paper_id, text in rows if text}
