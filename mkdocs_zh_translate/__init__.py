"""mkdocs-zh-translate: build a Simplified-Chinese copy of an MkDocs site with a local translator.

The package is split so that the two hard parts can be tested alone:
``segment`` (Markdown in, translatable segments out, splice back) knows nothing of MkDocs or
models, and ``engine`` (ONNX Runtime MarianMT decoding) knows nothing of Markdown or MkDocs.
"""

from __future__ import annotations

__version__ = "0.1.0"
