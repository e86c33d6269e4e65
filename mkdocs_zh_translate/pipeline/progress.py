"""The progress reporters: a bar on a terminal, a log line every ~10 s anywhere else.

Only model work is reported (cache hits are instant). Both go to stderr, so ``md > out.md``
stays clean; a CI log gets a few lines with rate and ETA instead of silence or ``\r`` noise.
``prefill`` has its own reporter here (``RateProgress``: a rate line on a terminal too); all of
them format durations and percentages with the same helpers.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Protocol, TextIO

from ..logs import PREFIX


class Progress(Protocol):
    """Told how many of ``total`` segments are done after each finished chunk."""

    def update(self, done: int, total: int) -> None: ...

    def close(self) -> None: ...


class NoProgress:
    """Reports nothing (tests, non-terminals, library calls)."""

    def update(self, done: int, total: int) -> None:
        pass

    def close(self) -> None:
        pass


class TerminalProgress:
    """``zh-translate [#####.....] 120/400 segments``, redrawn in place with ``\\r``."""

    WIDTH = 30

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self._drawn = False

    def update(self, done: int, total: int) -> None:
        filled = self.WIDTH * done // max(total, 1)
        self.stream.write(
            f"\rzh-translate [{'#' * filled}{'.' * (self.WIDTH - filled)}] {done}/{total} segments"
        )
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False


class LogProgress:
    """``zh-translate: 120/400 segments (30%), 12.0/s, ETA 23 s`` as one line every ``interval``
    seconds, for logs and CI where a redrawn bar would be noise and silence looks like a hang.

    A line is due when ``interval`` passed without one. When a chunk finished since the last
    line it gives the count, and the rate measured when that chunk finished; otherwise (a long
    chunk) it says the run is alive, ``still translating: no chunk finished in 20 s``, instead of
    repeating the count with a rate that falls as the clock runs. A daemon thread checks every
    ``interval / 4`` (``background=False``: the caller calls :meth:`tick`), and a closing line
    gives the total time once any line was written: runs shorter than ``interval`` print
    nothing. ``interval=0`` writes a line per chunk and needs no thread."""

    def __init__(
        self,
        stream: TextIO | None = None,
        interval: float = 10.0,
        *,
        clock: Callable[[], float] = time.monotonic,
        background: bool = True,
    ) -> None:
        self.stream = stream or sys.stderr
        self.interval = interval
        self.clock = clock
        self.background = background
        self._lock = threading.Lock()
        self._done = 0
        self._total = 0
        self._started = 0.0
        self._changed = 0.0  # when the count last changed
        self._last = 0.0  # when the last line was written
        self._shown = -1  # the count the last line gave (-1: none yet)
        self._printed = False
        self._running = False
        self._stop: threading.Event | None = None
        self._thread: threading.Thread | None = None

    def update(self, done: int, total: int) -> None:
        with self._lock:
            now = self.clock()
            if not self._running:
                self._running, self._started, self._changed, self._last = True, now, now, now
                self._printed, self._shown, self._done = False, -1, done
                self._start_thread()
            if done != self._done:
                self._changed = now
            self._done, self._total = done, total
        self.tick()

    def _start_thread(self) -> None:
        if self.interval > 0 and self.background:
            self._stop = threading.Event()
            self._thread = threading.Thread(target=self._run, args=(self._stop,), daemon=True)
            self._thread.start()

    def _run(self, stop: threading.Event) -> None:
        while not stop.wait(self.interval / 4):
            self.tick()

    def tick(self) -> None:
        """Write the line if one is due."""
        with self._lock:
            now = self.clock()
            if not self._running or now - self._last < self.interval:
                return
            line = self._line(now)
            self._last, self._printed, self._shown = now, True, self._done
        self.stream.write(line + "\n")
        self.stream.flush()

    def _line(self, now: float) -> str:
        done, total = self._done, self._total
        if done == self._shown:
            return f"{PREFIX}still translating: no chunk finished in {duration(now - self._changed)}"
        text = f"{PREFIX}{done}/{total} segments ({percent(done, total)}%)"
        elapsed = self._changed - self._started
        if done and elapsed > 0:
            rate = done / elapsed
            return text + f", {rate:.1f}/s, ETA {duration((total - done) / rate)}"
        return text + ", ETA unknown"

    def close(self) -> None:
        thread, stop = self._thread, self._stop
        if stop is not None:
            stop.set()
        if thread is not None:
            thread.join()
        with self._lock:
            running, printed = self._running, self._printed
            done, elapsed = self._done, self.clock() - self._started
            self._thread = self._stop = None
            self._running = self._printed = False
        if running and printed:
            self.stream.write(f"{PREFIX}{done} segments translated in {duration(elapsed)}\n")
            self.stream.flush()


def duration(seconds: float, *, compact: bool = False) -> str:
    """``42 s``, ``3 min 05 s``, ``2 h 07 min``; ``compact``: ``42s``, ``3m05s``, ``2h07m``
    (prefill's lines)."""
    sep, (sec, minute, hour) = ("", ("s", "m", "h")) if compact else (" ", ("s", "min", "h"))
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds}{sep}{sec}"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}{sep}{minute}{sep}{seconds:02d}{sep}{sec}"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}{sep}{hour}{sep}{minutes:02d}{sep}{minute}"


def percent(done: int, total: int) -> int:
    """Whole percent done, rounded down (a ``total`` of 0 counts as 1)."""
    return 100 * done // max(total, 1)


class RateProgress:
    """Prefill's reporter: ``zh-translate prefill: 1200/5000 segments (24%), 11.3 segments/s,
    ETA 5m36s``.

    A prefill runs for minutes to hours, often unattended (CI, nohup): on a terminal the line is
    redrawn in place; elsewhere one line is printed every ``interval`` seconds and at the end, so
    a log shows the rate without thousands of lines, and only when the count moved (the same
    count again would show a rate that falls only because the clock ran on).
    """

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
        eta = duration((total - done) / rate, compact=True) if rate > 0 else "?"
        return (f"zh-translate prefill: {done}/{total} segments ({percent(done, total)}%), "
                f"{rate:.1f} segments/s, ETA {eta}")

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


def progress_for(enabled: bool | None, *, interval: float | None = None) -> Progress:
    """The reporter for a run: a bar on a terminal, a log line every ``interval`` seconds
    elsewhere (``None``: decide by whether stderr is a terminal), nothing when ``False``.

    ``interval`` defaults to ``$ZH_TRANSLATE_PROGRESS_SECONDS`` or 10 (0: a line per chunk)."""
    if enabled is False:
        return NoProgress()
    if enabled is None and not sys.stderr.isatty():
        return LogProgress(interval=_interval() if interval is None else interval)
    return TerminalProgress()


def _interval() -> float:
    try:
        return max(0.0, float(os.environ.get("ZH_TRANSLATE_PROGRESS_SECONDS", "10")))
    except ValueError:
        return 10.0
