"""Markdown in, translatable segments out, translations spliced back byte-exactly.

Pure: no MkDocs, no models, no IO. See ``_api`` for the entry points. The placeholder
vocabulary (``TAG_RE``, ``tokenize``, ``strip_tags``, ``placeholder_spans``, ``validate``) is public too: the glossary
and the reST protection of ``po fill`` speak it.
"""

from __future__ import annotations

from ._api import SegmentedPage, segment_markdown, untitled_admonitions
from ._model import Segment, SiteSyntax
from ._placeholders import TAG_RE, has_words, placeholder_spans, strip_tags, tokenize, validate
from ._readable import Parsed, from_readable, markup_in, soft_breaks_as_spaces, to_readable
from ._segmenter import SegmentError
from ._sentences import split_sentences
from ._slug import slugify
from ._translate import LADDER, SegmentTranslation, translate_segments

__all__ = [
    "LADDER",
    "TAG_RE",
    "Parsed",
    "Segment",
    "SegmentError",
    "SegmentTranslation",
    "SegmentedPage",
    "SiteSyntax",
    "from_readable",
    "has_words",
    "markup_in",
    "placeholder_spans",
    "segment_markdown",
    "slugify",
    "soft_breaks_as_spaces",
    "split_sentences",
    "strip_tags",
    "to_readable",
    "tokenize",
    "translate_segments",
    "untitled_admonitions",
    "validate",
]
