"""Work spread over spawned worker processes that can neither hang the caller nor lose more than one item.

Two faults made a pool hang for good: a worker that died (killed for memory, a crash in a C library) and a
worker that ignores SIGTERM. A spawned child inherits an ignored signal, and a process that ran a Dagster job in
process ignores SIGTERM whenever it ignores SIGINT (Dagster copies SIGINT's action onto SIGTERM when a run ends;
pytest-xdist workers ignore SIGINT), so ``multiprocessing.Pool.terminate`` then waited forever for workers it could
not stop. Here:

- every worker restores SIGTERM's default action when it starts;
- the executor reports a dead worker (``BrokenProcessPool``) instead of waiting for its answer; the oldest item in
  flight is then run alone in a fresh pool, and if that pool breaks too, the item is the one that kills its worker:
  it is answered by ``lost`` and the others are submitted again;
- an item without an answer after ``answer_seconds`` is answered by ``lost`` and its pool is killed (SIGKILL,
  which no process can ignore);
- shutting down waits at most ``CLOSE_SECONDS`` for idle workers to exit, then kills what is left.
"""

from __future__ import annotations

import collections
import multiprocessing
import signal
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")
CLOSE_SECONDS = 10.0
TIMED_OUT = "timeout"  # why an item was lost: no answer within answer_seconds
DIED = "worker_died"  # why an item was lost: its worker process died while working on it


def _start_worker() -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class _Workers:
    """One process pool at a time, started when first needed, replaced after a fault."""

    def __init__(self, count: int, tasks_per_worker: int):
        self.count, self.tasks_per_worker = count, tasks_per_worker
        self.executor: ProcessPoolExecutor | None = None

    def submit(self, work: Callable[[T], R], item: T):
        if self.executor is None:
            self.executor = ProcessPoolExecutor(
                self.count,
                mp_context=multiprocessing.get_context("spawn"),  # no fork of a threaded parent (Dagster, click)
                initializer=_start_worker,
                max_tasks_per_child=self.tasks_per_worker,
            )
        try:
            return self.executor.submit(work, item)
        except BrokenProcessPool as error:  # a worker died before its item's answer was read: this one waits too
            broken: Future = Future()
            broken.set_exception(error)
            return broken

    def close(self, kill: bool = False) -> None:
        """Stop the pool: idle workers exit on their own (at most ``CLOSE_SECONDS``); the rest, or all with
        ``kill``, are killed."""
        executor, self.executor = self.executor, None
        if executor is None:
            return
        processes = _processes(executor)
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if kill:
                process.kill()
            process.join(CLOSE_SECONDS)
            if process.is_alive():
                process.kill()
                process.join(CLOSE_SECONDS)


def _processes(executor: ProcessPoolExecutor) -> list:
    """The executor's worker processes. Python has no public accessor before 3.14 (``kill_workers``); the
    executor's own table is the only place that knows them."""
    return list((getattr(executor, "_processes", None) or {}).values())


def ordered_map(
    work: Callable[[T], R],
    items: Iterable[T],
    workers: int,
    answer_seconds: float,
    lost: Callable[[T, str], R],
    tasks_per_worker: int = 200,
) -> Iterator[R]:
    """``work(item)`` for each item, in input order, run in ``workers`` spawned processes; at most twice that many
    items are in flight, so memory stays bounded whatever the input's length. An item whose worker died or gave
    no answer within ``answer_seconds`` costs only itself: ``lost(item, why)`` (``why`` is :data:`DIED` or
    :data:`TIMED_OUT`) stands for its answer. ``work``
    must be picklable (a module-level function or a ``functools.partial`` of one)."""
    pool = _Workers(workers, tasks_per_worker)
    pending: collections.deque = collections.deque()
    finished = False
    try:
        for item in items:
            pending.append((item, pool.submit(work, item)))
            if len(pending) >= 2 * workers:
                yield _next_answer(pending, pool, work, answer_seconds, lost)
        while pending:
            yield _next_answer(pending, pool, work, answer_seconds, lost)
        finished = True
    finally:
        pool.close(kill=not finished)


def _next_answer(pending: collections.deque, pool: _Workers, work, answer_seconds: float, lost) -> R:
    item, future = pending.popleft()
    try:
        return future.result(timeout=answer_seconds)
    except TimeoutError:
        answer = lost(item, TIMED_OUT)
    except BrokenProcessPool:
        pool.close(kill=True)
        try:  # alone in a fresh pool: only an item that kills its worker breaks this one too
            answer = pool.submit(work, item).result(timeout=answer_seconds)
        except BrokenProcessPool:
            answer = lost(item, DIED)
        except TimeoutError:
            answer = lost(item, TIMED_OUT)
    pool.close(kill=True)  # a stuck or broken pool; or a fresh one that ran the item alone
    for index, (other, _) in enumerate(pending):  # what was in flight goes to a new pool
        pending[index] = (other, pool.submit(work, other))
    return answer
