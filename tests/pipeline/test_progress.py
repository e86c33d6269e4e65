"""Durations in progress lines: one formatter for the build's log lines (``3 min 05 s``) and
prefill's compact ones (``3m05s``), each keeping the format it had."""

from __future__ import annotations

import pytest

from mkdocs_zh_translate.pipeline.progress import duration


@pytest.mark.parametrize(
    ("seconds", "spaced", "compact"),
    [
        (0, "0 s", "0s"),
        (42.4, "42 s", "42s"),
        (59.6, "1 min 00 s", "1m00s"),  # rounded first, then split
        (185, "3 min 05 s", "3m05s"),
        (3599.4, "59 min 59 s", "59m59s"),
        (3600, "1 h 00 min", "1h00m"),
        (90000, "25 h 00 min", "25h00m"),
    ],
)
def test_duration_spaced_and_compact(seconds: float, spaced: str, compact: str) -> None:
    assert duration(seconds) == spaced
    assert duration(seconds, compact=True) == compact
