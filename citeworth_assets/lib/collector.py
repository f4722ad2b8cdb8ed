"""Python's cycle collector paused around work that allocates many objects and makes no reference cycles.

The collector walks the young objects every few hundred allocations. Two places allocate a great deal of what it can
never free: parsing a batch of JSON records (the whole batch being parsed is young; the walks cost more CPU than the
parsing) and loading the definitions (about 160 assets that live as long as the process; the walks were about a
fifth of the load). Reference counting still frees everything in the meantime.
"""

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """The collector off for the block, then restored to whatever state it was in."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
