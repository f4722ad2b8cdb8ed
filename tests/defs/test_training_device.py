"""The ``training_device`` resource: how device and precision resolve, what a training run records, and that a
training step runs with it. The CUDA tests run only where CUDA is present."""

import json
import os

import dagster as dg
import pytest
import torch

from citeworth_assets.defs.models.assets import training_assets
from citeworth_assets.resources import TrainingDevice
from citeworth_models.registry import NEURAL_MODELS
from citeworth_models.training import DeviceError, autocast_dtype, resolve_setup, train_with_params

CUDA = torch.cuda.is_available()
needs_cuda = pytest.mark.skipif(not CUDA, reason="CUDA is not available on this machine")
no_cuda = pytest.mark.skipif(CUDA, reason="checks the behaviour of a machine without CUDA")
METADATA_KEYS = {
    "training_device",
    "training_device_name",
    "training_precision",
    "training_deterministic",
    "training_torch_version",
    "training_transformers_version",
    "training_cuda_version",
}


@no_cuda
def test_auto_falls_back_to_the_cpu_and_records_it():
    setup = TrainingDevice().setup()
    assert (setup.device, setup.precision) == ("cpu", "fp32")
    assert "CUDA is not available" in setup.fallback
    assert "CUDA is not available" in TrainingDevice().describe()["training_fallback"]


@no_cuda
@pytest.mark.parametrize("device", ["cuda", "cuda:0", "cuda:3"])
def test_an_explicit_gpu_without_cuda_is_a_clear_error_not_a_silent_cpu_run(device):
    with pytest.raises(DeviceError, match=f"training device '{device}': CUDA is not available"):
        TrainingDevice(device=device).setup()


@pytest.mark.parametrize(
    ("device", "precision", "message"),
    [
        ("gpu", "auto", "use 'auto', 'cpu', 'cuda' or 'cuda:N'"),
        ("cuda:x", "auto", "use 'auto'"),
        ("cpu", "fp8", "training precision 'fp8'"),
        ("cpu", "fp16", "'fp16' needs a GPU"),
    ],
)
def test_bad_settings_name_the_setting(device, precision, message):
    with pytest.raises(DeviceError, match=message):
        resolve_setup(device, precision)


def test_cpu_precisions_resolve_to_their_autocast_dtype():
    cpu = torch.device("cpu")
    assert resolve_setup("cpu", "bf16").precision == "bf16" and autocast_dtype(cpu, "bf16") is torch.bfloat16
    assert resolve_setup("CPU", "auto").precision == "fp32" and autocast_dtype(cpu, "fp32") is None
    assert resolve_setup("cpu", memory_limit=0.5).memory_fraction is None  # a GPU cap means nothing on the CPU
    with pytest.raises(DeviceError, match="memory limit"):
        resolve_setup("cpu", memory_limit=0)


def test_describe_gives_the_metadata_keys_as_strings():
    described = TrainingDevice(device="cpu", deterministic=True).describe()
    assert METADATA_KEYS <= set(described) and all(isinstance(value, str) for value in described.values())
    assert described["training_device"] == "cpu" and described["training_deterministic"] == "True"
    assert described["training_torch_version"] == torch.__version__
    assert "training_fallback" not in described  # cpu was asked for: no fallback


def _tiny_step(setup_params: dict) -> tuple[list[float], torch.nn.Module]:
    torch.manual_seed(0)
    network = torch.nn.Linear(4, 2)
    inputs = torch.randn(16, 4)
    labels = (inputs.sum(dim=1) > 0).long()
    device = torch.device(setup_params["device"])
    inputs, labels = inputs.to(device), labels.to(device)

    def batch_loss(batch):
        rows = torch.tensor(batch, device=device)
        return torch.nn.functional.cross_entropy(network(inputs[rows]).float(), labels[rows])

    params = {
        "batch_size": 4,
        "epochs": 2,
        "lr": 0.05,
        "weight_decay": 0.0,
        "warmup_steps": 0,
        "seed": 0,
        **setup_params,
    }
    losses = []
    train_with_params(
        network,
        list(range(16)),
        batch_loss,
        params,
        device,
        evaluate=lambda: -float(batch_loss(list(range(16))).detach()),
        on_epoch=lambda epoch, f1: losses.append(-f1),
    )
    return losses, network


