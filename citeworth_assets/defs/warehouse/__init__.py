"""The DuckDB warehouse: one asset per SQL model in dbt_like_sql/, and the job that builds the datasets and
refreshes the warehouse after the shards."""
