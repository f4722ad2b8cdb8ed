"""The citation recommendation settings as one Dagster resource, ``citrec``: the data set's filter and split
(Saier 2019 §6.1, Appendix C) and which models are trained. Three assets read them, so they live in one place."""

import dagster as dg
from pydantic import Field

from citeworth_assets.lib.citrec.dataset import CitrecDatasetSettings
from citeworth_assets.lib.citrec.tables import check_dataset_name

# Models that need a dependency parse (np, npmarker, claim, claim+bow) cost minutes per 10k contexts: list them
# in ``models`` to train them too.
DEFAULT_MODELS = ("bow", "bm25", "fos", "bow+fosboost")
ARXIV_EXPORT = "arxiv"  # Settings.export_dir(ARXIV_EXPORT) holds contexts.csv and catalogue.jsonl
CONTEXT_EXPORT_ASSET = "arxiv_context_export"


class CitrecResource(dg.ConfigurableResource):
    """Data set ``name`` (keys its lake partitions, index folder and MLflow runs); candidates are cited works with at
    least ``min_contexts`` training contexts from at least ``min_citing_papers`` citing papers; training contexts are
    those of citing papers from ``split_year`` or before, test items those after; ``citing_fields`` keeps only citing
    papers of those fields (empty: all); ``models`` are the registered recommenders trained and evaluated."""

    name: str = CitrecDatasetSettings.name
    min_contexts: int = CitrecDatasetSettings.min_contexts
    min_citing_papers: int = CitrecDatasetSettings.min_citing_papers
    split_year: int = CitrecDatasetSettings.split_year
    citing_fields: list[str] = Field(default_factory=list)
    models: list[str] = Field(default_factory=lambda: list(DEFAULT_MODELS))

    @property
    def eval_settings(self) -> CitrecDatasetSettings:
        return CitrecDatasetSettings(
            check_dataset_name(self.name),
            self.min_contexts,
            self.min_citing_papers,
            self.split_year,
            tuple(self.citing_fields),
        )

    @property
    def model_names(self) -> list[str]:
        """The configured models, checked against the registry before any work."""
        from citeworth_models.citrec.registry import MODELS

        unknown = [name for name in self.models if name not in MODELS]
        if unknown:
            raise ValueError(f"citrec models: unknown {unknown}; registered: {', '.join(MODELS)}")
        return list(dict.fromkeys(self.models))
