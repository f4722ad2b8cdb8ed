"""CiteSum (Mao et al. 2022) Tables 3, 5, 6 and 7 from the warehouse.

Table 3 reads ``citesum.statistics``, Table 5's extractive rows ``citesum.baselines`` and every abstractive row
``citesum.abstractive_scores`` (one row per trained and scored setting: model, source, targets, evaluation set,
setting, variant, training size). A cell whose setting the view does not hold, or holds as not scored, says why;
a cell scored by the tiny randomly initialised model keeps its number and says that it means nothing.
"""

from __future__ import annotations

from citeworth_assets.lib.reproduce.tables import (
    BUILD,
    BUILD_MODELS,
    Cell,
    Connection,
    PaperTable,
    missing,
    relation_exists,
)

PAPER = "citesum"
STATISTICS = "citesum.statistics"
BASELINES = "citesum.baselines"
ABSTRACTIVE = "citesum.abstractive_scores"
ROUGE = {"R-1": "rouge1", "R-2": "rouge2", "R-L": "rougeL"}
# The columns of citesum.abstractive_scores the tables read (the view has more).
ABSTRACTIVE_COLUMNS = (
    "model",
    "checkpoint",
    "meaningful",
    "task",
    "source",
    "targets",
    "eval_set",
    "setting",
    "variant",
    "train_examples",
    "seeds",
    "rouge1",
    "rouge2",
    "rougeL",
    "macro_f1",
    "weighted_f1",
    "reason",
)
TINY = (
    "scored by the tiny randomly initialised BART (no local checkpoint in CITEWORTH_SEQ2SEQ): the number runs the "
    "real code path and means nothing"
)
PAPER_SEEDS = 3  # "Our few-shot results are averaged over 3 runs" (the caption of the paper's Table 8)
OTHER_SYSTEM = "another system's published result; not computed by the platform"
OTHER_DATASET = "another dataset's statistics, as the paper quotes them; not built by the platform"
SCITLDR_STATISTICS = (
    "SciTLDR's statistics, as the paper quotes them; the build reads SciTLDR-A for CITES's transfer (Table 6) but "
    "keeps no statistics of it"
)


def absent(relation: str, command: str) -> str:
    return f"{relation} is not in the warehouse: `{command}` builds it"


# -- Table 3 ------------------------------------------------------------------------------------

TABLE3_COLUMNS = ("Train", "Val", "Test", "len(src)", "len(summ)", "Automatic?")
OTHER_DATASETS = ("Gigaword", "XSum", "arXiv", "SciSummNet", "TalkSumm", "SciTLDR")
SPLIT_COLUMNS = {"Train": "train", "Val": "validation", "Test": "test"}


def table3(connection: Connection) -> list[Cell]:
    cells = [
        missing(dataset, column, SCITLDR_STATISTICS if dataset == "SciTLDR" else OTHER_DATASET)
        for dataset in OTHER_DATASETS
        for column in TABLE3_COLUMNS
    ]
    automatic = "how the dataset is made, not a figure: the platform builds CiteSum without annotation, as the paper"
    cells_of_ours = [missing("CiteSum", "Automatic?", automatic)]
    if not relation_exists(connection, STATISTICS):
        reason = absent(STATISTICS, BUILD)
        return cells + [missing("CiteSum", column, reason) for column in TABLE3_COLUMNS[:-1]] + cells_of_ours
    rows = connection.execute(
        f"SELECT split, examples, mean_source_words, mean_summary_words FROM {STATISTICS}"
    ).fetchall()
    per_split = {split: (examples, source, summary) for split, examples, source, summary in rows}
    for column, split in SPLIT_COLUMNS.items():
        if split in per_split:
            cells.append(Cell("CiteSum", column, float(per_split[split][0])))
        else:
            cells.append(missing("CiteSum", column, f"{STATISTICS} has no {split} split (the build made no example)"))
    for column, position in (("len(src)", 1), ("len(summ)", 2)):
        # The view keeps each split's mean; the dataset's is their mean weighted by examples.
        weighted = [(row[0], row[position]) for row in per_split.values() if row[0] and row[position] is not None]
        total = sum(examples for examples, _ in weighted)
        if total:
            cells.append(Cell("CiteSum", column, sum(examples * mean for examples, mean in weighted) / total))
        else:
            cells.append(missing("CiteSum", column, f"{STATISTICS} holds no example"))
    return cells + cells_of_ours


