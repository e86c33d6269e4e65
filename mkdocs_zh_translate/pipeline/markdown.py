"""One Markdown text through the pipeline: the library's ``translate_markdown`` and ``md``.

No cache unless the caller binds one, no MkDocs: segment, translate each distinct segment once
(with the site build's fallback policy and glossary), guard, splice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import yaml

from ..segment import SiteSyntax, segment_markdown
from .build import GIVEN_TRANSLATOR, Pipeline, SiteInputs, build_pipeline
from .glossary import Glossary
from .progress import Progress
from .report import PageCounts
from .service import Guard, Requests
from .spec import CacheBinding
from .translator import Translator


def translate_markdown(
    text: str,
    translator: Translator | Callable[[], Translator],
    *,
    heading_ids: bool = True,
    slugify: Callable[[str, str], str] | None = None,
    syntax: SiteSyntax | None = None,
    glossary: Glossary | None = None,
    guard: Guard | None = None,
    cache: CacheBinding | None = None,
    progress: Progress | None = None,
    label: str = "page",
    warn: Callable[[str], None] | None = None,
    counts: PageCounts | None = None,
) -> str:
    """Segment ``text``, translate each distinct segment once, and splice the results back.

    ``translator`` is a translator, or a function that builds one: it is called only when a
    segment needs the model (a page of code and cached text never loads it). ``heading_ids``
    pins translated headings to their English ids (``{ #slug }``); ``slugify(text, separator)``
    is the site's heading-id function, ``syntax`` what its extensions change about segments.
    ``warn`` hears, in one line naming ``label``, what the page ``guard`` sent back to English. ``counts``, when given,
    counts every segment as the JSON report does (whole, in pieces, left English...). Raises
    :class:`~.lazy.TranslationFailed` when the translator raises.
    """
    model = translator if not isinstance(translator, Translator) and callable(translator) else None
    load = model or (lambda: cast(Translator, translator))
    pipeline = build_pipeline(
        GIVEN_TRANSLATOR,
        SiteInputs(cache=cache, glossary=glossary, guard=guard),
        load=lambda _spec: load(),
        progress=progress,
    )
    return translate_text(
        pipeline, text, heading_ids=heading_ids, slugify=slugify, syntax=syntax, label=label, warn=warn, counts=counts
    )


def translate_text(
    pipeline: Pipeline,
    text: str,
    *,
    heading_ids: bool = True,
    slugify: Callable[[str, str], str] | None = None,
    syntax: SiteSyntax | None = None,
    label: str = "page",
    warn: Callable[[str], None] | None = None,
    counts: PageCounts | None = None,
) -> str:
    """:func:`translate_markdown` through a built ``pipeline`` (the ``md`` command's, made from
    its translator spec): its cache, glossary and guard; the other arguments as there."""
    service = pipeline.service
    page = segment_markdown(text, slugify=slugify, syntax=syntax, front_matter=has_front_matter(text))
    keys = pipeline.request_keys().page(page)  # with page context where the backend reads it
    requests = Requests()
    for segment, key in zip(page.segments, keys):
        requests.add(key, segment.droppable_pairs)
    hits = service.translate(requests)
    if counts is not None:
        for key in keys:
            counts.count_hit(hits[key].origin, hits[key].fallback)
    markdown, outcome = service.splice(text, page, [hits[k].text for k in keys], heading_ids=heading_ids, label=label)
    if outcome.reverted and warn is not None:
        lines = ", ".join(str(page.segments[i].line) for i in outcome.reverted)
        warn(outcome.reason or f"{label}: the page guard kept segments in English (lines {lines})")
    return markdown


def has_front_matter(text: str) -> bool:
    """Does ``text`` start with front matter MkDocs reads as such (``mkdocs.utils.meta``)?

    A ``---`` line, YAML lines, a ``---`` or ``...`` line, and the YAML a mapping. Anything
    else (``title: A: B`` is no YAML) MkDocs leaves in the page, where it renders as a rule and
    a paragraph or heading, so the segmenter must read it as page body.
    """
    lines = text.split("\n")
    if not lines or lines[0].rstrip(" \t") != "---":
        return False
    for i, line in enumerate(lines[1:-1], start=1):  # the closing line needs a newline after it
        if i > 1 and line.rstrip(" \t") in ("---", "..."):
            try:
                data = yaml.safe_load("\n".join(lines[1:i]) + "\n")
            except yaml.YAMLError:
                return False
            return isinstance(data, dict)
    return False
