"""The machine-translation notice at the top of each Chinese page, as the build shows it.

One wording for every output: the plugin's build puts it into each zh page's HTML, ``docs``
writes it at the top of each generated ``page.zh.md`` for the i18n plugins. Pure text (no
MkDocs): the ``banner`` option, the page's reviewed share and the model's name decide it.
"""

from __future__ import annotations

import os

from .pipeline.backends import needs_model
from .plaintext import for_template


def banner_html(
    text: object, *, segments: int, reviewed: int, model: str, translated: bool, machine: bool = True
) -> str:
    """The notice put at the top of each Chinese page; empty when disabled.

    ``text`` is the ``banner`` option as validated (``True``, ``False`` or a string); typed
    ``object`` because that is what MkDocs' ``Type((bool, str))`` option gives. Every word is
    escaped (:func:`~.plaintext.for_template`): a user's string is text, never markup.
    ``machine``: the page shows some machine text. A page of reviews and English only (no
    model could be loaded, ``allow_untranslated``) names no model: none translated it."""
    if text is False:
        return ""
    if not translated:
        body = "本页未翻译，显示英文原文。"
    elif not machine and not isinstance(text, str):
        if segments and reviewed == segments:
            body = "本页译文已全部经人工审校。"
        else:
            body = f"本页 {segments} 个片段中有 {reviewed} 个经人工审校，其余显示英文原文。"
    else:
        first = text if isinstance(text, str) else f"本页由机器翻译（{model}）。"
        if segments and reviewed == segments:
            review = "译文已全部经人工审校。"
        elif reviewed:
            review = f"{segments} 个片段中有 {reviewed} 个经人工审校。"
        else:
            review = "译文未经人工审校。"
        body = first + review
    return (
        '<div class="admonition note zh-translate-banner">'
        f'<p class="admonition-title">{for_template(body)}</p></div>\n'
    )


def model_label(backend: str, model: str | None) -> str:
    """The model's name as the notice shows it: the model directory's name."""
    if not needs_model(backend):
        return f"{backend} 后端"
    return os.path.basename((model or "").rstrip("/")) or "model"
