"""MLflow's artifacts stay under the data root: the Default experiment too, whatever the working directory."""

import sqlite3

import pytest

from citeworth_assets.lib.models.tracking import tracked_run


@pytest.mark.slow  # a few seconds: make test runs it, make test-fast leaves it out
def test_no_mlruns_in_the_working_directory(tmp_path, monkeypatch):
    workdir = tmp_path / "elsewhere"
    workdir.mkdir()
    monkeypatch.chdir(workdir)
    data = tmp_path / "data"
    uri = f"sqlite:///{data / 'mlflow.db'}"
    with tracked_run(uri, "m", {"model": "m"}, data / "mlruns"):
        pass
    with sqlite3.connect(data / "mlflow.db") as db:
        locations = dict(db.execute("SELECT name, artifact_location FROM experiments").fetchall())
    assert all(str(data / "mlruns") in location for location in locations.values()), locations
    assert not (workdir / "mlruns").exists()
