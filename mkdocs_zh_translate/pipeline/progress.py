"""The one progress reporter: a bar on a terminal, a log line every ~10 s anywhere else.

Only model work is reported (cache hits are instant). Both go to stderr, so ``md > out.md``
stays clean; a CI log gets a few lines with rate and ETA instead of silence or ``\r`` noise.
"""

from __future__ import annotations

import os
import sys
import threading
import time
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

    A daemon thread writes the line when ``interval`` passed without one (so a long first chunk
    still shows that the run is alive), finished chunks write it on the same schedule, and a
    closing line gives the total time once any line was written: runs shorter than ``interval``
    print nothing. ``interval=0`` writes a line per chunk and needs no thread."""

    def __init__(self, stream: TextIO | None = None, interval: float = 10.0) -> None:
        self.stream = stream or sys.stderr
        self.interval = interval
        self._lock = threading.Lock()
        self._done = 0
        self._total = 0
        self._started = 0.0
        self._last = 0.0  # when the last line was written
        self._printed = False
        self._running = False
        self._stop: threading.Event | None = None
        self._thread: threading.Thread | None = None

    def update(self, done: int, total: int) -> None:
        with self._lock:
            self._done, self._total = done, total
            now = time.monotonic()
            if not self._running:
                self._running, self._started, self._last, self._printed = True, now, now, False
                if self.interval > 0:
                    self._stop = threading.Event()
                    self._thread = threading.Thread(target=self._run, args=(self._stop,), daemon=True)
                    self._thread.start()
            due = now - self._last >= self.interval
        if due:
            self._write(self.line())

    def _run(self, stop: threading.Event) -> None:
        while not stop.wait(self.interval / 4):
            with self._lock:
                due = time.monotonic() - self._last >= self.interval
            if due:
                self._write(self.line())

    def line(self) -> str:
        """The current state as one line (rate and ETA once a chunk has finished)."""
        with self._lock:
            done, total, elapsed = self._done, self._total, time.monotonic() - self._started
        percent = 100 * done // max(total, 1)
        text = f"{PREFIX}{done}/{total} segments ({percent}%)"
        if done and elapsed > 0:
            rate = done / elapsed
            text += f", {rate:.1f}/s, ETA {_duration((total - done) / rate)}"
        else:
            text += ", ETA unknown"
        return text

    def _write(self, line: str) -> None:
        with self._lock:
            self._last, self._printed = time.monotonic(), True
        self.stream.write(line + "\n")
        self.stream.flush()

    def close(self) -> None:
        thread, stop = self._thread, self._stop
        if stop is not None:
            stop.set()
        if thread is not None:
            thread.join()
        with self._lock:
            running, printed = self._running, self._printed
            done, elapsed = self._done, time.monotonic() - self._started
            self._thread = self._stop = None
            self._running = self._printed = False
        if running and printed:
            self._write(f"{PREFIX}{done} segments translated in {_duration(elapsed)}")
            with self._lock:
                self._printed = False


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


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
