"""emptied_parenthetical on parentheticals left holding only pointer words by a citation's removal: the real
unarXive cases ("training, (e.g. [4])." -> "training, (e.g.)."), which the faithful set drops as hanging."""

import pytest
from builders import s2orc_paragraph as paragraph

from citeworth_assets.lib.citeworth.citations import drop_pointer_parentheticals
from citeworth_assets.lib.citeworth.cleaning import clean_papers
from citeworth_assets.lib.citeworth.rules import (
    CITEWORTH_2021,
    CITEWORTH_IMPROVED,
    rule_set,
)
from citeworth_assets.lib.papers import PaperInput
from citeworth_assets.lib.sentences import splitter

EMPTIED = rule_set("citeworth_2021+emptied_parenthetical")
FILLER = (
    "Cell cultures were grown under standard conditions as described before [11]. "
    "The medium was replaced every second day during the whole experiment. "
    "Samples were analysed with the protocol used in earlier studies [12], [13]."
)
OPENING = "Generative models of discrete data have been studied for a long time. "
CLOSING = " Our focus is a selection of those methods relevant to text generation."


def outcome(text, pieces, rules):
    """The tested paragraph's cleaned sentences, or the reason it was dropped; two passing paragraphs come first,
    so that the paper has enough citation spans and its first citation is a plain one."""
    fillers = [paragraph(FILLER, "[11]", "[12]", "[13]", index=i, section="Methods") for i in (1, 2)]
    (result,) = clean_papers([PaperInput("p1", [*fillers, paragraph(text, *pieces, index=0)])], rules, splitter())
    assert result.paper_reason is None
    for accepted in result.accepted:
        if accepted.paragraph["paragraph_index"] == 0:
            return [sample.text for sample in accepted.verdict.samples]
    return next(drop.reason for drop in result.drops if drop.paragraph_index == 0)


# The three real sentences (unarXive 2212.11808 and others), each in a paragraph that passes the other rules.
REAL = [
    ("Cooperative training, (e.g. [4]).", ("[4]",), "Cooperative training."),
    (
        "The literature on adversarial text analysis is quite rich (e.g. see [5]).",
        ("[5]",),
        "The literature on adversarial text analysis is quite rich.",
    ),
    (
        "The action is described by the Wess-Zumino-Witten model (see also [7]).",
        ("[7]",),
        "The action is described by the Wess-Zumino-Witten model.",
    ),
    (  # GROBID's group fragments, in the author-year style, nested in the pointer's brackets
        "The literature on adversarial text analysis is quite rich (e.g. see (Bravo-Santos et al., 2020; Li, 2019)).",
        ("(Bravo-Santos et al., 2020;", "Li, 2019)"),
        "The literature on adversarial text analysis is quite rich.",
    ),
]


@pytest.mark.parametrize("sentence, pieces, cleaned", REAL)
def test_a_parenthetical_holding_only_a_pointer_goes_with_its_citation(sentence, pieces, cleaned):
    for rules in (EMPTIED, CITEWORTH_IMPROVED):
        assert outcome(OPENING + sentence + CLOSING, pieces, rules) == [OPENING.strip(), cleaned, CLOSING.strip()]


@pytest.mark.parametrize("sentence, pieces, cleaned", REAL)
def test_the_faithful_set_still_drops_them_as_hanging(sentence, pieces, cleaned):
    assert outcome(OPENING + sentence + CLOSING, pieces, CITEWORTH_2021) == "hanging_citation"


def test_an_acronym_in_the_parenthetical_keeps_it():
    text = OPENING + "A major new facility is the Solar Telescope (DKIST, [49, 56])." + CLOSING
    for rules in (EMPTIED, CITEWORTH_IMPROVED):
        assert outcome(text, ("[49,", "56]"), rules)[1] == "A major new facility is the Solar Telescope (DKIST)."
    assert outcome(text, ("[49,", "56]"), CITEWORTH_2021)[1] == "A major new facility is the Solar Telescope (DKIST,)."


def test_a_parenthetical_without_a_citation_is_the_authors():
    """'(see also)' held no citation: it stays, and the sentence is judged as it is (the hanging rule does not fire
    inside a sentence, so it is kept) - the removal never reaches it."""
    text = OPENING + "Results hold for this model (see also) in all regimes we tried [3]." + CLOSING
    expected = [OPENING.strip(), "Results hold for this model (see also) in all regimes we tried.", CLOSING.strip()]
    for rules in (CITEWORTH_2021, EMPTIED, CITEWORTH_IMPROVED):
        assert outcome(text, ("[3]",), rules) == expected


def test_a_pointer_parenthetical_without_a_citation_at_the_end_still_hangs():
    text = OPENING + "The literature on adversarial text analysis is quite rich (e.g. see) [5]." + CLOSING
    assert outcome(text, ("[5]",), CITEWORTH_IMPROVED) == "hanging_citation"


@pytest.mark.parametrize(
    "sentence, cuts, tidied",
    [
        ("Results (e.g. or) hold (and) for all cases.", [13, 14], "Results hold (and) for all cases."),
        ("Results hold (see, e.g.,, among others).", [24, 25], "Results hold."),
        ("Results hold, (cf.), as before.", [18], "Results hold, as before."),
        ("Results hold [see].", [17], "Results hold."),
        ("(See e.g.) Results hold.", [9], "Results hold."),
        ("Results hold (for example, in mice).", [25], "Results hold (for example, in mice)."),  # not only a pointer
        ("Results hold (see) for (eg).", [26], "Results hold (see) for."),  # only the one that held the citation
        ("Results hold (see].", [17], "Results hold (see]."),  # not a pair
        ("Results hold (order).", [19], "Results hold (order)."),  # 'or' is a word, not a prefix
    ],
)
def test_drop_pointer_parentheticals(sentence, cuts, tidied):
    assert drop_pointer_parentheticals(sentence, cuts) == tidied
