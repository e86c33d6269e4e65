"""Hostile inputs (issue 10): what an outside contributor, an unlucky user or a full disk does.

Every test here failed on main before the hardening branch. Untrusted inputs are PO files,
glossary.yml and model output; the tests put payloads in each and look for them, unescaped, in
the built HTML. Growth is tested as ratios of times at n, 2n and 4n (min of repeats), never as
absolute times.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from mkdocs_zh_translate.segment import segment_markdown

# -- 4. the segmenter is linear on pathological input ------------------------------------------

PATHOLOGICAL: dict[str, tuple[Callable[[int], str], int]] = {
    # name: (input of size n, n); was exponential / quadratic on main
    "attr_list a=b": (lambda n: "Hello world {" + "a=b" * n + " end.\n", 4000),
    "jinja {{": (lambda n: "{{" * n + "\n", 4000),
    "bracket math \\(": (lambda n: "\\(" * n + "\n", 4000),
    "url closing parens": (lambda n: "see http://a.b/" + ")" * n + "\n", 20000),
    "loose placeholder": (lambda n: "x <" + " " * n + "y\n", 20000),
}


def _best_time(text: str, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        segment_markdown(text)
        best = min(best, time.perf_counter() - started)
    return best


def growth_ratios(make: Callable[[int], str], n: int) -> tuple[float, float]:
    """(t(2n)/t(n), t(4n)/t(2n)), each time the minimum of a few runs."""
    t1, t2, t4 = (_best_time(make(k * n)) for k in (1, 2, 4))
    return t2 / t1, t4 / t2


@pytest.mark.parametrize("name", list(PATHOLOGICAL))
def test_segmenter_grows_linearly(name: str) -> None:
    make, n = PATHOLOGICAL[name]
    ratios: tuple[float, float] = (0.0, 0.0)
    for _attempt in range(3):  # a busy machine may slow one measurement; quadratic is ~4 every time
        ratios = growth_ratios(make, n)
        if max(ratios) <= 2.5:
            return
    pytest.fail(f"{name}: time grows {ratios[0]:.2f}x for 2n and {ratios[1]:.2f}x for 4n (linear: ~2)")


def test_attr_list_still_an_atom() -> None:
    page = segment_markdown("Hello world {: #id .cls data-x=1 } end.\n\nA {{ var }} and \\(x^2\\) here.\n")
    texts = [s.text for s in page.segments]
    assert all("{:" not in t and "{{" not in t and "\\(" not in t for t in texts), texts
