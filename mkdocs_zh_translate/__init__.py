"""mkdocs-zh-translate: build a Simplified-Chinese copy of an MkDocs site with a local translator.

The package is split so that the two hard parts can be tested alone:
``segment`` (Markdown in, translatable segments out, splice back) knows nothing of MkDocs or
models, and ``engine`` (ONNX Runtime MarianMT decoding) knows nothing of Markdown or MkDocs.
``pipeline`` joins them: every front end (the plugin, ``md``, ``po fill``, ``review sync``)
translates through it.
"""

from __future__ import annotations

__version__ = "0.1.0"

# After __version__: the pipeline's modules may read it while this package is initialising.
from .pipeline.markdown import translate_markdown  # noqa: E402
from .translator import Translator  # noqa: E402

__all__ = ["Translator", "__version__", "translate_markdown"]
