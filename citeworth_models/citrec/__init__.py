"""Citation recommendation models of Saier 2019 ch. 5, their metrics (§6.2) and the offline evaluation runner."""
