"""The Kubernetes deployment in deploy/: the instance YAML validates against Dagster's schema and each
configured class's own schema (Kubernetes run launcher, queued run coordinator, Postgres storage) without a
cluster or a database, and the Helm values name the same image, code location, launcher and limits.
Needs the optional extra ``k8s`` (dagster-k8s, dagster-postgres)."""

import shutil
import tomllib
from pathlib import Path

import pytest
import yaml

dagster_k8s = pytest.importorskip(
    "dagster_k8s", reason="the optional extra 'k8s' (pip install -e '.[k8s]') is not installed"
)
pytest.importorskip("dagster_postgres", reason="the optional extra 'k8s' (pip install -e '.[k8s]') is not installed")

from dagster_postgres import DagsterPostgresStorage  # noqa: E402

from citeworth_assets.build.dagster_internals import config_errors, configured_class, instance_config  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def _instance() -> dict:
    return yaml.safe_load((DEPLOY / "dagster.yaml").read_text())


def _values() -> dict:
    return yaml.safe_load((DEPLOY / "values.yaml").read_text())


def _class_config_errors(entry: dict) -> list[str]:
    """Validate a ``{module, class, config}`` entry against the class's own ``config_type()``, as the instance
    does when it builds the class, but without building it (no cluster, no database)."""
    configured = configured_class(entry["module"], entry["class"])
    return config_errors(configured.config_type(), entry.get("config") or {})


def test_the_instance_yaml_validates_against_dagsters_schema(tmp_path):
    shutil.copy(DEPLOY / "dagster.yaml", tmp_path / "dagster.yaml")
    config, custom_class = instance_config(tmp_path)
    assert custom_class is None
    assert config["run_launcher"]["class"] == "K8sRunLauncher" and config["run_launcher"]["module"] == "dagster_k8s"
    assert config["run_coordinator"]["class"] == "QueuedRunCoordinator"
    assert config["concurrency"]["pools"]["default_limit"] == 1  # the warehouse writer and the gpu pool


def test_each_configured_class_accepts_its_config():
    instance = _instance()
    assert _class_config_errors(instance["run_launcher"]) == []
    assert _class_config_errors(instance["run_coordinator"]) == []
    assert config_errors(DagsterPostgresStorage.config_type(), instance["storage"]["postgres"]) == []


def test_a_wrong_launcher_field_is_caught():
    launcher = _instance()["run_launcher"]
    launcher["config"]["env_vars"] = "CITEWORTH_DATA=/mnt/citeworth/data"  # a string, not a list
    launcher["config"]["no_such_field"] = True
    errors = _class_config_errors(launcher)
    assert any("no_such_field" in error for error in errors) and any("env_vars" in error for error in errors)


def test_helm_values_agree_with_the_instance_yaml_and_the_package():
    instance, values = _instance(), _values()
    (deployment,) = values["dagster-user-deployments"]["deployments"]
    module = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["dagster"]["module_name"]
    assert deployment["dagsterApiGrpcArgs"] == ["-m", module]
    assert values["runLauncher"]["type"] == instance["run_launcher"]["class"]
    launcher, helm_launcher = instance["run_launcher"]["config"], values["runLauncher"]["config"]["k8sRunLauncher"]
    assert helm_launcher["runK8sConfig"]["containerConfig"] == launcher["run_k8s_config"]["container_config"]
    assert helm_launcher["jobNamespace"] == launcher["job_namespace"]
    assert values["global"]["postgresqlSecretName"] == launcher["postgres_password_secret"]
    assert values["global"]["dagsterHome"] == launcher["dagster_home"]
    assert values["dagsterDaemon"]["runCoordinator"]["type"] == instance["run_coordinator"]["class"]
    assert values["concurrency"]["pools"]["defaultLimit"] == instance["concurrency"]["pools"]["default_limit"]
    assert values["concurrency"]["runs"]["maxConcurrentRuns"] == instance["concurrency"]["runs"]["max_concurrent_runs"]
    env = {item["name"]: item["value"] for item in deployment["env"]}
    # the same dump and data roots (the code location has CITEWORTH_GPU_POD besides: its training runs ask for a GPU)
    assert dict(item.split("=", 1) for item in launcher["env_vars"]).items() <= env.items()
    assert deployment["volumeMounts"] == launcher["volume_mounts"]


def test_the_image_of_the_values_is_the_one_the_readme_and_dockerfile_build():
    image = _values()["dagster-user-deployments"]["deployments"][0]["image"]
    tagged = f"{image['repository']}:{image['tag']}"
    assert tagged in (DEPLOY / "README.md").read_text()
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert tagged in dockerfile and ".[k8s]" in dockerfile


@pytest.mark.slow  # a few seconds: make test runs it, make test-fast leaves it out
def test_the_training_job_asks_the_cluster_for_a_gpu():
    """In the code location of values.yaml (CITEWORTH_GPU_POD=1, read when the definitions load)."""
    import json
    import os
    import subprocess
    import sys

    from dagster_k8s.job import get_user_defined_k8s_config

    code = (
        "import json; from citeworth_assets.definitions import defs; "
        "print(json.dumps(dict(defs.resolve_job_def('models_job').tags)))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "CITEWORTH_GPU_POD": "1"},
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    config = get_user_defined_k8s_config(json.loads(loaded.stdout.splitlines()[-1]))
    assert config.container_config["resources"]["limits"]["nvidia.com/gpu"] == 1
