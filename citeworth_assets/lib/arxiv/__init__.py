"""arXiv full texts (unarXive 2020 and 2022+): readers, citation contexts and reference resolution (seeds/004 ch. 4)."""