# -- the abstractive scores ---------------------------------------------------------------------


def scored_rows(connection: Connection, setting: dict) -> list[dict]:
    """The rows of citesum.abstractive_scores for one setting (a column -> value, a tuple for any of several values,
    None for SQL NULL); the meaningful ones and then the first model named first."""
    clauses, params = [], []
    for column, value in setting.items():
        if value is None:
            clauses.append(f"{column} IS NULL")
        elif isinstance(value, tuple):
            clauses.append(f"{column} IN ({', '.join('?' for _ in value)})")
            params.extend(value)
        else:
            clauses.append(f"{column} = ?")
            params.append(value)
    models = setting.get("model")
    preference = list(models) if isinstance(models, tuple) else [models]
    query = (
        f"SELECT {', '.join(ABSTRACTIVE_COLUMNS)} FROM {ABSTRACTIVE} WHERE {' AND '.join(clauses)} "
        "ORDER BY reason IS NOT NULL, meaningful DESC, list_position(?::VARCHAR[], model), checkpoint"
    )
    params.append(preference)
    result = connection.execute(query, params)
    names = [column[0] for column in result.description]
    return [dict(zip(names, row)) for row in result.fetchall()]


def describe(setting: dict) -> str:
    return ", ".join(
        f"{column}={'/'.join(value) if isinstance(value, tuple) else value if value != '' else repr(value)}"
        for column, value in setting.items()
    )


def abstractive_problem(connection: Connection) -> str | None:
    """Why citesum.abstractive_scores cannot be read (absent, or without a column the tables read); None if it can."""
    if not relation_exists(connection, ABSTRACTIVE):
        return absent(ABSTRACTIVE, BUILD_MODELS)
    schema, name = ABSTRACTIVE.split(".")
    found = connection.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = ? AND table_name = ?", [schema, name]
    ).fetchall()
    lacking = sorted(set(ABSTRACTIVE_COLUMNS) - {column for (column,) in found})
    return (
        f"{ABSTRACTIVE} lacks the columns {', '.join(lacking)}: rebuild it with `{BUILD_MODELS}`" if lacking else None
    )


def setting_cells(
    connection: Connection,
    row: str,
    setting: dict,
    columns: dict[str, str],
    problem: str | None,
    untrained: str = "the build did not train or score this setting",
) -> list[Cell]:
    """One table row's cells from the first citesum.abstractive_scores row of ``setting`` (``columns``: the table's
    column -> the view's), or the reason there is none (``problem``: why the view cannot be read at all;
    ``untrained``: why the view may hold no row for the setting)."""
    if problem:
        return [missing(row, column, problem) for column in columns]
    found = scored_rows(connection, setting)
    if not found:
        reason = f"{ABSTRACTIVE} has no row for {describe(setting)}: {untrained}"
        return [missing(row, column, reason) for column in columns]
    best = found[0]
    if best["reason"] is not None:
        return [missing(row, column, f"not scored: {best['reason']}") for column in columns]
    notes = [] if best["meaningful"] else [TINY]
    if best["setting"] == "fine-tuned" and best["train_examples"] is not None:
        notes.append(f"fine-tuned on the first {best['train_examples']} training examples only (the build's cap)")
    if best["setting"] == "few-shot" and best["seeds"] != PAPER_SEEDS:
        notes.append(f"mean of {best['seeds']} seeded runs; the paper averages its few-shot results over 3 runs")
    note = "; ".join(notes) or None
    cells = []
    for column, name in columns.items():
        if best[name] is None:
            cells.append(missing(row, column, f"{ABSTRACTIVE} holds no {name} for {describe(setting)}"))
        else:
            cells.append(Cell(row, column, float(best[name]), note))
    return cells


# -- Table 5 ------------------------------------------------------------------------------------

