"""The one progress reporter: a bar on a terminal, nothing anywhere else.

Only model work is reported (cache hits are instant). The bar goes to stderr and only when it
is a terminal, so logs, CI output and ``md > out.md`` stay clean.
"""

from __future__ import annotations

import sys
from typing import Protocol, TextIO


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


def progress_for(enabled: bool | None) -> Progress:
    """The reporter for a run: ``None`` means "a bar if stderr is a terminal"."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    return TerminalProgress() if enabled else NoProgress()
