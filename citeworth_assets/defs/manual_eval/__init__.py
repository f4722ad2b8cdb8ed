"""Manual evaluation of the CiteWorth dataset (CiteWorth §3.3): the blind sample and Table 3."""