@pytest.mark.parametrize("precision", ["fp32", "bf16"])
def test_a_training_step_on_the_cpu_with_the_resource(precision):
    setup = TrainingDevice(device="cpu", precision=precision, deterministic=True).setup()
    losses, network = _tiny_step(setup.params())
    assert losses[-1] < losses[0]  # it learnt
    assert next(network.parameters()).device.type == "cpu"
    assert not torch.are_deterministic_algorithms_enabled()  # restored after training


def test_every_neural_training_asset_requires_the_resource_and_only_they_are_in_the_gpu_pool():
    by_model = {asset.key.path[-1].removeprefix("model_"): asset for asset in training_assets}
    for name, asset in by_model.items():
        neural = name in NEURAL_MODELS
        assert ("training_device" in asset.required_resource_keys) == neural, name
        assert (asset.op.pool == "gpu") == neural, name
    assert "logistic_regression" in by_model and "logistic_regression" not in NEURAL_MODELS


def test_the_code_location_registers_the_resource():
    from citeworth_assets.definitions import defs

    assert isinstance(defs.resources["training_device"], TrainingDevice)


@pytest.mark.slow
def test_a_training_asset_records_the_device_in_metadata_and_mlflow(tmp_path):
    import sys
    from pathlib import Path

    import mlflow

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "models"))  # the model tests' small tables
    from tables import TINY, make_rows, write_table

    from citeworth_assets.defs.models.assets import citeworth_tiny_encoder
    from citeworth_assets.resources import PlatformResource

    data = tmp_path / "data"
    release = data / "exports" / "citeworth" / "citeworth_2021"
    release.mkdir(parents=True)
    write_table(release / "citeworth.parquet", make_rows(40))
    (transformer,) = [asset for asset in training_assets if asset.key.path[-1] == "model_transformer"]
    result = dg.materialize(
        [citeworth_tiny_encoder, transformer],
        selection=[transformer.key],
        resources={
            "citeworth": PlatformResource(dumps=str(tmp_path), data=str(data)),
            "training_device": TrainingDevice(device="cpu"),
        },
        run_config={"ops": {"model_transformer": {"config": {"params_json": json.dumps({**TINY, "epochs": 1})}}}},
    )
    metadata = result.asset_materializations_for_node("model_transformer")[0].metadata
    assert METADATA_KEYS <= set(metadata) and metadata["training_device"].value == "cpu"
    run = mlflow.tracking.MlflowClient(f"sqlite:///{data / 'mlflow.db'}").get_run(metadata["run_id"].value)
    assert run.data.params["training_device"] == "cpu" and run.data.params["precision"] == "fp32"


@needs_cuda
def test_auto_takes_the_gpu_in_mixed_precision_and_trains_there():
    setup = TrainingDevice().setup()
    assert setup.device == "cuda:0" and setup.precision in ("bf16", "fp16") and setup.fallback is None
    described = TrainingDevice().describe()
    assert described["training_compute_capability"].count(".") == 1 and described["training_device_name"] != "cpu"
    losses, network = _tiny_step(setup.params())
    assert losses[-1] < losses[0] and next(network.parameters()).device.type == "cuda"


@needs_cuda
def test_a_memory_limit_in_gib_becomes_a_fraction_of_the_gpu():
    total = torch.cuda.get_device_properties(0).total_memory
    setup = resolve_setup("cuda:0", "auto", memory_limit=1.5)
    assert setup.memory_fraction == pytest.approx(1.5 * 2**30 / total)


def test_cpu_training_threads_are_bounded(monkeypatch):
    import torch

    from citeworth_models.training import apply_setup, default_cpu_threads, resolve_setup

    setup = resolve_setup("cpu")
    assert setup.cpu_threads == default_cpu_threads() >= 1
    assert default_cpu_threads() <= max(1, len(os.sched_getaffinity(0)) // 2)
    before = torch.get_num_threads()
    try:
        apply_setup(resolve_setup("cpu", cpu_threads=1))
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)
    with pytest.raises(DeviceError, match="CPU threads 0"):
        resolve_setup("cpu", cpu_threads=0)
    monkeypatch.setenv("CITEWORTH_CPU_THREADS", "1")
    resource = TrainingDevice.from_environment().process_config_and_initialize()
    assert resource.setup().cpu_threads == 1 and resource.describe()["training_cpu_threads"] == "1"
