"""The offline evaluation data set of Saier 2019 §6.1-6.2 and Appendix C.

Candidates are cited works described by at least ``min_contexts`` training contexts from at least
``min_citing_papers`` distinct training citing papers (Appendix C: arXiv candidates need 5 citing papers, so
that each is described by more than 4 contexts). The split is temporal by the citing paper's year
(train <= ``split_year`` < test): recent citations are the ground truth, and because a paper has one year
no citing paper's wording can leak from training into testing (§6.1). Test items are the test contexts
whose cited work is a candidate, with their adjacent citations (partially relevant in MAP/NDCG).

Reading takes two passes over the contexts (count, then collect) so that only candidates' contexts are held.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from citeworth_assets.lib.citrec.contexts import WorkInfo, citing_year, read_contexts
from citeworth_assets.lib.context_csv import CitationContext
from citeworth_assets.lib.read_issues import IssueLog, ReadIssue


@dataclass(frozen=True)
class CitrecDatasetSettings:
    """Filter and split settings; the defaults are the thesis's arXiv data set (Table 6, Appendix C)."""

    name: str = "arxiv"
    min_contexts: int = 5
    min_citing_papers: int = 5
    split_year: int = 2016
    # Appendix C keeps arXiv contexts whose citing paper is in computer science; this needs a catalogue with
    # the citing papers' fields, so it is off by default. Empty: every citing paper counts.
    citing_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class TestItem:
    """A query (the context), the work it cites (relevant) and its adjacent citations (partially relevant)."""

    context: CitationContext
    cited: str
    adjacent: tuple[str, ...]


@dataclass
class EvalDataset:
    settings: CitrecDatasetSettings
    candidates: list[str]  # sorted work ids; a model's score columns follow this order
    train: dict[str, list[CitationContext]]  # candidate -> its training contexts
    test: list[TestItem]
    train_citing: set[str] = field(default_factory=set)
    test_citing: set[str] = field(default_factory=set)

    def candidate_texts(self) -> list[list[str]]:
        return [[c.text for c in self.train[work]] for work in self.candidates]

    def add(self, context: CitationContext, train: bool) -> None:
        """A training context of its cited candidate, or a test item (with its adjacent citations)."""
        if train:
            self.train[context.cited].append(context)
            self.train_citing.add(context.citing)
        else:
            self.test.append(TestItem(context, context.cited, context.adjacent))
            self.test_citing.add(context.citing)


@dataclass(frozen=True)
class DatasetStatistics:
    """Table 6's columns for one data set."""

    dataset: str
    split: str
    candidates: int
    tested: int
    test_items: int
    mean_contexts_per_candidate: float
    sd_contexts_per_candidate: float


def _year_or_issue(
    context: CitationContext, catalogue: Mapping[str, WorkInfo] | None, issues: IssueLog | None
) -> int | None:
    year = citing_year(context, catalogue)
    if year is None and issues is not None:
        issues.add(
            ReadIssue(
                context.source, context.line, None, "no_citing_year", f"no year for citing paper {context.citing}"
            )
        )
    return year


def _citing_filter(
    settings: CitrecDatasetSettings, catalogue: Mapping[str, WorkInfo] | None
) -> Callable[[CitationContext], bool]:
    if not settings.citing_fields:
        return lambda context: True
    if not catalogue:
        raise ValueError("citing_fields needs a catalogue that gives the citing papers' fields of study")
    wanted = {name.lower() for name in settings.citing_fields}

    def keep(context: CitationContext) -> bool:
        info = catalogue.get(context.citing)
        return info is not None and any(name.lower() in wanted for name in info.fields_of_study)

    return keep


def build_eval_dataset(
    contexts: Callable[[], Iterable[CitationContext]],
    settings: CitrecDatasetSettings = CitrecDatasetSettings(),
    catalogue: Mapping[str, WorkInfo] | None = None,
    issues: IssueLog | None = None,
) -> EvalDataset:
    """Candidates, training contexts and test items; ``contexts`` is called twice (two streaming passes).

    Contexts whose citing paper has no year are reported once (``no_citing_year``) and left out.
    """
    counts: dict[str, int] = defaultdict(int)
    citing_papers: dict[str, set[str]] = defaultdict(set)
    keep = _citing_filter(settings, catalogue)
    for context in contexts():
        if not keep(context):
            continue
        year = _year_or_issue(context, catalogue, issues)
        if year is not None and year <= settings.split_year:
            counts[context.cited] += 1
            citing_papers[context.cited].add(context.citing)
    candidates = sorted(
        work
        for work, n in counts.items()
        if n >= settings.min_contexts and len(citing_papers[work]) >= settings.min_citing_papers
    )
    del counts, citing_papers
    wanted = set(candidates)
    dataset = EvalDataset(settings, candidates, {work: [] for work in candidates}, [])
    for context in contexts():
        if not keep(context):
            continue
        year = citing_year(context, catalogue)
        if year is None or context.cited not in wanted:
            continue
        dataset.add(context, train=year <= settings.split_year)
    return dataset


def dataset_from_csv(
    paths: Sequence[str | Path],
    settings: CitrecDatasetSettings = CitrecDatasetSettings(),
    catalogue: Mapping[str, WorkInfo] | None = None,
    issues: IssueLog | None = None,
) -> EvalDataset:
    """The evaluation data set of one or more unarXive context CSVs; each bad line is reported once."""
    passes = iter((issues, None))

    def contexts() -> Iterator[CitationContext]:
        log = next(passes, None)
        for path in paths:
            yield from read_contexts(path, log)

    return build_eval_dataset(contexts, settings, catalogue, issues)


def dataset_statistics(dataset: EvalDataset) -> DatasetStatistics:
    """#Cand., #Tested, #Test set items and mean (population SD) training contexts per candidate."""
    per_candidate = [len(dataset.train[work]) for work in dataset.candidates]
    year = dataset.settings.split_year
    return DatasetStatistics(
        dataset=dataset.settings.name,
        split=f"<={year} / >={year + 1}",
        candidates=len(dataset.candidates),
        tested=len({item.cited for item in dataset.test}),
        test_items=len(dataset.test),
        mean_contexts_per_candidate=statistics.fmean(per_candidate) if per_candidate else 0.0,
        sd_contexts_per_candidate=statistics.pstdev(per_candidate) if per_candidate else 0.0,
    )
