from collections import Counter

import pytest

from citeworth_assets.lib.citesum.construction import (
    citation_candidates,
    dataset_statistics,
    is_related_work,
    keep_by_rouge,
    make_example,
    release_record,
    remove_citations,
    replace_citations_with_ref,
    rouge_recall,
    score_candidates,
    split_by_cited_paper,
    threshold_report,
)
from citeworth_assets.lib.papers import PaperInput
from citeworth_assets.lib.sentences import splitter

ABSTRACT_A = (
    "We propose a graph network for dependency parsing. The network encodes each sentence with attention "
    "and decodes trees in linear time, improving accuracy on five treebanks."
)
ABSTRACTS = {
    "p-a": ABSTRACT_A,
    "p-b": "We study decoders. " * 10,
    "p-c": "We study encoders. " * 10,
    "p-short": "A short abstract of six words.",
}


def paragraph(index, section, text, citations=(), invalid=0):
    """A ``s2orc_paragraphs`` row; ``citations`` are (span text, linked paper id), located in order."""
    spans, position = [], 0
    for span_text, linked in citations:
        start = text.index(span_text, position)
        position = start + len(span_text)
        spans.append(
            {"start": start, "end": position, "text": span_text, "ref_id": "BIBREF0", "linked_paper_id": linked}
        )
    return {
        "paper_id": "citing",
        "paragraph_index": index,
        "section": section,
        "text": text,
        "cite_spans": spans,
        "ref_spans": [],
        "invalid_span_count": invalid,
    }


def candidates_of(*paragraphs, min_abstract_words=20):
    paper = PaperInput("citing", list(paragraphs), ["Computer Science"])
    return citation_candidates([paper], ABSTRACTS, splitter(), min_abstract_words)


def test_related_work_titles_are_normalized():
    assert (
        is_related_work("2 Related Work") and is_related_work("RELATED WORKS") and is_related_work("II. Related work:")
    )
    assert (
        not is_related_work("Introduction")
        and not is_related_work("Related Work and Background")
        and not is_related_work(None)
    )


def test_only_related_work_sentences_citing_exactly_one_paper_are_candidates():
    intro = paragraph(0, "Introduction", "Smith et al. [1] propose a graph network for parsing.", [("[1]", "p-a")])
    related = paragraph(
        1,
        "2 Related Work",
        "Smith et al. [1] propose a graph network for parsing. Their network [1] was later extended [1]. "
        "Lee [2] and Kim [3] study the decoder. Unlinked work [4] studies trees. Our approach differs in several ways.",
        [("[1]", "p-a"), ("[1]", "p-a"), ("[1]", "p-a"), ("[2]", "p-b"), ("[3]", "p-c"), ("[4]", None)],
    )
    candidates, drops, counts = candidates_of(intro, related)
    assert [(c["sentence_index"], c["cited_paper_id"], len(c["spans"])) for c in candidates] == [
        (0, "p-a", 1),
        (1, "p-a", 2),
    ]
    first = candidates[0]
    assert first["sentence"] == "Smith et al. [1] propose a graph network for parsing."
    assert first["sentence"][first["spans"][0]["start"] : first["spans"][0]["end"]] == "[1]"
    assert [(d["sentence_index"], d["reason"]) for d in drops] == [
        (2, "several_cited_papers"),
        (3, "unlinked_citation"),
    ]
    assert drops[0] == {
        "citing_paper_id": "citing",
        "paragraph_index": 1,
        "sentence_index": 2,
        "sentence": "Lee [2] and Kim [3] study the decoder.",
        "reason": "several_cited_papers",
    }
    assert counts["related_work_paragraphs"] == 1 and counts["sentences"] == 5
    assert counts["sentences_without_citations"] == 1 and len(candidates) == 2


def test_unlinked_span_drops_the_sentence_even_with_a_linked_one():
    related = paragraph(
        0, "Related Work", "Smith [1] and its follow-up [2] propose graph parsers.", [("[1]", "p-a"), ("[2]", None)]
    )
    candidates, drops, _ = candidates_of(related)
    assert candidates == [] and [d["reason"] for d in drops] == ["unlinked_citation"]


