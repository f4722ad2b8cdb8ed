"""Saier 2019 (the thesis "Semantic approaches to citation recommendation") Tables 6 and 7 from the warehouse: the
offline evaluation's data sets (§6.2) and its scores at cut-off 5 on the arXiv data.

The platform builds the arXiv evaluation data (citation contexts from arXiv sources linked to a works catalogue,
chapter 4); the MAG, RefSeer and ACL-ARC data sets of Table 6 are not among its inputs.
"""

from __future__ import annotations

from citeworth_assets.lib.reproduce.tables import BUILD_MODELS, Cell, Connection, PaperTable, missing

PAPER = "saier2019"
DATASETS = {"arXiv": "arxiv", "MAG": "mag", "RefSeer": "refseer", "ACL-ARC": "acl_arc"}  # row -> citrec data set
TABLE_6_COLUMNS = {  # column -> citrec.dataset_statistics column
    "#Cand.": "candidates",
    "#Tested": "tested",
    "#Test set items": "test_items",
    "Mean CC/RC": "mean_contexts_per_candidate",
    "Mean CC/RC SD": "sd_contexts_per_candidate",
}
SPLIT = "Train/test split"
# The thesis's row -> the platform's recommender (citeworth_models.citrec.registry.MODELS).
TABLE_7_ROWS = {
    "Claim+BoW": "claim+bow",
    "BoW+fosboost": "bow+fosboost",
    "BoW": "bow",
    "NPmarker": "npmarker",
    "Claim": "claim",
    "NP": "np",
    "FoS": "fos",
}
EXTRA_MODELS = {"BM25": "bm25"}  # evaluated by the platform, not in the table (§6.2: TFIDF was chosen over BM25)
TABLE_7_COLUMNS = {"Recall@5": "recall", "MRR@5": "mrr", "MAP@5": "map", "NDCG@5": "ndcg"}
CUT_OFF = 5
PARSER_MODELS = {"claim+bow", "npmarker", "claim", "np"}
PARSER_REASON = (
    "not evaluated in this build: the claim and noun-phrase models (§5.1) run only when listed in the citrec "
    "resource's models and a spaCy parser pipeline is installed"
)


def _no_dataset(row: str) -> str:
    return (
        f"not computed: the build has no {row} evaluation data set (the platform builds its citation contexts from "
        "arXiv, Saier 2019 ch. 4)"
    )


def datasets(connection: Connection) -> list[Cell]:
    """Table 6: per data set, candidates, tested candidates, test items and training contexts per candidate."""
    result = connection.execute(
        f"SELECT dataset, split, {', '.join(TABLE_6_COLUMNS.values())} FROM citrec.dataset_statistics"
    )
    names = [column[0] for column in result.description]
    found = {row[0]: dict(zip(names, row)) for row in result.fetchall()}
    cells = []
    for row, dataset in DATASETS.items():
        values = found.get(dataset)
        if values is None:
            cells += [missing(row, column, _no_dataset(row)) for column in (SPLIT, *TABLE_6_COLUMNS)]
            continue
        cells.append(missing(row, SPLIT, f"text, ours: {values['split']}"))
        cells += [Cell(row, column, float(values[name])) for column, name in TABLE_6_COLUMNS.items()]
    return cells


def scores(connection: Connection) -> list[Cell]:
    """Table 7: Recall, MRR, MAP and NDCG at cut-off 5 of each recommender on the arXiv data."""
    found = {
        (model, metric): value
        for model, metric, value in connection.execute(
            "SELECT model, metric, value FROM citrec.results WHERE dataset = 'arxiv' AND k = ?", [CUT_OFF]
        ).fetchall()
    }
    evaluated = {model for model, _ in found}
    cells = []
    for row, model in {**TABLE_7_ROWS, **EXTRA_MODELS}.items():
        if model not in evaluated and row in EXTRA_MODELS:
            continue
        for column, metric in TABLE_7_COLUMNS.items():
            value = found.get((model, metric))
            if value is not None:
                cells.append(Cell(row, column, float(value)))
            elif model in PARSER_MODELS and model not in evaluated:
                cells.append(missing(row, column, PARSER_REASON))
            else:
                cells.append(missing(row, column, f"not evaluated in this build: run `{BUILD_MODELS}`"))
    return cells


TABLES = (
    PaperTable(
        PAPER,
        "6",
        "Key properties of the data sets used for evaluation",
        ("citrec.dataset_statistics",),
        BUILD_MODELS,
        "arXiv only: this build's citation contexts (a sample of arXiv sources or unarXive, linked to its works "
        "catalogue) with Appendix C's candidate rule, not the 2019 arXiv/MAG snapshot; MAG, RefSeer and ACL-ARC are "
        "not built.",
        datasets,
    ),
    PaperTable(
        PAPER,
        "7",
        "Evaluation scores at cut-off 5 for all models using the arXiv data",
        ("citrec.results",),
        BUILD_MODELS,
        "Scored on this build's arXiv test items (a sample, far fewer candidates than the thesis's 63,239); one run; "
        "the parser models need a spaCy pipeline; BM25 is shown beside the thesis's models.",
        scores,
    ),
)
