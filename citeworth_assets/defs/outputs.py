"""What the domains' Dagster glue shares: the two outputs of a per-shard step that keeps some rows and drops
others with a reason (candidates and rejections, accepted paragraphs and rejections, candidates and drops)."""

import dagster as dg


def kept_and_dropped_specs(
    group: str,
    deps: list,
    kept: tuple[str, str],
    dropped: tuple[str, str],
    automation_condition: dg.AutomationCondition | None = None,
) -> list[dg.AssetSpec]:
    """Asset specs of the kept and the dropped table, each given as ``(asset name, description)``."""
    return [
        dg.AssetSpec(
            name,
            deps=deps,
            group_name=group,
            kinds={"parquet"},
            description=description,
            automation_condition=automation_condition,
        )
        for name, description in (kept, dropped)
    ]
