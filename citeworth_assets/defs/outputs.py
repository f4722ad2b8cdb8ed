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
    return parquet_specs(group, dict([kept, dropped]), deps, automation_condition)


def parquet_specs(
    group: str,
    described: dict[str, str],
    deps: list | None = None,
    automation_condition: dg.AutomationCondition | None = None,
) -> list[dg.AssetSpec]:
    """Asset specs of lake tables one step writes together: asset name -> description."""
    return [
        dg.AssetSpec(
            name,
            deps=deps,
            group_name=group,
            kinds={"parquet"},
            description=description,
            automation_condition=automation_condition,
        )
        for name, description in described.items()
    ]


def per_shard_kept_and_dropped(
    group: str,
    deps: list,
    kept: tuple[str, str],
    dropped: tuple[str, str],
    check: tuple[str, str, str] | None = None,
    automation_condition: dg.AutomationCondition | None = None,
):
    """The decorator of a per-shard step writing a kept and a dropped table (:func:`kept_and_dropped_specs`), with
    its one check given as ``(check name, asset it checks, description)``."""
    from citeworth_assets.defs.s2orc.partitions import s2orc_shards

    checks = [dg.AssetCheckSpec(check[0], asset=check[1], description=check[2])] if check else None
    return dg.multi_asset(
        specs=kept_and_dropped_specs(group, deps, kept, dropped, automation_condition),
        check_specs=checks,
        partitions_def=s2orc_shards,
    )


def derived_asset(group: str, deps: list, description: str, kinds=("parquet",), **extra):
    """The decorator of an asset computed from others that follows them without a click (``follows_shards``)."""
    from citeworth_assets.defs.automation import follows_shards

    return dg.asset(
        automation_condition=follows_shards(),
        deps=deps,
        group_name=group,
        kinds=set(kinds),
        description=description,
        **extra,
    )


def duplicates_result(context: dg.AssetExecutionContext, rows: int, unit: str) -> dg.MaterializeResult:
    """What a table of papers found in several input files (``unit``: shard, dump file) reports: its row count, and
    one warning when there is any."""
    if rows:
        context.log.warning(
            f"{rows} occurrences of papers found in several {unit}s; the first by release, {unit} and line is kept"
        )
    return dg.MaterializeResult(metadata={"duplicate_rows": rows})
