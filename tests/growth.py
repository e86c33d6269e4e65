"""Growth tested as ratios, never as absolute times (the machines are shared and noisy).

``assert_linear`` times a workload at sizes n, 2n and 4n and fails when the time grows by more
than 3.0× per doubling (linear is ~2, quadratic ~4) in each of three attempts: a busy machine may
slow one measurement, a quadratic rule is ~4 every time.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from functools import partial

import pytest

from mkdocs_zh_translate.segment import segment_markdown

BOUND = 3.0
ATTEMPTS = 3


def fastest(run: Callable[[], object], repeats: int = 3) -> float:
    """The fastest of a few runs, with the cyclic garbage collector off: inside a long test
    session its full collections cost time in proportion to everything earlier tests left alive,
    which made a linear rule look superlinear (3.4-3.7x at 4n in the suite, 2.0-2.2x alone)."""
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeats):
            started = time.perf_counter()
            run()
            best = min(best, time.perf_counter() - started)
    finally:
        gc.enable()
    return best


def growth_ratios(make: Callable[[int], str], n: int, run: Callable[[str], object] = segment_markdown,
                  repeats: int = 3) -> tuple[float, float]:
    """(t(2n)/t(n), t(4n)/t(2n)) of ``run(make(size))``, each time the minimum of a few runs."""
    texts = [make(k * n) for k in (1, 2, 4)]
    t1, t2, t4 = (fastest(partial(run, text), repeats) for text in texts)
    return t2 / t1, t4 / t2


def assert_linear(label: str, ratios: Callable[[], tuple[float, float]]) -> None:
    """Fail unless one of :data:`ATTEMPTS` measurements of ``ratios()`` stays within :data:`BOUND`."""
    measured = (0.0, 0.0)
    for _attempt in range(ATTEMPTS):
        measured = ratios()
        if max(measured) <= BOUND:
            return
    pytest.fail(f"{label}: time grows {measured[0]:.2f}x for 2n and {measured[1]:.2f}x for 4n (linear: ~2)")


def assert_scales(label: str, time_at: Callable[[int], float]) -> None:
    """:func:`assert_linear` for a workload timed at scale k = 1, 2, 4 by ``time_at(k)``."""

    def ratios() -> tuple[float, float]:
        t1, t2, t4 = time_at(1), time_at(2), time_at(4)
        return t2 / t1, t4 / t2

    assert_linear(label, ratios)
