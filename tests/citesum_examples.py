"""CiteSum examples as the paper prints them (Mao et al. 2022, Appendix A, Ratings 1-4): cited paper's title and
abstract (abridged to their first sentences) and the citation text that serves as its TLDR. Test inputs for the
abstractive models, with the faults of real records added where a test needs them."""

EXAMPLES = [
    {
        "cited_paper_id": "traffic",
        "title": "Congested traffic states in empirical observations and microscopic simulations",
        "abstract": "We present data from several German freeways showing different kinds of congested traffic "
        "forming near road inhomogeneities, specifically lane closings, intersections, or uphill gradients. "
        'We simulate these situations with a novel continuous microscopic single-lane model, the "intelligent '
        'driver model" (IDM), using the empirical boundary conditions.',
        "target": 'In a first approach, we use the well-known "intelligent driver model" (IDM) REF to show that the '
        "method works.",
        "discipline": "Physics",
    },
    {
        "cited_paper_id": "maml",
        "title": "Probabilistic Model-Agnostic Meta-Learning",
        "abstract": "Meta-learning for few-shot learning entails acquiring a prior over previous tasks and "
        "experiences, such that new tasks be learned from small amounts of data. In this paper, we propose a "
        "probabilistic meta-learning algorithm that can sample models for a new task from a model distribution.",
        "target": "They extended their approach by incorporating a probabilistic component such that for a new task, "
        "the model is sampled from a distribution of models to guarantee a higher model diversification for "
        "ambiguous tasks REF.",
        "discipline": "Computer Science",
    },
    {
        "cited_paper_id": "lightfield",
        "title": "A Generic Multi-Projection-Center Model and Calibration Method for Light Field\nCameras",
        "abstract": "Light field cameras can capture both spatial and angular information of light rays, enabling 3D "
        "reconstruction by a single exposure. In the paper, we propose a multi-projection-center (MPC) model with "
        "6 intrinsic parameters to characterize light field cameras based on traditional twoparallel-plane (TPP) "
        "representation.",
        "target": "Zhang et al REF proposed a multi-projection-center (MPC) model with six intrinsic parameters to "
        "characterize both conventional and focused LF cameras.",
        "discipline": "Computer Science",
    },
    {
        "cited_paper_id": "openstack",
        "title": "Advancing Research Infrastructure Using OpenStack",
        "abstract": "Abstract-Cloud computing, which evolved from grid computing, virtualisation and automation, has a "
        "potential to deliver a variety of services to the end user via the Internet. This paper presents the "
        "results of research and development work in deploying a private cloud using OpenStack at the "
        "University of Huddersfield, UK, integrated into the University campus Grid QGG.",
        "target": "In REF , the authors focus on the use of a private cloud environment in order to improve the High "
        "Performance Computing (HPC) research infrastructure.",
        "discipline": None,  # a cited paper without a field of study
    },
]
