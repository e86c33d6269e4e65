"""English that other extensions write into the HTML, past the documents' messages.

- **sphinx-notfound-page** renders its 404 page from ``notfound_context`` (``title`` and an
  HTML ``body``, "Page not found" by default): no document, so no message Sphinx's ``Locale``
  would translate.
- **sphinxcontrib-log-cabinet** writes the label of its collapsed changelog,
  ``<summary>Changelog</summary>``, in its HTML visitor.

Both are translated the way the extension translates a message: a reviewed catalog of the page's
domain first, then the build's pipeline (cache, glossary, model, fallback ladder); English when
neither has it (no model). They are plain text: each text run between the body's tags is one
text, and whatever comes back (reviewed or model output) is HTML-escaped. A run with no Latin
letter, inside ``<script>``/``<style>``, or holding ``<`` (the placeholder language's
character) stays as it is.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

from sphinx.util.i18n import docname_to_domain

from ..pipeline.origin import Origin
from ..pipeline.service import Requests
from ..plaintext import invisible_controls
from .catalogs import merged, reviewed_sources
from .config import is_chinese
from .runtime import runtime_for

_TAG = re.compile(r"(<[^<>]*>)")  # a tag of the (trusted, conf.py's) body: no nesting, linear
_CODE_TAGS = ("script", "style")
LOG_CABINET = "sphinxcontrib.log_cabinet"
_SUMMARY = "<summary>Changelog</summary>"


def translate_extras(app: Any, pagename: str, context: dict[str, Any], config: Any) -> None:
    """``html-page-context`` of a Chinese build: the 404 page's title and body, and the
    changelog label in any page's body (``config``: the checked :class:`.config.Settings`)."""
    if not is_chinese(app.config.language):
        return
    domain = docname_to_domain(pagename, app.config.gettext_compact)
    body = context.get("body")
    if pagename == getattr(app.config, "notfound_pagename", None) and "notfound.extension" in app.extensions:
        title = context.get("title")
        texts = _runs(body) if isinstance(body, str) else []
        if isinstance(title, str):
            texts.append(html.unescape(title))
        done = translate(app, config, domain, texts)
        if isinstance(title, str) and html.unescape(title) in done:
            context["title"] = html.escape(done[html.unescape(title)], quote=False)
        if isinstance(body, str):
            context["body"] = body = _replace_runs(body, done)
    if LOG_CABINET in app.extensions and isinstance(body, str) and _SUMMARY in body:
        done = translate(app, config, domain, ["Changelog"])
        if "Changelog" in done:
            context["body"] = body.replace(_SUMMARY, f"<summary>{html.escape(done['Changelog'])}</summary>")


def translate(app: Any, config: Any, domain: str, texts: list[str]) -> dict[str, str]:
    """Plain English texts -> their Chinese (not escaped): reviewed first, then the pipeline.
    Texts without a Latin letter, with ``<``, or that nothing translates are left out."""
    todo = [t for t in dict.fromkeys(texts) if _latin(t) and "<" not in t and ">" not in t]
    if not todo:
        return {}
    srcdir, language = Path(app.srcdir), app.config.language
    reviewed = merged(reviewed_sources(srcdir, list(app.config.locale_dirs), language, domain))
    done = {t: reviewed[t] for t in todo if t in reviewed and not invisible_controls(reviewed[t])}
    requests = Requests()
    for text in todo:
        if text not in done:
            requests.add(text)
    if len(requests):
        hits = runtime_for(config).translate(requests)
        done.update({t: h.text for t, h in hits.items() if h.origin is not Origin.ENGLISH and h.fallback != "english"})
    return done


def _latin(text: str) -> bool:
    return any(("a" <= ch <= "z") or ("A" <= ch <= "Z") for ch in text)


def _runs(body: str) -> list[str]:
    """The text runs of an HTML body worth translating (stripped, entities read)."""
    return [text for _i, text in _text_parts(body)]


def _text_parts(body: str) -> list[tuple[int, str]]:
    """(index in ``_TAG.split(body)``, stripped unescaped text) of each text run outside code."""
    parts = _TAG.split(body)
    found: list[tuple[int, str]] = []
    code = False
    for i, part in enumerate(parts):
        if i % 2:  # a tag
            name = part[1:].lstrip("/").split(None, 1)[0].rstrip(">").lower() if len(part) > 2 else ""
            if name in _CODE_TAGS:
                code = not part.startswith("</")
            continue
        text = html.unescape(part).strip()
        if text and not code:
            found.append((i, text))
    return found


def _replace_runs(body: str, done: dict[str, str]) -> str:
    """``body`` with each translated text run replaced (its surrounding whitespace kept)."""
    parts = _TAG.split(body)
    for i, text in _text_parts(body):
        if text in done:
            part = parts[i]
            lead, trail = part[: len(part) - len(part.lstrip())], part[len(part.rstrip()) :]
            parts[i] = lead + html.escape(done[text], quote=False) + trail
    return "".join(parts)
