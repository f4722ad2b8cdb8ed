"""CiteWorth dataset construction (CiteWorth §3): cleaning per shard, per field, dataset, statistics, release."""
