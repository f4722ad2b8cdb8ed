"""Field-specific vocabulary and author names, so that text looks like it belongs to its MAG field."""

from __future__ import annotations

from typing import NamedTuple


class _Vocab(NamedTuple):
    topics: tuple[str, ...]
    methods: tuple[str, ...]
    objects: tuple[str, ...]
    measures: tuple[str, ...]


def _vocab(topics: str, methods: str, objects: str, measures: str) -> _Vocab:
    return _Vocab(*(tuple(part.split("|")) for part in (topics, methods, objects, measures)))


_FIELD_VOCAB: dict[str, _Vocab] = {
    "Art": _vocab(
        (
            "Renaissance portraiture|colour theory in painting|museum curation|public sculpture|"
            "the reception of modernist art|visual narrative"
        ),
        "iconographic analysis|pigment spectroscopy|provenance research|archival study|formal analysis",
        "altarpieces|oil paintings|bronze statues|woodcut prints|gallery visitors|exhibition catalogues",
        "stylistic similarity|attribution confidence|pigment composition|visitor dwell time|auction price",
    ),
    "Biology": _vocab(
        (
            "gene regulation|cell fate specification|photoreceptor development|microbial ecology|protein folding|"
            "circadian rhythms"
        ),
        "RNA sequencing|confocal microscopy|CRISPR knockout screens|phylogenetic inference|flow cytometry",
        "Drosophila larvae|zebrafish embryos|soil bacteria|α-tubulin mutants|yeast strains|mouse fibroblasts",
        "expression level|survival rate|growth rate|binding affinity|mutation frequency",
    ),
    "Business": _vocab(
        (
            "supply chain resilience|corporate governance|customer loyalty|venture financing|organizational learning|"
            "brand management"
        ),
        "structural equation modelling|case study research|survey analysis|event study methodology|panel regression",
        "small firms|retail chains|family businesses|start-up companies|franchise networks|service employees",
        "return on assets|customer satisfaction|employee turnover|market share|inventory cost",
    ),
    "Chemistry": _vocab(
        (
            "catalytic oxidation|host–guest chemistry|polymer synthesis|electrochemical sensing|photocatalysis|"
            "solvent effects"
        ),
        "NMR spectroscopy|density functional theory|cyclic voltammetry|mass spectrometry|X-ray crystallography",
        (
            "β-cyclodextrin complexes|palladium catalysts|ionic liquids|aromatic amines|metal–organic frameworks|"
            "aqueous solutions"
        ),
        "reaction yield|binding constant|selectivity|activation energy|turnover frequency",
    ),
    "Computer Science": _vocab(
        (
            "neural machine translation|distributed consensus|graph partitioning|citation recommendation|"
            "program synthesis|image segmentation"
        ),
        (
            "transformer models|stochastic gradient descent|dynamic programming|reinforcement learning|"
            "Markov decision processes"
        ),
        "benchmark datasets|sparse graphs|source code repositories|scientific documents|sensor networks|user queries",
        "F1 score|query latency|memory footprint|classification accuracy|throughput",
    ),
    "Economics": _vocab(
        (
            "labour market dynamics|monetary policy|income inequality|trade liberalization|housing prices|"
            "household consumption"
        ),
        (
            "difference-in-differences estimation|vector autoregression|instrumental variable regression|"
            "general equilibrium modelling|quantile regression"
        ),
        (
            "regional labour markets|emerging economies|household surveys|central banks|manufacturing firms|"
            "commodity markets"
        ),
        "real wage growth|inflation rate|unemployment rate|price elasticity|GDP per capita",
    ),
    "Engineering": _vocab(
        (
            "structural health monitoring|heat exchanger design|vehicle dynamics|power system stability|"
            "additive manufacturing|fatigue of welded joints"
        ),
        "finite element analysis|model predictive control|modal testing|computational fluid dynamics|Kalman filtering",
        (
            "steel bridges|wind turbine blades|lithium-ion batteries|gas turbines|reinforced concrete beams|"
            "μm-scale actuators"
        ),
        "fatigue life|pressure drop|thermal efficiency|natural frequency|peak stress",
    ),
    "Environmental Science": _vocab(
        (
            "nitrogen deposition|urban air quality|wetland restoration|microplastic pollution|carbon sequestration|"
            "drought impacts"
        ),
        "remote sensing|life cycle assessment|isotope tracing|species distribution modelling|passive sampling",
        (
            "agricultural soils|river catchments|coastal sediments|forest plots|urban monitoring stations|"
            "groundwater wells"
        ),
        "PM2.5 concentration|nitrate leaching|soil organic carbon|species richness|CO₂ flux",
    ),
    "Geography": _vocab(
        "urban sprawl|rural migration|landscape change|spatial accessibility|tourism geography|border regions",
        (
            "GIS overlay analysis|spatial autocorrelation analysis|participatory mapping|"
            "geographically weighted regression|census analysis"
        ),
        "metropolitan areas|mountain villages|coastal cities|administrative districts|land parcels|commuting flows",
        "population density|travel time|land use change|accessibility index|settlement growth",
    ),
    "Geology": _vocab(
        (
            "fault zone evolution|sediment transport|magma differentiation|groundwater recharge|glacial erosion|"
            "plate boundary deformation"
        ),
        (
            "U–Pb zircon dating|seismic reflection profiling|geochemical modelling|borehole logging|"
            "thin-section petrography"
        ),
        (
            "granitic plutons|sandstone reservoirs|volcanic ash layers|fault gouge samples|carbonate platforms|"
            "alluvial fans"
        ),
        "slip rate|porosity|crystallization age|grain size|uplift rate",
    ),
    "History": _vocab(
        (
            "colonial administration|medieval trade networks|early modern medicine|labour movements|wartime propaganda|"
            "religious reform"
        ),
        (
            "archival research|prosopographical analysis|oral history interviews|comparative historical analysis|"
            "close reading of sources"
        ),
        (
            "parish registers|merchant letters|court records|newspaper archives|diplomatic correspondence|"
            "municipal accounts"
        ),
        "literacy rate|trade volume|mortality|population size|tax revenue",
    ),
    "Materials Science": _vocab(
        (
            "thin film growth|corrosion resistance|grain boundary engineering|polymer nanocomposites|ceramic sintering|"
            "battery cathode degradation"
        ),
        (
            "X-ray diffraction|transmission electron microscopy|nanoindentation|atomic force microscopy|"
            "molecular dynamics simulation"
        ),
        (
            "TiO₂ nanoparticles|aluminium alloys|graphene sheets|perovskite films|carbon fibre laminates|"
            "high-entropy alloys"
        ),
        "tensile strength|band gap|grain size|fracture toughness|electrical conductivity",
    ),
    "Mathematics": _vocab(
        (
            "robust optimization|spectral graph theory|stochastic differential equations|algebraic topology|"
            "numerical integration|convex analysis"
        ),
        "variational methods|Monte Carlo sampling|spectral decomposition|fixed-point iteration|duality arguments",
        "compact manifolds|random matrices|convex polytopes|Banach spaces|finite groups|sparse linear systems",
        "convergence rate|approximation error|spectral gap|computational complexity|condition number",
    ),
    "Medicine": _vocab(
        (
            "type 2 diabetes|postoperative infection|hypertension management|antimicrobial resistance|"
            "early cancer detection|paediatric asthma"
        ),
        (
            "randomized controlled trials|Cox proportional hazards models|retrospective cohort analysis|meta-analysis|"
            "propensity score matching"
        ),
        (
            "hospitalized patients|primary care practices|elderly adults|intensive care units|fetal ultrasound scans|"
            "tumour biopsies"
        ),
        "30-day mortality|HbA1c level|length of stay|readmission rate|blood pressure",
    ),
    "Philosophy": _vocab(
        (
            "moral responsibility|the philosophy of mind|epistemic justification|political legitimacy|"
            "scientific realism|personal identity"
        ),
        "conceptual analysis|thought experiments|formal logic|historical reconstruction|reflective equilibrium",
        (
            "moral intuitions|counterfactual conditionals|scientific theories|normative claims|Kantian arguments|"
            "testimonial beliefs"
        ),
        "coherence|explanatory power|degree of belief|logical consistency|argumentative strength",
    ),
    "Physics": _vocab(
        (
            "quantum entanglement|superconductivity|gravitational waves|plasma turbulence|topological insulators|"
            "neutrino oscillations"
        ),
        "Monte Carlo simulation|density matrix renormalization|perturbation theory|laser spectroscopy|lattice QCD",
        (
            "cold atom lattices|spin chains|tokamak plasmas|Δ-resonance states|thin superconducting films|"
            "photonic crystals"
        ),
        "critical temperature|coherence time|scattering cross section|energy resolution|magnetic susceptibility",
    ),
    "Political Science": _vocab(
        (
            "electoral competition|coalition formation|public opinion|democratic backsliding|legislative behaviour|"
            "international cooperation"
        ),
        "survey experiments|roll-call analysis|process tracing|multilevel regression|text-as-data methods",
        (
            "national parliaments|party manifestos|voters|municipal governments|international organizations|"
            "protest movements"
        ),
        "voter turnout|vote share|trust in government|policy responsiveness|ideological polarization",
    ),
    "Psychology": _vocab(
        (
            "working memory|emotion regulation|cognitive development|social anxiety|decision making under risk|"
            "visual attention"
        ),
        "functional MRI|eye tracking|longitudinal surveys|reaction time experiments|structured clinical interviews",
        "undergraduate participants|preschool children|older adults|clinical samples|twin pairs|online respondents",
        "recall accuracy|reaction time|anxiety scores|effect size|attention span",
    ),
    "Sociology": _vocab(
        (
            "social mobility|gender inequality|neighbourhood effects|migration networks|civic participation|"
            "educational attainment"
        ),
        (
            "ethnographic fieldwork|social network analysis|life-course analysis|qualitative interviews|"
            "event history analysis"
        ),
        "urban neighbourhoods|immigrant families|secondary schools|labour unions|online communities|young adults",
        "occupational status|social trust|dropout rate|network density|income mobility",
    ),
}

_FIRST_NAMES = (
    "Anna",
    "Wei",
    "Carlos",
    "Priya",
    "Jonas",
    "Fatima",
    "Kenji",
    "Olga",
    "Mehmet",
    "Laura",
    "Tomás",
    "Yuki",
    "Ngozi",
    "Pierre",
    "Sofia",
    "Raj",
    "Ewa",
    "Hamid",
    "Ingrid",
    "Luca",
    "S. G.",
    "J.",
    "Fu-Jian",
    "Zoë",
)
_LAST_NAMES = (
    "Smith",
    "Jones",
    "Lee",
    "Kim",
    "Wang",
    "Müller",
    "García",
    "Nguyen",
    "O'Neill",
    "Mikeladze-Dvali",
    "Wernet",
    "Desplan",
    "Kowalski",
    "Rossi",
    "Tanaka",
    "Okafor",
    "Brown",
    "Zhou",
    "Novák",
    "Johansson",
    "Ahmed",
    "Dubois",
    "Papadopoulos",
    "van der Berg",
    "Silva",
    "Ivanova",
    "Chen",
    "Park",
    "Fischer",
    "Haddad",
)
_MIDDLE_INITIALS = ("A", "B", "C", "D", "E", "J", "K", "L", "M", "P", "R")
