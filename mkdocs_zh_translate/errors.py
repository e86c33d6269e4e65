"""The one base class of every error this package raises on bad input or a failed step.

The console script catches ``ZhTranslateError`` and prints it as one line (exit code 2), never
a traceback. This module imports nothing, so every part of the package, ``engine`` and
``segment`` included, can derive from it without depending on anything else.
"""


class ZhTranslateError(Exception):
    """A failure to report as one line naming what went wrong (file:line where there is one)."""


class ReviewError(ZhTranslateError):
    """A problem with the review files, worded for the user (``path:line: message``).

    Here, not in ``review/``, because the pipeline raises it too (a malformed glossary or PO
    file) and ``review/`` is built on the pipeline: both import it from this module."""


__all__ = ["ReviewError", "ZhTranslateError"]