def test_unknown_and_short_cited_abstracts_are_dropped():
    related = paragraph(
        0,
        "RELATED WORKS",
        "Old work [7] exists in the literature. Short work [8] exists as well.",
        [("[7]", "p-gone"), ("[8]", "p-short")],
    )
    candidates, drops, _ = candidates_of(related)
    assert candidates == [] and [d["reason"] for d in drops] == ["cited_paper_unknown", "cited_abstract_too_short"]
    candidates, drops, _ = candidates_of(related, min_abstract_words=6)
    assert [c["cited_paper_id"] for c in candidates] == ["p-short"]


def test_crossing_spans_bad_offsets_and_uncited_paragraphs():
    text = "Early work used trees [9]. Later work used graphs."
    crossing = paragraph(0, "Related Work", text, [("[9]. Later", "p-a")])
    invalid = paragraph(1, "Related Work", "Smith [1] proposes a parser.", [("[1]", "p-a")], invalid=1)
    uncited = paragraph(2, "Related Work", "Nothing is cited here.")
    candidates, drops, counts = candidates_of(crossing, invalid, uncited)
    assert candidates == []
    assert [(d["paragraph_index"], d["sentence_index"], d["reason"]) for d in drops] == [
        (1, None, "invalid_citation_offsets"),
        (0, 0, "citation_crosses_sentence"),
        (0, 1, "citation_crosses_sentence"),
    ]
    assert counts["paragraphs_without_citations"] == 1


def test_rouge_recall_of_copied_and_unrelated_sentences():
    assert rouge_recall("We propose a graph network for dependency parsing.", ABSTRACT_A) == {
        "rouge1_recall": 100.0,
        "rouge2_recall": 100.0,
        "rougeL_recall": 100.0,
    }
    assert rouge_recall("Bananas ripen quickly.", ABSTRACT_A) == {
        "rouge1_recall": 0.0,
        "rouge2_recall": 0.0,
        "rougeL_recall": 0.0,
    }
    # 2 of 4 unigrams, 1 of 3 bigrams, an LCS of 2.
    assert rouge_recall("graph network bananas ripen", ABSTRACT_A) == {
        "rouge1_recall": 50.0,
        "rouge2_recall": 33.3333,
        "rougeL_recall": 50.0,
    }


def test_candidates_are_scored_without_their_citation_spans():
    sentence = "Smith et al. [1] propose a graph network."
    candidate = {
        "citing_paper_id": "citing",
        "cited_paper_id": "p-a",
        "paragraph_index": 0,
        "sentence_index": 0,
        "sentence": sentence,
        "spans": [{"start": 0, "end": sentence.index(" propose")}],
    }
    assert remove_citations(sentence, candidate["spans"]) == "propose a graph network."
    [scored] = score_candidates([candidate], ABSTRACTS)
    assert (scored["rouge1_recall"], scored["rouge2_recall"], scored["rougeL_recall"]) == (100.0, 100.0, 100.0)
    assert list(keep_by_rouge([scored])) == [scored]


def scores(r1, r2, rl):
    return {"rouge1_recall": r1, "rouge2_recall": r2, "rougeL_recall": rl}


def test_thresholds_keep_candidates_reaching_all_three_and_report_removals():
    kept, exact = scores(60, 30, 50), scores(50, 20, 40)
    low_r1, low_r2, low_all = scores(40, 30, 50), scores(60, 10, 50), scores(40, 10, 30)
    candidates = [kept, exact, low_r1, low_r2, low_all]
    assert list(keep_by_rouge(candidates)) == [kept, exact]
    report = threshold_report(candidates)
    assert report["candidates"] == 5 and report["kept"] == 2
    assert report["removed_alone"] == {"rouge1": 2, "rouge2": 2, "rougeL": 1}
    assert report["removed_in_sequence"] == {"rouge1": 2, "rouge2": 1, "rougeL": 0}
    assert report["kept_mean_recall"] == {"rouge1": 55.0, "rouge2": 25.0, "rougeL": 45.0}
    assert list(keep_by_rouge(candidates, {"rouge1": 45})) == [kept, exact, low_r2]


def spans_of(text, *span_texts):
    spans, position = [], 0
    for span_text in span_texts:
        start = text.index(span_text, position)
        position = start + len(span_text)
        spans.append({"start": start, "end": position})
    return spans


