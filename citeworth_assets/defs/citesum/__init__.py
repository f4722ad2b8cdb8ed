"""CiteSum: candidates per shard, the dataset, its release and the extractive baselines."""
