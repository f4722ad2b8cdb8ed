"""Local citation recommendation (Saier 2019 ch. 5-6): citation contexts, the evaluation data set, its statistics."""
