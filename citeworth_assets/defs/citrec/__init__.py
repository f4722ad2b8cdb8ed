"""Citation recommendation (Saier 2019 ch. 5, §6.1-6.2): data set, trained recommenders, offline evaluation."""
