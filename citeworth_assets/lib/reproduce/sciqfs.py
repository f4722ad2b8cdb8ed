"""ROUGE-SciQFS (Ramirez-Orta et al. 2025) Tables 1 and 3 from the warehouse.

Table 1 reads ``sciqfs.statistics``, ``sciqfs.papers`` and the ``paper_too_long`` drops of
``platform.drop_reasons``; Table 3 reads ``sciqfs.baselines`` (the untrained rankers of every build and the trained
classifiers of ``sciqfs_baselines_job``), a row that was not run keeping its ``status`` as the reason.
"""

from __future__ import annotations

from citeworth_assets.lib.reproduce.citesum import absent
from citeworth_assets.lib.reproduce.tables import BUILD, Cell, Connection, PaperTable, missing, relation_exists

PAPER = "sciqfs"
STATISTICS = "sciqfs.statistics"
PAPERS = "sciqfs.papers"
DROPS = "platform.drop_reasons"
BASELINES = "sciqfs.baselines"

# -- Table 1 ------------------------------------------------------------------------------------


def table1(connection: Connection) -> list[Cell]:
    """The three figures the paper prints for its dataset (the caption and §4.1, §6): the collection's PDF files,
    its examples before the documents too long to augment were dropped, and the final dataset's examples."""
    cells = []
    if relation_exists(connection, PAPERS):
        (papers,) = connection.execute(f"SELECT count(*) FROM {PAPERS}").fetchall()[0]
        cells.append(Cell("Collection", "PDF files", float(papers)))
    else:
        cells.append(missing("Collection", "PDF files", absent(PAPERS, BUILD)))
    if not relation_exists(connection, STATISTICS):
        reason = absent(STATISTICS, BUILD)
        return cells + [missing("Collection", "Examples", reason), missing("Final dataset", "Examples", reason)]
    found = connection.execute(f"SELECT examples FROM {STATISTICS} WHERE split = 'all'").fetchall()
    if not found:
        reason = f"{STATISTICS} has no 'all' row (the release has no example)"
        return cells + [missing("Collection", "Examples", reason), missing("Final dataset", "Examples", reason)]
    examples = found[0][0]
    if relation_exists(connection, DROPS):
        too_long = connection.execute(
            f"SELECT coalesce(sum(dropped), 0) FROM {DROPS} WHERE domain = 'sciqfs' AND reason = 'paper_too_long'"
        ).fetchall()[0][0]
        cells.append(Cell("Collection", "Examples", float(examples + too_long)))
    else:
        cells.append(missing("Collection", "Examples", absent(DROPS, BUILD)))
    return cells + [Cell("Final dataset", "Examples", float(examples))]


# -- Table 3 ------------------------------------------------------------------------------------

# The paper's rows, in its order: (classifier, embeddings) as sciqfs.baselines names them.
TABLE3_ROWS = (
    ("Cosine Similarity", "TFIDF-Words"),
    ("MLP", "TFIDF-Chars"),
    ("MLP", "TFIDF-Words"),
    ("Cosine Similarity", "TFIDF-Chars"),
    ("LSTM", "SPECTER"),
    ("Transformer", "SPECTER"),
    ("LSTM", "Sentence-BERT"),
    ("MLP", "SPECTER"),
    ("MLP", "Sentence-BERT"),
    ("Cosine Similarity", "Sentence-BERT"),
    ("Transformer", "Sentence-BERT"),
    ("Euclidean Distance", "SPECTER"),
)
TABLE3_COLUMNS = {
    "Average Precision": "average_precision_mean",
    "Average Precision ±": "average_precision_sem",
    "ROC AUC": "roc_auc_mean",
    "ROC AUC ±": "roc_auc_sem",
}
RANKERS = ("Cosine Similarity", "Euclidean Distance")
NOT_RUN_RANKER = (
    "not run: the untrained rankers of a build use TF-IDF only; materialize sciqfs_ranking_baselines with "
    "Sentence-BERT in its embeddings (it needs the citeworth[sciqfs] extra)"
)
NO_SPECTER = "not run: SPECTER is not available offline (no installable package ships its checkpoint)"
NOT_RUN_TRAINED = (
    "not run: the trained classifiers are not part of `citeworth build`; launch sciqfs_baselines_job by hand "
    "(`citeworth ui`, pool gpu)"
)


