"""arXiv full texts (unarXive 2020 and 2022+): readers, citation contexts, reference resolution (Saier 2019 ch. 4)."""
