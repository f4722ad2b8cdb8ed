"""The fast splitter must give exactly scispaCy's pysbd_sentencizer sentences (the published pipeline)."""

import json
import random

import pytest
import scispacy.custom_sentence_segmenter  # noqa: F401  (registers pysbd_sentencizer)
import spacy
from pysbd.lang.english import English
from scispacy.custom_tokenizer import combined_rule_tokenizer

from citeworth_assets.lib.sentences import (
    SentenceSplitter,
    _abbreviation_replacer_class,
    splitter,
)
from citeworth_assets.lib.settings import SettingError
from citeworth_assets.samples.s2orc import generate_sample_dump

TRICKY = [
    "",
    " ",
    "\n\nHello world. Second one.",
    "Fig. 2 shows it. See Eq. 3. Done!  Next.\n\nNew para",
    "A. B. C. D.",
    "repeat. repeat. repeat. repeat.",
    "  leading space. x",
    "As shown by Smith et al. (2019) the value rises. Dr. Jones disagreed. It was 3.5 mm long.",
    "The U.S. data (see e.g. Ref. 4) were used, i.e. all of them. vs. the others... Then what?",
    "Items: 1) first; 2) second. (a) one (b) two. The K\u212a case and \u0130stanbul \u017fhould work.",
]


@pytest.fixture(scope="module")
def reference():
    """scispaCy's component, run with pysbd exactly as installed (our speed-ups undone)."""
    from citeworth_assets.lib import sentences

    splitter()
    nlp = spacy.blank("en")
    nlp.tokenizer = combined_rule_tokenizer(nlp)
    nlp.add_pipe("pysbd_sentencizer")

    def split(text):
        with sentences.pysbd_as_installed():
            return [(s.start_char, s.end_char) for s in nlp(text).sents]

    return split


def paragraphs_of(paths):
    for path in paths:
        yield from (p["text"] for p in json.loads(path.read_text())["body_text"])


@pytest.mark.slow  # a few seconds: make test runs it, make test-fast leaves it out
def test_same_sentences_as_scispacy_on_tricky_and_generated_text(reference, tmp_path):
    generate_sample_dump(tmp_path, papers=60, shards=1, seed=4)
    import gzip

    path = next(tmp_path.rglob("pdf_parses_0.jsonl.gz"))
    texts = TRICKY + [p["text"] for line in gzip.open(path) for p in json.loads(line)["body_text"]]
    fast = splitter()
    assert [fast.split(text) for text in texts] == [reference(text) for text in texts]


@pytest.mark.slow  # a few seconds: make test runs it, make test-fast leaves it out
def test_same_sentences_as_scispacy_on_real_papers(reference, shared_data):
    paths = sorted((shared_data / "cord19" / "pdf_json").glob("*.json")) + sorted(
        (shared_data / "s2orc-20200705" / "pdf_parses").glob("*.json")
    )
    texts = list(paragraphs_of(paths))
    fast = splitter()
    assert [fast.split(text) for text in texts] == [reference(text) for text in texts]


def test_abbreviation_replacement_equals_pysbd_on_random_text():
    from pysbd.abbreviation_replacer import AbbreviationReplacer

    once = _abbreviation_replacer_class()
    alphabet = list("aeiltnsrpAEGLT .,;:\n\t()[]0123") + [
        "\u0130",
        "\u0131",
        "\u017f",
        "\u212a",
        "\xa0",
        "{al} ",
        "e.g.",
        "Fig. ",
        "al. ",
        " No. 3",
        " pp. 4",
    ]
    generator = random.Random(3)
    for _ in range(3000):
        text = "".join(generator.choice(alphabet) for _ in range(generator.randint(1, 40)))
        original = AbbreviationReplacer.search_for_abbreviations_in_string(
            English.AbbreviationReplacer(text, English), text
        )
        assert once(text, English).search_for_abbreviations_in_string(text) == original, repr(text)


def test_unknown_or_missing_splitter_names_the_setting():
    with pytest.raises(SettingError, match="CITEWORTH_SPLITTER"):
        SentenceSplitter("nltk")
    try:
        import en_core_sci_sm  # noqa: F401
    except ImportError:
        with pytest.raises(SettingError, match="en_core_sci_sm"):
            SentenceSplitter("en_core_sci_sm")
