"""Keeping a process stoppable around code that changes its signal actions.

When a Dagster run executes in process, Dagster sets SIGTERM to SIGINT's action as the run ends (so that Kubernetes'
SIGTERM interrupts a run like Ctrl-C). In a process that ignores SIGINT (a pytest-xdist worker, a process started in
the background by a shell without job control) SIGTERM is then ignored too, and so is it in every process spawned
afterwards: a run queue, ``citeworth ui`` or a process pool could no longer stop it.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def sigterm_kept() -> Iterator[None]:
    """Run the body, then give SIGTERM back the action it had before."""
    before = signal.getsignal(signal.SIGTERM)
    try:
        yield
    finally:
        main = threading.current_thread() is threading.main_thread()  # only the main thread sets signal actions
        if main and before is not None and signal.getsignal(signal.SIGTERM) is not before:
            signal.signal(signal.SIGTERM, before)