def row_label(classifier: str, embeddings: str) -> str:
    return f"{classifier} / {embeddings}"


def table3(connection: Connection) -> list[Cell]:
    if not relation_exists(connection, BASELINES):
        reason = absent(BASELINES, BUILD)
        return [missing(row_label(*row), column, reason) for row in TABLE3_ROWS for column in TABLE3_COLUMNS]
    result = connection.execute(
        f"SELECT classifier, embeddings, status, {', '.join(TABLE3_COLUMNS.values())} FROM {BASELINES}"
    )
    names = [column[0] for column in result.description]
    rows = {(row[0], row[1]): dict(zip(names, row)) for row in result.fetchall()}
    cells = []
    for classifier, embeddings in TABLE3_ROWS:
        label = row_label(classifier, embeddings)
        row = rows.get((classifier, embeddings))
        if row is None:
            reason = NOT_RUN_RANKER if classifier in RANKERS else NOT_RUN_TRAINED
            reason = NO_SPECTER if embeddings == "SPECTER" and classifier in RANKERS else reason
            cells += [missing(label, column, reason) for column in TABLE3_COLUMNS]
        elif row["status"] != "ok":
            cells += [missing(label, column, f"not run: {row['status']}") for column in TABLE3_COLUMNS]
        else:
            for column, name in TABLE3_COLUMNS.items():
                value = row[name]
                why = f"{BASELINES} holds no {name} (no test example has both classes)"
                cells.append(Cell(label, column, float(value)) if value is not None else missing(label, column, why))
    return cells


# -- the tables ---------------------------------------------------------------------------------

INPUT = (
    "Input: the paper's collection is its reading group's 1,365 PDF files (AI and NLP) parsed by Science-Parse; the "
    "build's is the citing papers of the S2ORC shards and unarXive files under the dump root (a sample in the demo), "
    "cited abstracts from the S2ORC metadata, so its counts are those of another collection."
)
TABLES: tuple[PaperTable, ...] = (
    PaperTable(
        PAPER,
        "1",
        "The final dataset: the collection's PDF files and examples, before and after the documents too long to "
        "augment were dropped",
        (PAPERS, STATISTICS, DROPS),
        BUILD,
        INPUT + " Table 1's body (its per-split figures) is not in the specification text the platform reproduces: "
        "the cells paired here are the three figures its caption and §4.1 and §6 print (the abstract says 8,695 "
        "examples, the text 8,965; the published cell is the text's). The paper dropped the examples whose document "
        "its hardware could not augment; the build drops none unless max_sentences is set (then counted as "
        "paper_too_long in platform.drop_reasons), so its two example counts are equal by default. sciqfs.statistics "
        "holds the per-split figures: examples, papers, sentences and positive labels per example before and after "
        "the ROUGE augmentation; the split is by citing paper (80/10/10, seeded), the published code's by example.",
        table1,
    ),
    PaperTable(
        PAPER,
        "3",
        "Mean Average Precision and mean ROC AUC on the test set",
        (BASELINES,),
        BUILD,
        INPUT + " Test set: the build release's test split (by citing paper). Models: cosine similarity and Euclidean "
        "distance on TF-IDF run in every build; the MLP, LSTM and Transformer are trained only by "
        "sciqfs_baselines_job, with its configured epochs, sizes and one seed; Sentence-BERT is all-MiniLM-L6-v2 "
        "(optional extra), SPECTER is not available offline. ±: the paper does not say what it is; ours is the "
        "standard error of the mean over the evaluated test examples (sciqfs.baselines also holds the standard "
        "deviation); examples with a single class have no AP or ROC AUC and are left out, counted in single_class.",
        table3,
    ),
)
