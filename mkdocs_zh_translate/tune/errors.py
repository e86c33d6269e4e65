"""The tuning errors: one for bad input (exit 2), one for a model the guards refused (exit 1)."""

from __future__ import annotations

from ..errors import ZhTranslateError


class TuneError(ZhTranslateError):
    """Tuning cannot start or finish for a reason the user can act on; one line."""


class TuneRefused(ZhTranslateError):
    """The tuned model is not better: validation chrF did not beat the base's, or the general
    set dropped past the margin. Nothing was written; the message says both numbers."""
