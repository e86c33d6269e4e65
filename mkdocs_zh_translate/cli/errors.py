"""The console script's own error (bad arguments) and its exit code.

Every other error of the package derives from ``ZhTranslateError`` too, and ``app.main`` prints
them all the same way, so a sub-command raises what its machinery raises and adds nothing.
"""

from __future__ import annotations

from ..errors import ZhTranslateError

EXIT_USAGE = 2


class CliError(ZhTranslateError):
    """A failure to report as one line on stderr with exit code 2, never a traceback."""


__all__ = ["EXIT_USAGE", "CliError"]
