"""The worker pool behind the LaTeX source conversion: answers in order, and a worker that dies, hangs or was
started by a parent that ignores SIGTERM costs at most its own item, never a hang."""

import os
import signal
import time
from concurrent.futures.process import BrokenProcessPool
from functools import partial

import pytest

from citeworth_assets.lib.worker_pool import DIED, TIMED_OUT, _Workers, ordered_map


def square_or_fail(dying: int, hanging: int, item: int) -> int:
    """The worker's job in these tests: a square, or an abrupt end of the worker process, or no answer at all."""
    if item == dying:
        os._exit(3)  # as a worker killed for memory: no exception, no answer
    if item == hanging:
        time.sleep(600)
    return item * item


def sigterm_action(_item) -> str:
    return str(signal.getsignal(signal.SIGTERM))


def lost(item, why):
    return (item, why)


@pytest.mark.timeout(120)
def test_answers_come_in_input_order():
    work = partial(square_or_fail, -1, -1)
    assert list(ordered_map(work, range(23), 2, 60, lost)) == [n * n for n in range(23)]


@pytest.mark.timeout(120)
def test_a_worker_that_dies_costs_only_its_item():
    work = partial(square_or_fail, 5, -1)
    answers = list(ordered_map(work, range(12), 2, 60, lost))
    assert answers[5] == (5, DIED)
    assert answers[:5] + answers[6:] == [n * n for n in range(12) if n != 5]


@pytest.mark.timeout(120)
def test_an_item_given_to_a_pool_already_broken_waits_for_its_turn():
    """A worker may die before its answer is read while more items are handed out (CI met it): the next hand-out
    must not raise, its answer is the broken pool, which ordered_map then treats as it treats the others."""
    pool = _Workers(1, 10)
    try:
        with pytest.raises(BrokenProcessPool):
            pool.submit(partial(square_or_fail, 0, -1), 0).result(timeout=60)
        later = pool.submit(partial(square_or_fail, -1, -1), 1)
        with pytest.raises(BrokenProcessPool):
            later.result(timeout=60)
    finally:
        pool.close(kill=True)


@pytest.mark.slow  # a few seconds: make test runs it, make test-fast leaves it out
@pytest.mark.timeout(120)
def test_a_worker_that_never_answers_costs_only_its_item():
    work = partial(square_or_fail, -1, 3)
    started = time.monotonic()
    answers = list(ordered_map(work, range(8), 2, 4, lost))
    assert answers[3] == (3, TIMED_OUT)
    assert answers[:3] + answers[4:] == [n * n for n in range(8) if n != 3]
    assert time.monotonic() - started < 60  # the stuck worker was killed, not waited for


@pytest.mark.timeout(120)
def test_workers_of_a_parent_that_ignores_sigterm_can_still_be_stopped():
    before = signal.signal(signal.SIGTERM, signal.SIG_IGN)  # as a pytest-xdist worker after an in-process run
    try:
        actions = set(ordered_map(sigterm_action, range(6), 2, 60, lost))
        # stopped early, with work in flight: the pool is shut down without waiting on it
        early = ordered_map(partial(square_or_fail, -1, 4), range(10), 2, 60, lost)
        assert [next(early) for _ in range(3)] == [0, 1, 4]
        early.close()
    finally:
        signal.signal(signal.SIGTERM, before)
    assert actions == {str(signal.SIG_DFL)}
