"""Growth tested as ratios, never as absolute times (the machines are shared and noisy).

The rule, for every growth test:

* **Count work where the code allows it** (:func:`assert_work_linear`): a count the code keeps
  (characters rendered, renders, entries scanned) at sizes n, 2n and 4n is exact, so the verdict
  is one measurement, never retried.
* **Otherwise CPU time, not wall time**: :func:`fastest` reads ``time.thread_time`` (the CPU
  time of the calling thread), so other processes on a busy machine do not count; what is left
  is cache and frequency noise. Each size is the fastest of a few runs, with the cyclic garbage
  collector off, and a run shorter than :data:`MIN_SAMPLE_S` is repeated in a loop until it is
  not (a tiny n measures the timer and the interpreter, not the rule).
* **One verdict over the whole range**: t(4n)/t(n) <= :data:`BOUND` (8): linear is 4, n log n
  about 4.5, quadratic 16. A single slow doubling (2n measured while the machine was busy:
  "3.21x for 2n and 1.09x for 4n" failed the old per-doubling bound of 3) cannot fail it; a
  quadratic rule, 16 on a quiet machine, needs its n measurement to be twice as slow as it
  should be, in each of :data:`ATTEMPTS` attempts, to pass.
* **Rounds, stopped when the verdict is clear** (:func:`growth_ratios`): the sizes are sampled
  in rounds (4n, 2n, n), each size keeping its fastest sample; a round after which
  t(4n)/t(n) <= :data:`CLEAR` (6) ends the measurement, as the fastest of more rounds could only
  lower t(n) further. Most linear rules measure 3-5 in their first round: one round instead of
  three or five. The first run of the code (imports, caches: its warm-up) is at 4n, where it can
  only make growth look worse; for a quadratic rule to stop early, its n sample must be 2.7 times
  as slow as it should be.
* **A cost paid beside another** (the page guard beside the renderer it calls, which is itself
  quadratic on some pages) is judged as a multiple of that other cost at n, 2n and 4n
  (:func:`assert_bounded_multiple`), never against a clock.

``tests/hardening/test_growth_helper.py`` checks the helper itself: quadratic workloads fail it,
linear ones pass.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from functools import partial

import pytest

from mkdocs_zh_translate.segment import segment_markdown

BOUND = 8.0  # t(4n)/t(n): between linear (4) and quadratic (16)
ATTEMPTS = 3
CLEAR = 6.0  # t(4n)/t(n) after a round of growth_ratios at or under this: no more rounds
MIN_SAMPLE_S = 0.02  # a timed sample runs the workload this long at least


def _sampler(run: Callable[[], object]) -> Callable[[], float]:
    """Samples of ``run``: CPU seconds per run, each sample running ``run`` as many times as
    :data:`MIN_SAMPLE_S` needs (the count found by the first sample is kept for the next ones)."""
    loops = 1

    def sample() -> float:
        nonlocal loops
        while True:
            started = time.thread_time()
            for _ in range(loops):
                run()
            spent = time.thread_time() - started
            if spent >= MIN_SAMPLE_S or loops >= 1024:
                return spent / loops
            loops *= 2

    return sample


def _without_gc(sample: Callable[[], float]) -> float:
    """One sample with the cyclic garbage collector off (inside a long test session its full
    collections cost time in proportion to everything earlier tests left alive, which made a
    linear rule look superlinear)."""
    gc.collect()
    gc.disable()
    try:
        return sample()
    finally:
        gc.enable()


def fastest(run: Callable[[], object], repeats: int = 3) -> float:
    """CPU seconds of one ``run()``: the fastest of ``repeats`` samples, with the cyclic garbage
    collector off. A sample runs ``run`` as many times as :data:`MIN_SAMPLE_S` needs, and is
    divided by that count."""
    sample = _sampler(run)

    def best() -> float:
        return min(sample() for _ in range(repeats))

    return max(_without_gc(best), 1e-9)


def growth_ratios(make: Callable[[int], str], n: int, run: Callable[[str], object] = segment_markdown,
                  repeats: int = 3) -> tuple[float, float]:
    """(t(2n)/t(n), t(4n)/t(2n)) of ``run(make(size))``: each time the fastest sample of at most
    ``repeats`` rounds (4n, 2n, n), fewer when a round leaves t(4n)/t(n) <= :data:`CLEAR`."""
    texts = [make(k * n) for k in (1, 2, 4)]
    samplers = [_sampler(partial(run, text)) for text in texts]
    best = [float("inf")] * 3
    for _round in range(repeats):
        for i in (2, 1, 0):
            best[i] = min(best[i], _without_gc(samplers[i]))
        if best[2] <= CLEAR * best[0]:
            break
    t1, t2, t4 = (max(b, 1e-9) for b in best)
    return t2 / t1, t4 / t2


def _verdict(label: str, measured: tuple[float, float], what: str = "time") -> str | None:
    """None when t(4n)/t(n) is within :data:`BOUND`; else the failure's message."""
    whole = measured[0] * measured[1]
    if whole <= BOUND:
        return None
    return (
        f"{label}: {what} grows {whole:.2f}x from n to 4n (bound {BOUND:g}; linear 4, quadratic 16): "
        f"{measured[0]:.2f}x for 2n, then {measured[1]:.2f}x for 4n"
    )


def assert_linear(label: str, ratios: Callable[[], tuple[float, float]]) -> None:
    """Fail unless one of :data:`ATTEMPTS` measurements ``ratios()`` = (t(2n)/t(n), t(4n)/t(2n))
    grows within :data:`BOUND` from n to 4n."""
    failure: str | None = None
    for _attempt in range(ATTEMPTS):
        failure = _verdict(label, ratios())
        if failure is None:
            return
    pytest.fail(failure or label)


def assert_scales(label: str, time_at: Callable[[int], float]) -> None:
    """:func:`assert_linear` for a workload timed at scale k = 1, 2, 4 by ``time_at(k)``."""

    def ratios() -> tuple[float, float]:
        t1, t2, t4 = time_at(1), time_at(2), time_at(4)
        return t2 / t1, t4 / t2

    assert_linear(label, ratios)


def assert_work_linear(label: str, work_at: Callable[[int], float]) -> None:
    """The rule for a count of work at scale k = 1, 2, 4 (``work_at(k)``): exact, so measured once."""
    w1, w2, w4 = work_at(1), work_at(2), work_at(4)
    assert w1 > 0, f"{label}: no work counted at n"
    failure = _verdict(label, (w2 / w1, w4 / w2), "work")
    if failure is not None:
        pytest.fail(failure)


def assert_bounded_multiple(label: str, ratio_at: Callable[[int], float], bound: float) -> None:
    """For a cost that may grow as fast as another one it is paid beside (the page guard beside
    Python-Markdown's own render, which is quadratic on some pages): fail unless, in one of
    :data:`ATTEMPTS` attempts, ``ratio_at(k)`` (the cost over the other, both from
    :func:`fastest`, at scale k = 1, 2, 4) stays within ``bound`` at every scale."""
    measured: list[float] = []
    for _attempt in range(ATTEMPTS):
        measured = [ratio_at(k) for k in (1, 2, 4)]
        if max(measured) <= bound:
            return
    shown = ", ".join(f"{r:.1f}x" for r in measured)
    pytest.fail(f"{label}: costs {shown} at n, 2n, 4n (bound {bound:g}x)")
