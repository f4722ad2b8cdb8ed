"""CiteWorth (Wright and Augenstein 2021) Tables 2-5 from the warehouse: the dataset statistics, the manual
evaluation, the cite-worthiness models and the cross-field matrix.

Figures are on the paper's scale: counts as counts, shares and scores in percent.
"""

from __future__ import annotations

from citeworth_assets.lib.model_report import degenerate_reason
from citeworth_assets.lib.reproduce.tables import BUILD, BUILD_MODELS, Cell, Connection, PaperTable, missing

PAPER = "citeworth"
FAITHFUL_RULES = "citeworth_2021"  # the paper's rule set; another one's figures are not the paper's table
MODELS_BUILD = f"{BUILD} --models --model-set all"  # every model of Table 4; the fast set trains two of them

TABLE_2_ROWS = {  # the paper's row -> citeworth.statistics column
    "Total sentences": "sentences",
    "Total number of tokens": "tokens",
    "Train sentences": "train_sentences",
    "Dev sentences": "dev_sentences",
    "Test sentences": "test_sentences",
    "Total cite-worthy": "cite_worthy",
    "Total non-cite-worthy": "non_cite_worthy",
    "Min char length": "min_chars",
    "Max char length": "max_chars",
    "Average char length": "mean_chars",
    "Median char length": "median_chars",
}
TABLE_3_ROWS = {"Baseline": "baseline", "Ours": "ours"}
TABLE_3_COLUMNS = {"Extracted Correct": "extracted_correctly", "Markers Removed": "markers_removed"}
# The paper's row -> the platform's model (citeworth_models.registry.MODELS), or why there is none.
TABLE_4_ROWS: dict[str, str] = {
    "Logistic Regression": "logistic_regression",
    "Färber et al. (2018b)": "not computed: the CRNN of Färber et al. (2018b) is not among the platform's models",
    "Transformer": "transformer",
    "BERT": "bert",
    "SciBERT-no-weight": "bert_unweighted",
    "SciBERT": "not computed: the build trains one weighted classifier ('bert', on the configured encoder), shown "
    "as BERT; with a SciBERT encoder that row is this one",
    "SciBERT + PU": "bert_pu",
    "Longformer-Solo": "not computed: the single-sentence Longformer control is not among the platform's models",
    "Longformer-Ctx": "longformer_ctx",
}
TABLE_4_COLUMNS = {"P": "precision", "R": "recall", "F1": "f1"}
ONE_SEED = "not computed: one training run per model (the paper averages 5 seeds)"
TABLE_5_FIELDS = {"Ch": "Chemistry", "E": "Engineering", "CS": "Computer Science", "P": "Psychology", "B": "Biology"}


def _rule_set(connection: Connection, relation: str) -> str | None:
    """The paper's rule set where the relation has it, else the one it has (first by name)."""
    rule_sets = [
        row[0] for row in connection.execute(f"SELECT DISTINCT rule_set FROM {relation} ORDER BY 1").fetchall()
    ]
    return FAITHFUL_RULES if FAITHFUL_RULES in rule_sets else (rule_sets[0] if rule_sets else None)


def statistics(connection: Connection) -> list[Cell]:
    """Table 2: the whole dataset's statistics (field ``all``) of the faithful rule set."""
    rules = _rule_set(connection, "citeworth.statistics")
    found = connection.execute(
        "SELECT * FROM citeworth.statistics WHERE rule_set = ? AND field = 'all'", [rules]
    ).fetchall()
    if not found:
        return [missing(row, "#", f"citeworth.statistics has no row for all fields ({rules})") for row in TABLE_2_ROWS]
    names = [column[0] for column in connection.description]
    values = dict(zip(names, found[0]))
    cells = [Cell(row, "#", _float(values[column])) for row, column in TABLE_2_ROWS.items()]
    sentences = values["sentences"] or 0
    for row, column in (("Total cite-worthy", "cite_worthy"), ("Total non-cite-worthy", "non_cite_worthy")):
        share = 100 * values[column] / sentences if sentences else None
        cells.append(Cell(row, "%", share, None if sentences else "no sentences"))
    return cells


