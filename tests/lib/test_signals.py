"""Why SIGTERM went ignored in the test workers, and the guard that keeps it: an in-process Dagster run copies
SIGINT's action onto SIGTERM, so where SIGINT is ignored (pytest-xdist workers) SIGTERM ended up ignored too."""

import signal

import dagster as dg

from citeworth_assets.lib.signals import sigterm_kept


@dg.asset
def one() -> int:
    return 1


def test_an_in_process_run_leaves_sigterm_as_sigint_and_the_guard_restores_it():
    before_int = signal.signal(signal.SIGINT, signal.SIG_IGN)
    before_term = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        assert dg.materialize([one]).success
        copied = signal.getsignal(signal.SIGTERM)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        with sigterm_kept():
            assert dg.materialize([one]).success
        kept = signal.getsignal(signal.SIGTERM)
    finally:
        signal.signal(signal.SIGINT, before_int)
        signal.signal(signal.SIGTERM, before_term)
    assert copied is signal.SIG_IGN  # what hung the suite: Pool.terminate could not stop the conversion workers
    assert kept is signal.SIG_DFL
