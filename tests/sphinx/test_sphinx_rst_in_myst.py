"""reST inside a MyST page (an autodoc'ed docstring, an ``{eval-rst}`` block): Sphinx parses the
translation as MyST, so it is written back in MyST syntax; the build and ``sphinx sync`` agree."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from mkdocs_zh_translate.pipeline import lazy
from mkdocs_zh_translate.pofill.formats import protect
from tests.sphinx.helpers import build, project
from tests.sphinx_helpers import page_facts

pytest.importorskip("myst_parser")

MODULE = '''
def fetch(url, retries=3):
    """Fetch ``url`` with :class:`int` retries; see `the guide <https://example.com/guide>`_.

    The **whole** body is read; use `retries` to retry, as :ref:`the notes <notes>` say.
    """
'''

PAGE = """(notes)=
# Notes

Plain `code` and {ref}`notes` in Markdown.

Read the [version policy] and [Mypy][my] before upgrading.

[version policy]: https://example.com/versions
[my]: https://example.com/mypy

```{eval-rst}
Evaluated ``lit`` and :class:`str` here, see `docs <https://example.com/docs>`_.
```

```{eval-rst}
.. autofunction:: zh_rst_in_myst_mod.fetch
```
"""

CONF = """
import sys
sys.path.insert(0, {root!r})
extensions += ["myst_parser", "sphinx.ext.autodoc"]
default_role = "code"
"""


def _myst_project(tmp_path: Path) -> Path:
    root = project(tmp_path)
    with (root / "conf.py").open("a", encoding="utf-8") as fh:
        fh.write(CONF.format(root=str(root)))
    (root / "zh_rst_in_myst_mod.py").write_text(MODULE, encoding="utf-8")
    (root / "notes.md").write_text(PAGE, encoding="utf-8")
    index = root / "index.rst"
    index.write_text(index.read_text(encoding="utf-8").replace("   usage\n", "   usage\n   notes\n"), encoding="utf-8")
    return root


def test_rst_messages_on_a_myst_page_are_translated_with_their_links_and_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.fakes import HanTranslator

    monkeypatch.setattr(lazy, "load_translator", lambda *a, **k: HanTranslator())
    root = _myst_project(tmp_path)
    en = build(root, "en", language="en")
    zh = build(root)
    assert "0 kept in English" in zh.status and zh.warnings == en.warnings
    e, z = page_facts(en.out / "notes.html"), page_facts(zh.out / "notes.html")
    assert e.hrefs == z.hrefs and e.code == z.code
    html = zh.page("notes.html")
    assert "Evaluated" not in html and "whole" not in html and "retries;" not in html and "upgrading" not in html


@pytest.mark.parametrize(
    ("source", "myst"),
    [
        ("Use ``a`b`` and :py:class:`x.Y` now.", "Use ``a`b`` and {py:class}`x.Y` now."),
        ("See `the docs <https://e.com/a_b>`_ and `x`.", "See [the docs](https://e.com/a_b) and {code}`x`."),
        ("Read :ref:`the notes <notes>` **first**.", "Read {ref}`the notes <notes>` **first**."),
        ("Go to https://e.com or `x`:func:, \\*not\\* [x].", "Go to <https://e.com> or {func}`x`, \\*not\\* \\[x\\]."),
    ],
)
def test_rst_in_myst_restores_markup_in_myst_syntax(source: str, myst: str) -> None:
    message = protect(source, "rst-in-myst", default_role="code")
    assert message.restore(message.texts) == (myst, [])


def test_myst_reference_links_get_their_definitions_in_the_msgstr() -> None:
    """Sphinx parses a msgstr on its own: ``[text][label]`` resolves only with its definition."""
    from tests.fakes import HanTranslator

    refs = {"version policy": "[Version Policy]: https://e.com/v", "other": "[other]: https://e.com/o"}
    message = protect("Read the [version policy] first.", "myst", references=refs)
    restored, problems = message.restore(HanTranslator().translate(message.texts))
    assert problems == [] and restored is not None and "Read" not in restored
    assert restored.endswith("\n\n[Version Policy]: https://e.com/v") and "e.com/o" not in restored


@pytest.mark.parametrize("source", ["See `Foo`_ now.", "The |name| here.", "A note [1]_ here."])
def test_rst_markup_myst_cannot_write_keeps_the_message_english(source: str) -> None:
    message = protect(source, "rst-in-myst")
    restored, problems = message.restore(message.texts)
    assert restored is None and "MyST has no inline form" in problems[0]


def test_sync_writes_myst_syntax_for_rst_on_a_myst_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mkdocs_zh_translate.cli.app import main

    root = _myst_project(tmp_path)
    build(root)  # fills the cache (pseudo backend)
    assert main(["sphinx", "sync", str(root)]) == 0
    with (root / "locale" / "zh_CN" / "LC_MESSAGES" / "notes.po").open("rb") as fh:
        entries = {str(m.id): str(m.string) for m in read_po(fh) if m.id}
    docstring = next(v for k, v in entries.items() if k.startswith("Fetch"))
    evaluated = next(v for k, v in entries.items() if k.startswith("Evaluated"))
    markdown = next(v for k, v in entries.items() if k.startswith("Plain"))
    assert "{class}`int`" in docstring and "](https://example.com/guide)" in docstring and "`url`" in docstring
    assert "`lit`" in evaluated and "``lit``" not in evaluated and "{class}`str`" in evaluated
    assert "{ref}`notes`" in markdown  # a MyST message stays MyST
    linked = next(v for k, v in entries.items() if k.startswith("Read the"))
    assert linked.endswith("\n\n[version policy]: https://example.com/versions\n[my]: https://example.com/mypy")
