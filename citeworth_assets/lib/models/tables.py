"""Lake tables of the model domain: the model comparison (Table 4) and the cross-field matrix (Table 5)."""

import pyarrow as pa

COMPARISON_SCHEMA = pa.schema(
    [
        ("model", pa.string()),
        ("run_id", pa.string()),
        ("precision", pa.float64()),
        ("recall", pa.float64()),
        ("f1", pa.float64()),
        ("dataset_version", pa.string()),
    ]
)
DOMAIN_SCHEMA = pa.schema([("train_field", pa.string()), ("test_field", pa.string()), ("f1", pa.float64())])
