"""Tuning: fine-tune a site's model on its reviewed translations, measured before it is used.

``data`` chooses what to train and validate on (pure: no torch), ``train`` runs the torch loop
(the ``export`` extra: like ``export/``, the only other package allowed torch), ``run`` guards
the result (validation chrF must beat the base's, a general set must not drop past a margin)
and exports it through ``export.export_model`` with a record of what it was tuned on
(``record``). torch and transformers load inside functions: importing this package is cheap.
"""

from __future__ import annotations

from .errors import TuneError, TuneRefused

__all__ = ["TuneError", "TuneRefused"]
