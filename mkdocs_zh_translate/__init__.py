"""mkdocs-zh-translate: build a Simplified-Chinese copy of an MkDocs site with a local translator.

The package is split so that the two hard parts can be tested alone:
``segment`` (Markdown in, translatable segments out, splice back) knows nothing of MkDocs or
models, and ``engine`` (ONNX Runtime MarianMT decoding) knows nothing of Markdown or MkDocs.
``pipeline`` joins them: every front end (the plugin, ``md``, ``po fill``, ``review sync``)
translates through it.

The public names are loaded on first use, so ``import mkdocs_zh_translate.engine`` (the
``translate`` command, the engine tests) does not pull in the Markdown and cache machinery.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._version import __version__
from .errors import ZhTranslateError  # imports nothing: `import mkdocs_zh_translate` stays cheap

if TYPE_CHECKING:
    from .pipeline.markdown import translate_markdown
    from .pipeline.translator import Translator

__all__ = ["Translator", "ZhTranslateError", "__version__", "translate_markdown"]


def __getattr__(name: str) -> object:
    if name == "translate_markdown":
        from .pipeline.markdown import translate_markdown

        return translate_markdown
    if name == "Translator":
        from .pipeline.translator import Translator

        return Translator
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
