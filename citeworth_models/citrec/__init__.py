"""Citation recommendation models of seeds/004 ch. 5, their metrics (§6.2) and the offline evaluation runner."""
