"""One build per data root.

Two builds on one data root would both build every partition and then collide in the warehouse step, so a build
holds an OS lock (``flock``) on ``<data>/.citeworth-build.lock`` while it runs: the kernel drops it when the process
ends, however it ends, so a killed build never leaves a stale lock, and a second build is refused at once.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

LOCK_NAME = ".citeworth-build.lock"


class DataRootBusy(RuntimeError):
    """Another build holds the data root."""


@contextmanager
def data_root_lock(data: Path) -> Iterator[None]:
    """Hold the data root for this process, or raise :class:`DataRootBusy` naming the build that holds it."""
    data.mkdir(parents=True, exist_ok=True)
    path = data / LOCK_NAME
    with open(path, "a+") as handle:  # the descriptor is not inherited: run workers never hold the lock
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "pid unknown"
            raise DataRootBusy(
                f"another build ({holder}) holds the data root {data}; wait for it to finish, or build into "
                "another --data"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}, started {datetime.now(UTC):%Y-%m-%d %H:%M:%S} UTC\n")
        handle.flush()
        try:
            yield
        finally:
            handle.seek(0)
            handle.truncate()