def manual_evaluation(connection: Connection) -> list[Cell]:
    """Table 3: the share of judged sentences extracted correctly and with markers removed, per method."""
    rules = _rule_set(connection, "citeworth.manual_eval_results")
    found = {
        (method, question): (percent, judged)
        for method, question, percent, judged in connection.execute(
            "SELECT method, question, percent, judged FROM citeworth.manual_eval_results WHERE rule_set = ?", [rules]
        ).fetchall()
    }
    cells = []
    for row, method in TABLE_3_ROWS.items():
        for column, question in TABLE_3_COLUMNS.items():
            percent, judged = found.get((method, question), (None, 0))
            if percent is None or not judged:
                cells.append(missing(row, column, "no judgements yet: judge the sample with `citeworth annotate`"))
            else:
                cells.append(Cell(row, column, float(percent), f"{judged} sentences judged (the paper: 500 per label)"))
    return cells


def models(connection: Connection) -> list[Cell]:
    """Table 4: test precision, recall and F1 (percent) of the latest run of each model."""
    runs = {
        model: {"precision": precision, "recall": recall, "f1": f1}
        for model, precision, recall, f1 in connection.execute(
            "SELECT model, precision, recall, f1 FROM citeworth.model_comparison"
        ).fetchall()
    }
    cells = []
    for row, model in TABLE_4_ROWS.items():
        for column, metric in TABLE_4_COLUMNS.items():
            if model.startswith("not computed"):
                cells += [missing(row, column, model), missing(row, f"{column} std", model)]
                continue
            value = runs.get(model, {}).get(metric)
            if value is None:
                cells.append(missing(row, column, f"model {model} not trained in this build: run `{MODELS_BUILD}`"))
            else:
                warning = degenerate_reason({"model": model, **runs[model]})
                cells.append(Cell(row, column, 100 * value, f"{model}: {warning}" if warning else None))
            cells.append(missing(row, f"{column} std", ONE_SEED))
    return cells


def domains(connection: Connection) -> list[Cell]:
    """Table 5: F1 (percent) training on one field (row) and testing on another (column), and each column's
    population standard deviation over the training fields."""
    scores = {
        (train, test): f1
        for train, test, f1 in connection.execute(
            "SELECT train_field, test_field, f1 FROM citeworth.domain_matrix"
        ).fetchall()
    }
    cells = []
    for row, train in [*TABLE_5_FIELDS.items(), ("σ", "std")]:
        for column, test in TABLE_5_FIELDS.items():
            f1 = scores.get((train, test))
            if f1 is None:
                cells.append(
                    missing(row, column, f"no score for {train} -> {test} (a field without data in the release)")
                )
            else:
                cells.append(Cell(row, column, 100 * f1))
    rho = "not computed: needs the distance between the fields' BERT-embedding clusters (§5, Figure 1), not built"
    cells += [missing("ρ", column, rho) for column in TABLE_5_FIELDS]
    return cells


def _float(value) -> float | None:
    return None if value is None else float(value)


SAMPLE = "the S2ORC shards under the dump root (a sample; the demo's is generated), not the 20200705v1 release"
TABLES = (
    PaperTable(
        PAPER,
        "2",
        "Various statistics of the CiteWorth dataset",
        ("citeworth.statistics",),
        BUILD,
        f"Input: {SAMPLE}; the {FAITHFUL_RULES} rule set where built. Tokens are counted by the platform's tokenizer.",
        statistics,
    ),
    PaperTable(
        PAPER,
        "3",
        "Manual annotation of 1000 sentences per method (extraction correct, citation markers removed)",
        ("citeworth.manual_eval_results",),
        BUILD,
        "The sample is drawn from this build's dataset; the figures are the judgements saved so far by "
        "`citeworth annotate` (the paper: one expert, 500 cite-worthy and 500 non-cite-worthy sentences per method).",
        manual_evaluation,
    ),
    PaperTable(
        PAPER,
        "4",
        "P, R and F1 of the baselines on the CiteWorth test set (mean of 5 seeds)",
        ("citeworth.model_comparison",),
        MODELS_BUILD,
        f"Trained on this build's dataset ({SAMPLE}); one seed, the latest MLflow run of each model; encoders are "
        "the configured local checkpoint (a tiny one in the demo), not BERT-base, SciBERT or Longformer-base.",
        models,
    ),
    PaperTable(
        PAPER,
        "5",
        "F1 training on one field (rows) and testing on another (columns)",
        ("citeworth.domain_matrix",),
        BUILD_MODELS,
        "The model is the citeworth_domain_matrix asset's setting (logistic regression by default), not "
        f"Longformer-Ctx; each field's data is this build's ({SAMPLE}), split as the release splits it.",
        domains,
    ),
)
