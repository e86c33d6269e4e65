"""The page guard: a translated page must keep the English page's structure, or lose segments.

The segmenter recognises the constructs it knows; real sites use more. Rather than
ship a broken page when a construct is unknown, the guard renders the English page and the
spliced zh page with the site's own Markdown renderer and compares what a translation must
never change:

* ``<pre>`` blocks, byte for byte;
* the multiset of ``href``/``src`` values (the Markdown has no language prefix; the zh build
  adds none to relative links), and of mkdocs-autorefs' ``<autoref identifier>`` references;
* element ids (heading anchors, footnotes, code line anchors);
* inline code (``<code>`` outside ``<pre>``) and math (``arithmatex`` elements, ``<math>``);
* the block structure: every list, list item, blockquote, table part, definition list,
  ``<details>`` and paragraph, by its path of such ancestors (``ul>li>p``), so a translation
  that ends a list early, merges an item into prose or lets a quote's text escape its
  blockquote breaks the page as surely as a lost link.

When they differ it finds the offending segments by bisection (each probe is one render of the
page with only some segments translated) and puts them back to English; if the page still
differs with all of those reverted (segments that break only together), the whole page goes
back to English. The result says which segments were reverted and why, in one line.

The guard has a budget (:data:`BUDGET`): Python-Markdown is quadratic on some pages (a run of
``[`` or ``<a ``), and the English build pays that once; the guard renders the English page and
the spliced page (two renders, passing or not) and then, only when they differ, searches. The
search may spend, in CPU time of the guard's thread, :data:`BUDGET` times what the English
page's render took, or :data:`BUDGET_FLOOR_S` when that is more (so ordinary pages, whose
renders take milliseconds, search as before); past that, the page goes back to English whole,
with a warning naming it. The check is made before each render, so a page costs at most the
budget plus one render.

Pure of MkDocs: the front end supplies ``render`` (Markdown -> HTML). The plugin passes
Python-Markdown with the site's ``markdown_extensions``; :func:`python_markdown_renderer` is the
default for front ends without a site (``md``, ``docs``).

The English render may be borrowed: a front end whose site renders every page anyway
passes :class:`PageGuard` ``english``, the structures of those renders by Markdown, when they
are what ``render`` makes of the same Markdown. A page whose exact Markdown the site rendered
costs one render instead of two; the English render is still made, to time the
search's budget, when the page differs. The front end stores only renders it knows to be the
guard's own (see ``plugin/borrow.py``).

Verdicts are cached: the guard's renders cost more than everything else of a cached
rebuild or a ``mkdocs serve`` reload, and an unchanged page with unchanged translations gets the
same verdict. A front end passes a :class:`VerdictStore` (the machine cache) and the renderer's
fingerprint (:func:`extensions_fingerprint`); the key is a hash of everything the verdict
depends on (see :meth:`PageGuard.verdict_key`), so a stored verdict is never stale.

The package in parts: ``_structure`` (what a rendered page must keep), ``_regions`` (where a
page may be cut, and the search over its regions), ``_search`` (the one bisection, the
suspects), ``_verdict`` (the result and its cache key), ``_render`` (the default renderer and
its fingerprint), ``_guard`` (:class:`PageGuard`).
"""

from __future__ import annotations

from ._guard import BUDGET, BUDGET_FLOOR_S, PageGuard, make_guard
from ._regions import region_starts
from ._render import DEFAULT_EXTENSIONS, Render, autodoc_stub, extensions_fingerprint, python_markdown_renderer
from ._structure import Structure, structure
from ._verdict import GUARD_FORMAT, GuardResult, VerdictStore

__all__ = [
    "BUDGET",
    "BUDGET_FLOOR_S",
    "DEFAULT_EXTENSIONS",
    "GUARD_FORMAT",
    "GuardResult",
    "PageGuard",
    "Render",
    "Structure",
    "VerdictStore",
    "autodoc_stub",
    "extensions_fingerprint",
    "make_guard",
    "python_markdown_renderer",
    "region_starts",
    "structure",
]
