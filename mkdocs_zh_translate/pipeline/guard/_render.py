"""The guard's renderer when a front end has no site's own: Python-Markdown, and what identifies it.

The plugin renders with the site's ``markdown_extensions`` (plus :func:`autodoc_stub` for
mkdocstrings); front ends without a site (``md``, ``docs``) use :data:`DEFAULT_EXTENSIONS`. A
renderer's fingerprint (:func:`extensions_fingerprint`) is part of every verdict's key.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from ..stable import stable_text

Render = Callable[[str], str]


# What a plain Python-Markdown front end renders with when it knows no site: the extensions
# MkDocs sites nearly always enable and that change structure (ids, code, tables).
DEFAULT_EXTENSIONS: tuple[str, ...] = (
    "toc",
    "attr_list",
    "tables",
    "fenced_code",
    "footnotes",
    "admonition",
    "md_in_html",
)


def extensions_fingerprint(extensions: Sequence[Any], configs: dict[str, Any] | None = None) -> str:
    """What identifies a Python-Markdown renderer: its extensions (names, or instances with
    their options), their options, and the versions of Markdown and of each extension's package."""
    import sys

    versions = []
    for extension in extensions:
        module = extension if isinstance(extension, str) else type(extension).__module__
        top = module.split(".")[0]
        versions.append(f"{top}={getattr(sys.modules.get(top), '__version__', '')}")
    import markdown

    parts = [f"markdown={markdown.__version__}", stable_text(list(extensions)), stable_text(dict(configs or {}))]
    return hashlib.sha256("\x00".join([*parts, *sorted(set(versions))]).encode("utf-8", "surrogatepass")).hexdigest()


def python_markdown_renderer(
    extensions: Sequence[Any] = DEFAULT_EXTENSIONS, configs: dict[str, Any] | None = None
) -> Render:
    """A Markdown -> HTML function over one reused Python-Markdown instance (``reset`` between
    pages: building the instance, emoji indexes and all, costs far more than a render).

    Render exactly as the site does. Turning Pygments off would halve the time of a render on
    code-heavy pages, but it changes parsing: superfences then accepts fence options it rejects
    with Pygments (copier's ```` ```tree result="shell" ````), so the guard would judge another page
    (measured on the corpus: 6 of 70 <pre> blocks broken again, 119 instead of 18 reverts)."""
    import markdown

    instance: list[markdown.Markdown] = []  # built on the first render: a build whose verdicts
    # are all stored (a cached rebuild) never pays for it

    def render(text: str) -> str:
        if not instance:
            instance.append(markdown.Markdown(extensions=list(extensions), extension_configs=dict(configs or {})))
        md = instance[0]
        md.reset()
        return md.convert(text)

    return render


def autodoc_stub() -> Any:
    """A stand-in for mkdocstrings' Markdown extension in the guard's renderer.

    mkdocstrings renders a whole API page per ``::: identifier`` (hundreds of ms), and from the
    plugin's ``on_post_build`` it would register anchors with autorefs for the wrong page. The
    guard only needs to see that each directive is still a directive with the same identifier,
    heading and options: this block processor matches exactly what mkdocstrings matches (same
    pattern, same option block) and renders ``<div id="zh-guard-autodoc:…">``."""
    import hashlib
    import re
    import xml.etree.ElementTree as etree

    from markdown.blockprocessors import BlockProcessor
    from markdown.extensions import Extension

    class _Autodoc(BlockProcessor):
        regex = re.compile(r"^(?P<heading>#{1,6} *|)::: ?(?P<name>.+?) *$", flags=re.MULTILINE)

        def test(self, parent: etree.Element, block: str) -> bool:
            return bool(self.regex.search(block))

        def run(self, parent: etree.Element, blocks: list[str]) -> None:
            block = blocks.pop(0)
            match = self.regex.search(block)
            assert match is not None
            if match.start() > 0:
                self.parser.parseBlocks(parent, [block[: match.start()]])
            block, rest = self.detab(block[match.end() :])
            if not block and blocks and blocks[0].startswith(("    handler:", "    options:")):
                block = blocks.pop(0)
            options = hashlib.sha1(block.encode()).hexdigest()[:12]
            heading = match["heading"].count("#")
            etree.SubElement(parent, "div", {"id": f"zh-guard-autodoc:{heading}:{match['name']}:{options}"})
            if rest:
                blocks.insert(0, rest)

    class _AutodocStub(Extension):
        def extendMarkdown(self, md: Any) -> None:
            md.parser.blockprocessors.register(_Autodoc(md.parser), "mkdocstrings", 75)

    return _AutodocStub()
