"""Markdown in, translatable segments out, translations spliced back byte-exactly.

Pure: no MkDocs, no models, no IO. See ``_api`` for the entry points. The placeholder
vocabulary (``TAG_RE``, ``tokenize``, ``strip_tags``, ``placeholder_spans``, ``validate``, ``renumber``,
``apply_ids``, ``without_pairs``) is public too: the glossary, the reST protection of ``po fill``
and the pipeline's fallback ladder (``pipeline.ladder``) speak it. So is ``HTML_BLOCK_TAGS`` (with
``HTML_VOID_BLOCK_TAGS``), data: the tags that open a raw HTML block for Python-Markdown. The page
guard cuts pages where ``SegmentedPage.blocks`` says the top-level blocks start (the same parse).
"""

from __future__ import annotations

from ._api import SegmentedPage, segment_markdown, untitled_admonitions
from ._htmltags import HTML_BLOCK_TAGS, HTML_VOID_BLOCK_TAGS
from ._model import Segment, SiteSyntax
from ._placeholders import (
    TAG_RE,
    apply_ids,
    has_words,
    placeholder_spans,
    renumber,
    strip_tags,
    tokenize,
    validate,
    without_pairs,
)
from ._readable import Parsed, from_readable, markup_in, soft_breaks_as_spaces, to_readable
from ._segmenter import SegmentError
from ._sentences import split_lines, split_sentences
from ._slug import slugify

__all__ = [
    "HTML_BLOCK_TAGS",
    "HTML_VOID_BLOCK_TAGS",
    "TAG_RE",
    "Parsed",
    "Segment",
    "SegmentError",
    "SegmentedPage",
    "SiteSyntax",
    "apply_ids",
    "from_readable",
    "has_words",
    "markup_in",
    "placeholder_spans",
    "renumber",
    "segment_markdown",
    "slugify",
    "soft_breaks_as_spaces",
    "split_lines",
    "split_sentences",
    "strip_tags",
    "to_readable",
    "tokenize",
    "untitled_admonitions",
    "validate",
    "without_pairs",
]