CITESUM_TEST = {"task": "tldr", "eval_set": "citesum", "setting": "fine-tuned", "variant": ""}
# Source and target as the paper writes them -> the view's; the plain abstract-to-TLDR model is CITES itself.
TABLE5_ABSTRACTIVE = {
    "Abs -> TLDR": ("abstract", "tldr"),
    "AIC -> TLDR": ("aic", "tldr"),
    "Abs+Title -> TLDR": ("abstract+title", "tldr"),
    "Abs+Disci -> TLDR": ("abstract+discipline", "tldr"),
    "Abs -> TLDR/Title": ("abstract", "tldr/title"),
    "Abs -> TLDR/Title/Disci": ("abstract", "tldr/title/discipline"),
}
EXTRACTIVE = ("EXT-LEAD", "EXT-HEURISTIC", "EXT-ORACLE")
PEGASUS = (
    "PEGASUS-large fine-tuned by the paper; the platform fine-tunes only the BART-family checkpoint of "
    "CITEWORTH_SEQ2SEQ"
)


def table5(connection: Connection) -> list[Cell]:
    problem = abstractive_problem(connection)
    cells = []
    for row, (source, targets) in TABLE5_ABSTRACTIVE.items():
        setting = {"model": ("BART", "CITES"), **CITESUM_TEST, "source": source, "targets": targets}
        cells += setting_cells(connection, row, setting, ROUGE, problem)
    cells += [missing("Abs -> TLDR (PEGASUS)", column, PEGASUS) for column in ROUGE]
    if not relation_exists(connection, BASELINES):
        return cells + [missing(m, column, absent(BASELINES, BUILD)) for m in EXTRACTIVE for column in ROUGE]
    scores = {
        method: values
        for method, *values in connection.execute(f"SELECT method, rouge1, rouge2, rougeL FROM {BASELINES}").fetchall()
    }
    for method in EXTRACTIVE:
        for position, column in enumerate(ROUGE):
            if method in scores and scores[method][position] is not None:
                cells.append(Cell(method, column, float(scores[method][position])))
            else:
                cells.append(missing(method, column, f"{BASELINES} has no {method} row"))
    return cells


# -- Table 6 ------------------------------------------------------------------------------------

SCITLDR = {"task": "tldr", "targets": "tldr", "eval_set": "scitldr-a"}
TABLE6_OURS = {
    "BART": {"model": "BART", "setting": "fine-tuned", "variant": ""},
    "CITES (post-processing)": {"model": "CITES", "setting": "zero-shot", "variant": "post-processing"},
    "CITES (prompting)": {"model": "CITES", "setting": "zero-shot", "variant": "prompting"},
    "CITES (prompting, gold 3 tokens)": {
        "model": "CITES",
        "setting": "zero-shot",
        "variant": "prompting, gold 3 tokens",
    },
    "CITES (32-shot)": {"model": "CITES", "setting": "few-shot", "train_examples": 32},
    "BART (128-shot)": {"model": "BART", "setting": "few-shot", "train_examples": 128},
    "CITES (128-shot)": {"model": "CITES", "setting": "few-shot", "train_examples": 128},
}
TABLE6_OTHERS = ("PACSUM", "BERTSum", "MatchSum", "BART_XSUM", "CATTS", "CATTS_XSUM")
FULLY_SUPERVISED_BART = (
    "the paper quotes BART fine-tuned on SciTLDR-A's whole training split from prior work; the build fine-tunes "
    "BART on SciTLDR few-shot only (BART (128-shot))"
)
SCITLDR_ORACLE = (
    "the build scores the extractive baselines on CiteSum only (citesum.baselines); on SciTLDR-A, "
    "`citeworth citesum-baselines --input DUMPS/scitldr/SciTLDR-A/test.jsonl` prints it, into no warehouse view"
)


def table6(connection: Connection) -> list[Cell]:
    problem = abstractive_problem(connection)
    cells = [missing("EXT-ORACLE", column, SCITLDR_ORACLE) for column in ROUGE]
    cells += [missing(system, column, OTHER_SYSTEM) for system in TABLE6_OTHERS for column in ROUGE]
    for row, setting in TABLE6_OURS.items():
        untrained = {"untrained": FULLY_SUPERVISED_BART} if row == "BART" else {}
        cells += setting_cells(connection, row, {**SCITLDR, **setting}, ROUGE, problem, **untrained)
    return cells