@pytest.mark.parametrize(
    "text, span_texts, expected",
    [
        ("Smith et al. [1] propose X.", ["Smith et al. [1]"], "REF propose X."),
        ("Lee [1], [2] improved the decoder.", ["[1]", "[2]"], "Lee REF improved the decoder."),
        ("as shown (Smith et al., 2019; Lee, 2020).", ["Smith et al., 2019", "Lee, 2020"], "as shown (REF)."),
        ("[1] uses trees while [2] uses graphs.", ["[1]", "[2]"], "REF uses trees while REF uses graphs."),
        ("Graphs help parsing [3]", ["[3]"], "Graphs help parsing REF"),
        ("The model[3]works.", ["[3]"], "The model REF works."),
    ],
)
def test_citation_spans_become_ref(text, span_texts, expected):
    assert replace_citations_with_ref(text, spans_of(text, *span_texts)) == expected


def synthetic_examples(count):
    """``count`` examples over cited papers cited 1 to 3 times."""
    return [{"cited_paper_id": f"paper-{i // (1 + i % 3)}", "index": i} for i in range(count)]


def test_split_by_cited_paper_has_no_leakage_and_is_seeded():
    examples = synthetic_examples(2000)
    splits = split_by_cited_paper(examples, seed=13)
    papers = {name: {e["cited_paper_id"] for e in split} for name, split in splits.items()}
    assert not papers["train"] & papers["validation"] and not papers["train"] & papers["test"]
    assert not papers["validation"] & papers["test"]
    assert sum(map(len, splits.values())) == 2000
    assert 100 <= len(splits["validation"]) <= 110 and 100 <= len(splits["test"]) <= 110
    assert split_by_cited_paper(examples, seed=13) == splits
    assert split_by_cited_paper(examples, seed=14)["test"] != splits["test"]
    with pytest.raises(ValueError):
        split_by_cited_paper(examples, seed=13, fractions=(0.9, 0.1, 0.1))


def example(cited, target, abstract, discipline):
    scored = {
        "citing_paper_id": "citing",
        "cited_paper_id": cited,
        "paragraph_index": 3,
        "sentence_index": 1,
        "sentence": target,
        "spans": spans_of(target, "[1]"),
        **scores(80, 40, 60),
    }
    fields = [discipline, "Mathematics"] if discipline else None
    return make_example(scored, {"title": f"Title of {cited}", "abstract": abstract, "mag_field_of_study": fields})


def test_examples_statistics_and_release_records():
    first = example("p-a", "Smith [1] proposes graphs.", "one two three four", "Computer Science")
    assert first == {
        "citing_paper_id": "citing",
        "cited_paper_id": "p-a",
        "paragraph_index": 3,
        "sentence_index": 1,
        "sentence": "Smith [1] proposes graphs.",
        "target": "Smith REF proposes graphs.",
        "rouge1_recall": 80,
        "rouge2_recall": 40,
        "rougeL_recall": 60,
        "title": "Title of p-a",
        "abstract": "one two three four",
        "discipline": "Computer Science",
    }
    assert release_record(first) == {
        "src": "one two three four",
        "tgt": "Smith REF proposes graphs.",
        "paper_id": "p-a",
        "title": "Title of p-a",
        "discipline": "Computer Science",
    }
    splits = {
        "train": [first, example("p-a", "Later [1] extends it.", "one two three four", "Computer Science")],
        "validation": [example("p-b", "[1] trees.", "one two", "Biology")],
        "test": [example("p-c", "Work [1] is here.", "one two three four five six", None)],
    }
    statistics = dataset_statistics(splits)
    assert statistics["examples"] == {"train": 2, "validation": 1, "test": 1}
    assert statistics["mean_source_words"] == 4.0  # (4 + 4 + 2 + 6) / 4
    assert statistics["mean_summary_words"] == 3.5  # (4 + 4 + 2 + 4) / 4
    assert statistics["cited_papers"] == 3 and statistics["mean_examples_per_cited_paper"] == 1.33
    assert statistics["disciplines"] == Counter({"Computer Science": 1, "Biology": 1, "unknown": 1})
