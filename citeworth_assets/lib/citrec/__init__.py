"""Local citation recommendation (seeds/004 ch. 5-6): citation contexts, the evaluation data set, its statistics."""