# -- Table 7 ------------------------------------------------------------------------------------

TITLE = {"task": "title", "source": "abstract", "targets": "title", "eval_set": "citesum", "setting": "fine-tuned"}
DISCIPLINE = {**TITLE, "task": "discipline", "targets": "discipline"}
TITLE_COLUMNS = {"Title R-1": "rouge1", "Title R-2": "rouge2", "Title R-L": "rougeL"}
DISCIPLINE_COLUMNS = {"Macro-F1": "macro_f1", "Weighted-F1": "weighted_f1"}


def table7(connection: Connection) -> list[Cell]:
    problem = abstractive_problem(connection)
    cells = []
    for model in ("BART", "CITES"):
        cells += setting_cells(connection, model, {"model": model, **TITLE}, TITLE_COLUMNS, problem)
        cells += setting_cells(connection, model, {"model": model, **DISCIPLINE}, DISCIPLINE_COLUMNS, problem)
    return cells


# -- the tables ---------------------------------------------------------------------------------

SAMPLE = (
    "Input: the paper's CiteSum comes from the whole S2ORC release (about 288K papers with a Related Work section, "
    "92,946 examples); the build's from the S2ORC shards under the dump root (a synthetic or real sample in the demo), "
    "so its counts and scores are those of a far smaller dataset, split 90/5/5 by cited paper with the build's seed."
)
MODELS = (
    " Models: the paper fine-tunes BART-large (PEGASUS-large for one row); the build fine-tunes the checkpoint "
    "CITEWORTH_SEQ2SEQ names (without one, a tiny randomly initialised BART whose scores mean nothing; its cells say "
    "so), one training run per setting, with the build's training settings and seed."
)
TABLES: tuple[PaperTable, ...] = (
    PaperTable(
        PAPER,
        "3",
        "Statistics of relevant summarization datasets (examples per split, mean words of source and summary)",
        (STATISTICS,),
        BUILD,
        SAMPLE + " Words are whitespace tokens of the cited abstract (source) and of the citation sentence (summary); "
        "the view keeps each split's mean rounded to 2 decimals and the dataset's mean here is their mean weighted by "
        "examples; the paper does not say how it counted words. The other datasets' rows are the paper's quotations.",
        table3,
    ),
    PaperTable(
        PAPER,
        "5",
        "Performance of different methods on CiteSum (test split, ROUGE-1/2/L F1 x100)",
        (BASELINES, ABSTRACTIVE),
        BUILD_MODELS,
        SAMPLE + MODELS + " ROUGE: the rouge-score F1 with stemming that the extractive baselines use.",
        table5,
    ),
    PaperTable(
        PAPER,
        "6",
        "Performance comparison on SciTLDR (SciTLDR-A test, ROUGE-1/2/L F1 x100)",
        (ABSTRACTIVE,),
        BUILD_MODELS,
        SAMPLE
        + MODELS
        + " SciTLDR: the user's download of SciTLDR-A (DUMPS/scitldr/SciTLDR-A/{train,dev,test}.jsonl; in the demo "
        "the synthetic records `citeworth generate-sample` writes there, which say nothing about SciTLDR); the paper "
        "uses SciTLDR's official evaluation script, the build the rouge-score F1 with stemming, best over each "
        "paper's reference TLDRs. Few-shot rows are means over the seeds the build ran (the view's seeds column), as "
        "the paper averages over its seeds. The fully-supervised rows are results CiteSum quotes; of them only BART "
        "is a model the build trains, filled where the view holds BART fine-tuned on SciTLDR-A's whole training split.",
        table6,
    ),
    PaperTable(
        PAPER,
        "7",
        "CITES against its base model (BART) on title generation and discipline classification",
        (ABSTRACTIVE,),
        BUILD_MODELS,
        SAMPLE + MODELS + " Discipline: CiteSum's discipline of the cited paper (its first MAG field of study); "
        "Macro-F1 and Weighted-F1 as fractions, as the paper prints them.",
        table7,
    ),
)
