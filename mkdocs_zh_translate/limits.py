"""Bounds the engine enforces that every front end checks first, each defined once.

Import-free, so the option table (``pipeline.backends``: the MkDocs config, conf.py and the
flags read their bounds from it) and the engine (which may not import the pipeline) read the
same number: a value refused at config time is the value the engine would refuse at load.
"""

from __future__ import annotations

#: ONNX Runtime's intra-op pool size is a C ``int`` (``--threads 99999999999`` raised its
#: ``TypeError``), and every thread is real: far more than any machine's cores only thrashes.
MAX_THREADS = 1024
