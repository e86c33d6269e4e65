"""The switch for the speed-ups that reach into other packages' internals, and the versions
they were tested with.

Six parts of the plugin save work by wrapping code that is not a public API of its package:

* ``reload.py`` (``mkdocs serve`` reloads reuse unchanged Chinese pages' renders): wraps MkDocs'
  ``Page.render``, records mkdocs-autorefs' ``register_anchor`` / ``register_url`` and reads its
  private switches (``scan_toc``, ``record_backlinks``, ``legacy_refs``), watches mkdocstrings'
  autodoc processor and pymdown-extensions' ``SnippetPreprocessor.get_snippet_path``;
* ``hookmemo.py`` (serve reloads, and a Traditional variant's builds, reuse other plugins' page
  hooks): replaces mkdocs-minify's ``on_post_page`` and Material's search ``on_page_context``
  in MkDocs' event lists;
* ``borrow.py`` (the English build lends its renders to the page guard): wraps MkDocs'
  private ``_RelativePathTreeprocessor.path_to_url``;
* ``jinjacache.py`` (theme templates compiled once per process): sets the bytecode cache of
  every Jinja environment MkDocs makes;
* ``themelisting.py`` (a Traditional variant's build takes the Simplified build's listing of
  the theme's files): wraps the theme's ``get_env`` and the listing its environment gives
  MkDocs' private ``add_files_from_theme`` filter;
* ``convertrender.py`` (a Traditional variant's pages from the Simplified renders, converted):
  wraps MkDocs' ``Page.render`` and sets what it sets (``content``, ``toc``, the render's title,
  anchors and links), as ``reload.py`` does.

Each is correct only for the internals it was written against, so each runs only where every
package it reaches into is installed at a version in :data:`TESTED` (exact versions, each one
run by the test suite: ``tests/plugin/test_plugin_speedups.py`` and the tests of each part),
and the plugin option ``speedups`` is ``auto`` (the default). Anywhere else (another release,
``speedups: off``) the build is the plain one: every page rendered, every hook run, every
template compiled; the outputs are the same, only slower.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

AUTO, OFF = "auto", "off"
CHOICES = (AUTO, OFF)

#: Distribution -> the exact versions whose internals the speed-ups were tested against.
TESTED: dict[str, tuple[str, ...]] = {
    "mkdocs": ("1.6.1",),  # Page.render (reload), _RelativePathTreeprocessor.path_to_url (borrow)
    "mkdocs-material": ("9.8.2",),  # the search plugin's on_page_context (hookmemo)
    "mkdocs-minify-plugin": ("0.8.0",),  # on_post_page (hookmemo)
    "mkdocs-autorefs": ("1.4.5",),  # register_anchor, register_url, the private switches (reload)
    "mkdocstrings": ("1.0.8",),  # the autodoc processor's run (reload)
    "pymdown-extensions": ("13.1.2",),  # SnippetPreprocessor.get_snippet_path (reload)
    "Jinja2": ("3.1.6",),  # Environment.bytecode_cache (jinjacache)
}

#: What each speed-up always reaches into. ``reload`` stands for ``hookmemo`` too (both run
#: only on serve reloads); what they wrap besides is checked where the site uses it:
#: ``reload.site_key`` (autorefs, mkdocstrings, snippets), ``hookmemo`` (minify, Material).
NEEDS: dict[str, tuple[str, ...]] = {
    "reload": ("mkdocs",),
    "borrow": ("mkdocs",),
    "jinjacache": ("mkdocs", "Jinja2"),
    "convertrender": ("mkdocs",),  # a variant's pages from the Simplified renders (convertrender.py)
    "themelisting": ("mkdocs",),  # the theme's files listed once for the variants' builds (themelisting.py)
    "hookstore": ("mkdocs",),  # a variant's page-hook results kept between processes (hookmemo.py)
}


def installed(distribution: str) -> str | None:
    """The installed version of ``distribution``, or None."""
    try:
        return version(distribution)
    except PackageNotFoundError:
        return None


def tested(distribution: str) -> bool:
    """Whether ``distribution`` is installed at a version in :data:`TESTED`."""
    return installed(distribution) in TESTED.get(distribution, ())


def enabled(option: str, speedup: str) -> bool:
    """Whether ``speedup`` (a key of :data:`NEEDS`) runs under the ``speedups`` option: ``auto``
    and every package it reaches into at a tested version."""
    return option == AUTO and all(tested(d) for d in NEEDS[speedup])
