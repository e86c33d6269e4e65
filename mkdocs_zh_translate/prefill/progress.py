"""Prefill's progress: segments done, rate and ETA, on a terminal or as log lines.

A prefill runs for minutes to hours, often unattended (CI, nohup): on a terminal the line is
redrawn in place; elsewhere one line is printed every ``interval`` seconds and at the end, so a
log shows the rate without thousands of lines, and only when the count moved (the same count
again would show a rate that falls only because the clock ran on).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


class RateProgress:
    """``zh-translate prefill: 1200/5000 segments (24%), 11.3 segments/s, ETA 5m36s``."""

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        terminal: bool | None = None,
        interval: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = stream or sys.stderr
        self.terminal = self.stream.isatty() if terminal is None else terminal
        self.interval = interval
        self.clock = clock
        self.started = clock()
        self._last_line = float("-inf")
        self._drawn = False
        self._shown = -1  # the count of the last line: the same count is not written twice

    def line(self, done: int, total: int) -> str:
        elapsed = max(self.clock() - self.started, 1e-9)
        rate = done / elapsed
        eta = _duration((total - done) / rate) if rate > 0 else "?"
        percent = 100 * done // max(total, 1)
        return f"zh-translate prefill: {done}/{total} segments ({percent}%), {rate:.1f} segments/s, ETA {eta}"

    def update(self, done: int, total: int) -> None:
        now = self.clock()
        if self.terminal:
            self.stream.write("\r" + self.line(done, total) + "\x1b[K")
            self._drawn = True
        elif done != self._shown and (done >= total or now - self._last_line >= self.interval):
            self.stream.write(self.line(done, total) + "\n")
            self._last_line, self._shown = now, done
        self.stream.flush()

    def close(self) -> None:
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False
