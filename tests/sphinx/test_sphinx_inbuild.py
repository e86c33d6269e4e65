"""The Sphinx extension: ``sphinx-build -D language=zh_CN`` translates during the build."""

from __future__ import annotations

import collections
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mkdocs_zh_translate.pipeline import lazy
from mkdocs_zh_translate.pipeline.translator import PseudoTranslator
from tests.sphinx.helpers import build, project
from tests.sphinx_helpers import CONTENT_PAGES, broken_links, page_facts

NOTICE = "本页由机器翻译"


def _body(html: str) -> str:
    start = html.index('<div class="body"')
    return re.sub(r"<[^>]+>", "", html[start : html.index('<div class="sphinxsidebar"')])


def _no_model(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the model was loaded")

    monkeypatch.setattr(lazy, "load_translator", refuse)


def test_build_translates_every_message_and_keeps_links_code_ids(tmp_path: Path) -> None:
    root = project(tmp_path)
    en = build(root, "en", language="en")
    zh = build(root)
    assert "「" not in _body(en.page("usage.html")) and NOTICE not in en.page("usage.html")
    for page in CONTENT_PAGES:
        html = zh.page(page)
        assert '<html lang="zh-CN"' in html
        assert NOTICE in html and "译文未经人工审校" in html
        e, z = page_facts(en.out / page), page_facts(zh.out / page)
        assert e.hrefs == z.hrefs, page
        assert e.ids <= z.ids, page
        norm = lambda c: collections.Counter({" ".join(k.split()): v for k, v in c.items()})  # noqa: E731
        assert norm(e.code) == norm(z.code), page
    body = _body(zh.page("usage.html"))
    assert "「Basic usage」" in body and "「Advanced topics」" in body
    # every paragraph of prose went through the translator
    for para in re.findall(r"<p>(.*?)</p>", zh.page("install.html"), re.S):
        text = re.sub(r"<[^>]+>", "", para).strip()
        if text and re.search(r"[A-Za-z]{3}", text):
            assert "「" in text, text
    assert broken_links(zh.out) == broken_links(en.out)
    assert zh.warnings == en.warnings == ""
    assert "0 kept in English" in zh.status
    assert "search index in Chinese (code: zh)" in zh.status  # Sphinx's zh search (jieba)


def test_reviewed_catalog_wins(tmp_path: Path) -> None:
    root = project(tmp_path)
    po = root / "locale" / "zh_CN" / "LC_MESSAGES" / "usage.po"
    po.parent.mkdir(parents=True)
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Basic usage"\nmsgstr "基本用法"\n\n'
        '#, fuzzy\nmsgid "Advanced topics"\nmsgstr "高级主题（草稿）"\n',
        encoding="utf-8",
    )
    zh = build(root)
    body = _body(zh.page("usage.html"))
    assert "基本用法" in body and "「Basic usage」" not in body
    assert "「Advanced topics」" in body and "草稿" not in body  # a fuzzy draft is not a review
    assert re.search(r"\d+ 个片段中有 1 个经人工审校", zh.page("usage.html"))


def test_cached_rebuild_never_loads_the_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path)
    first = build(root, "zh1")
    _no_model(monkeypatch)
    again = build(root, "zh2")  # a fresh environment: every document is read and translated again
    for page in CONTENT_PAGES:
        assert _body(first.page(page)) == _body(again.page(page))
    assert "(0 texts translated by the model in this build)" in again.status


def test_incremental_rebuild_translates_only_the_changed_message(tmp_path: Path) -> None:
    root = project(tmp_path)
    build(root)
    usage = root / "usage.rst"
    usage.write_text(usage.read_text(encoding="utf-8") + "\nA brand new closing paragraph.\n", encoding="utf-8")
    again = build(root, fresh=False)
    assert "(1 texts translated by the model in this build)" in again.status
    assert "「A brand new closing paragraph.」" in _body(again.page("usage.html"))


def test_parallel_build_matches_serial(tmp_path: Path) -> None:
    root = project(tmp_path)
    serial = build(root, "serial")
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-j", "2", "-b", "html", "-D", "language=zh_CN", ".", "_build/par"],
        cwd=root, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "WARNING" not in proc.stderr
    for page in CONTENT_PAGES:
        par = (root / "_build/par" / page).read_text(encoding="utf-8")
        assert _body(par) == _body(serial.page(page)), page
        assert NOTICE in par


class _FootnoteAdding(PseudoTranslator):
    """Writes a footnote reference into one message: text, so validation passes; markup, so the
    message renders a node the English does not have."""

    def translate(self, texts: list[str]) -> list[str]:  # type: ignore[override]
        return [t + " 见 [2]_" if "Release notes" in t else t for t in super().translate(texts)]


def test_guard_keeps_a_broken_message_english(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lazy, "load_translator", lambda *a, **k: _FootnoteAdding())
    root = project(tmp_path)
    zh = build(root)
    line = next(i for i, t in enumerate((root / "usage.rst").read_text().splitlines(), 1) if "Release notes" in t)
    assert re.search(rf"usage\.rst:{line}: WARNING: zh-translate: kept in English by the message guard", zh.warnings)
    assert "footnote" in zh.warnings
    body = _body(zh.page("usage.html"))
    assert "Release notes are on" in body and "「Release notes" not in body and "见" not in body
    assert "「Basic usage」" in body
    assert "1 kept in English" in zh.status


def test_strict_fails_on_english_left_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sphinx.errors import SphinxError

    monkeypatch.setattr(lazy, "load_translator", lambda *a, **k: _FootnoteAdding())
    root = project(tmp_path, "zh_translate_strict = True\n")
    with pytest.raises(SphinxError, match=r"strict: 1 place\(s\) where English is left behind"):
        build(root)


def test_missing_model_fails_unless_allowed(tmp_path: Path) -> None:
    from sphinx.errors import SphinxError

    extra = f"zh_translate_backend = 'onnx'\nzh_translate_model = {str(tmp_path / 'no-model')!r}\n"
    root = project(tmp_path, extra)
    with pytest.raises(SphinxError, match=r"the model cannot be loaded.*zh_translate_allow_untranslated"):
        build(root)
    zh = build(root, zh_translate_allow_untranslated=True)
    assert "本页未翻译" in zh.page("usage.html") and "「" not in _body(zh.page("usage.html"))
    assert "built in English" in zh.warnings


BAD_OPTIONS = [
    ("zh_translate_backend = 'gpu'", "zh_translate_backend must be one of 'onnx', 'pseudo', 'genai', not 'gpu'"),
    ("zh_translate_backend = 'onnx'", "zh_translate_model is not set"),
    ("zh_translate_strict = 'yes'", "zh_translate_strict must be True or False, not 'yes'"),
    ("zh_translate_glossary = 'nope.yml'", "zh_translate_glossary nope.yml: no such file"),
    ("zh_translate_cache_dir = '/etc'", "zh_translate_cache_dir /etc: is /etc, a system directory"),
    ("zh_translate_markup = 'bold'", "zh_translate_markup: unknown markup strategy 'bold'; choose one of auto,"),
    ("zh_translate_shortlist = -1", "zh_translate_shortlist must be a whole number, 0 or more, or None, not -1"),
]


@pytest.mark.parametrize(("line", "message"), BAD_OPTIONS)
def test_bad_option_is_one_line(tmp_path: Path, line: str, message: str) -> None:
    """Each bad value is one ConfigError line, raised by the extension's own check (not from deep
    in the pipeline), before any page is written. In this process: what ``sphinx-build`` prints
    of a ConfigError is the next test's, once (a Python and a Sphinx start per value cost more
    than the rest of this file's option checks together)."""
    from sphinx.errors import ConfigError

    root = project(tmp_path, line + "\n")
    with pytest.raises(ConfigError) as refused:
        build(root)
    assert str(refused.value).startswith(message) and "\n" not in str(refused.value)
    assert "mkdocs_zh_translate/pipeline" not in str(refused.traceback[-1].path)  # no deep frames
    assert not (root / "_build" / "zh" / "index.html").exists()


def test_bad_option_is_one_line_from_sphinx_build(tmp_path: Path) -> None:
    line, message = BAD_OPTIONS[0]
    root = project(tmp_path, line + "\n")
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-b", "html", "-D", "language=zh_CN", ".", "_build/zh"],
        cwd=root, capture_output=True, text=True, timeout=120,
    )
    # Sphinx 9 reports every error with its own context block (versions, the raising frame);
    # the error itself is one line, under Sphinx's "Configuration error!" heading
    assert proc.returncode != 0
    assert "Configuration error!" in proc.stderr
    errors = [x.strip() for x in proc.stderr.splitlines() if x.strip().startswith("sphinx.errors.")]
    assert len(errors) == 1 and errors[0].startswith(f"sphinx.errors.ConfigError: {message}")
    assert "mkdocs_zh_translate/pipeline" not in proc.stderr  # no deep frames: the check is the extension's


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("zh_translate_max_batch_tokens = 0", "zh_translate_max_batch_tokens must be a positive whole number or None, not 0"),
        ("zh_translate_shortlist = True", "zh_translate_shortlist must be a whole number, 0 or more, or None, not True"),
        ("zh_translate_providers = 'cuda'", "zh_translate_providers must be a list of provider names or None, not 'cuda'"),
        ("zh_translate_providers = []", "zh_translate_providers must be a list of provider names or None, not []"),
        ("zh_translate_markup = ['tags']", "zh_translate_markup: unknown markup strategy ['tags']"),
    ],
)
def test_bad_engine_option_is_refused_before_any_document_is_read(tmp_path: Path, line: str, message: str) -> None:
    from sphinx.errors import ConfigError

    root = project(tmp_path, line + "\n")
    with pytest.raises(ConfigError) as refused:
        build(root)
    assert str(refused.value).startswith(message)
    assert not (root / "_build" / "zh" / "index.html").exists()


def test_engine_options_reach_the_model_and_the_cache_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine options of the MkDocs plugin exist in conf.py too, and reach the translator;
    those that can change a translation (shortlist, markup, batch size) are part of the cache
    key, the others (threads, providers) are not."""
    from tests.fakes import HanTranslator

    loads: list[dict[str, object]] = []

    def loader(backend: str, model: str | None, **options: object) -> HanTranslator:
        loads.append({"backend": backend, "model": model, **options})
        return HanTranslator()

    monkeypatch.setattr(lazy, "load_translator", loader)
    model = tmp_path / "model"
    model.mkdir()  # a directory is all the loader checks before it calls the (patched) factory
    engine = (
        f"zh_translate_backend = 'onnx'\nzh_translate_model = {str(model)!r}\n"
        "zh_translate_markup = 'tags'\nzh_translate_max_batch_tokens = 256\nzh_translate_threads = 1\n"
        "zh_translate_providers = ['cpu']\n"
    )
    root = project(tmp_path, engine + "zh_translate_shortlist = 300\n")
    build(root, "a")
    assert loads == [{
        "backend": "onnx", "model": str(model), "beams": None, "threads": 1, "max_batch_tokens": 256,
        "providers": ["cpu"], "markup": "tags", "shortlist": 300,
    }]
    build(root, "b", zh_translate_threads=2)  # threads are not in the key: every text is cached
    assert len(loads) == 1
    build(root, "c", zh_translate_shortlist=0)  # off: another key, so the model runs again
    assert len(loads) == 2 and "shortlist" not in loads[1]
    build(root, "d", zh_translate_max_batch_tokens=512)
    assert len(loads) == 3 and loads[2]["max_batch_tokens"] == 512


def test_sync_writes_reviewable_catalogs_and_keeps_reviews(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mkdocs_zh_translate.cli.app import main

    root = project(tmp_path)
    build(root)  # the build fills the cache: the sync needs no model
    _no_model(monkeypatch)
    assert main(["sphinx", "sync", str(root)]) == 0
    po = root / "locale" / "zh_CN" / "LC_MESSAGES" / "usage.po"
    text = po.read_text(encoding="utf-8")
    assert '#, fuzzy\nmsgid "Basic usage"\nmsgstr "「Basic usage」"' in text
    assert "# zh-translate: machine " in text and "#: ../../../usage.rst:" in text
    # a reviewer accepts one entry with their own words
    po.write_text(text.replace('#, fuzzy\nmsgid "Basic usage"\nmsgstr "「Basic usage」"', 'msgid "Basic usage"\nmsgstr "基本用法"'), encoding="utf-8")
    usage = root / "usage.rst"
    usage.write_text(usage.read_text(encoding="utf-8") + "\nA brand new closing paragraph.\n", encoding="utf-8")
    monkeypatch.undo()
    assert main(["sphinx", "sync", str(root)]) == 0
    text = po.read_text(encoding="utf-8")
    assert 'msgid "Basic usage"\nmsgstr "基本用法"' in text
    assert 'msgid "A brand new closing paragraph."\nmsgstr "「A brand new closing paragraph.」"' in text
    zh = build(root, "after")
    assert "基本用法" in _body(zh.page("usage.html"))
    assert zh.warnings == ""  # the sync's Sphinx left no directive registered in this process


def test_sync_without_conf_py_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from mkdocs_zh_translate.cli.app import main

    assert main(["sphinx", "sync", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no conf.py" in err


@pytest.mark.slow
def test_onnx_model_build_then_cached_rebuild_without_the_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.models import tiny_onnx_model

    model = tiny_onnx_model()
    root = project(tmp_path, f"zh_translate_backend = 'onnx'\nzh_translate_model = {str(model)!r}\n")
    first = build(root, "zh1")
    assert f"本页由机器翻译（{model.name}）" in first.page("usage.html")
    loaded = re.search(r"\((\d+) texts translated by the model", first.status)
    assert loaded is not None and int(loaded.group(1)) > 0
    _no_model(monkeypatch)
    again = build(root, "zh2")
    assert "(0 texts translated by the model in this build)" in again.status
    for page in CONTENT_PAGES:
        assert _body(first.page(page)) == _body(again.page(page))


MYST_PAGE = """# Notes in Markdown

See [the attrs overview](https://example.org/overview) and the `namedtuple` helper.
It is fast[^perf] and works with the [](install) page too, see {pep}`557` and {doc}`usage`.

## Fast paths

```{list-table} Examples
* - one
  - two
```

[^perf]: Measured on CPython.
"""


def test_myst_page_messages_are_protected_as_markdown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A MyST page's messages are Markdown: Sphinx parses the translation with MyST, so links,
    inline code and footnote references must survive a model that rewrites every word."""
    pytest.importorskip("myst_parser")
    from tests.fakes import HanTranslator

    monkeypatch.setattr(lazy, "load_translator", lambda *a, **k: HanTranslator())
    root = project(tmp_path, 'extensions.append("myst_parser")\nmyst_heading_anchors = 2\n')
    (root / "notes.md").write_text(MYST_PAGE, encoding="utf-8")
    (root / "more.md").write_text("# More\n\nRead [the notes](notes.md#fast-paths) first.\n", encoding="utf-8")
    index = root / "index.rst"
    index.write_text(
        index.read_text(encoding="utf-8").replace("   usage\n", "   usage\n   notes\n   more\n"), encoding="utf-8"
    )
    en = build(root, "en", language="en")
    zh = build(root)
    assert "zh-translate" not in zh.warnings and zh.warnings == en.warnings
    e, z = page_facts(en.out / "notes.html"), page_facts(zh.out / "notes.html")
    assert e.hrefs == z.hrefs and e.code == z.code
    assert "Measured" not in _body(zh.page("notes.html")) and "0 kept in English" in zh.status
    # the link to a MyST heading anchor still resolves (MyST's slugs of the English headings)
    assert page_facts(zh.out / "more.html").hrefs == page_facts(en.out / "more.html").hrefs


def test_type_made_of_references_is_no_message(tmp_path: Path) -> None:
    """A type option's cross-references are made by the directive, not by the message's markup:
    Sphinx's splice would lose them for any translation, a reviewed one too, and the type has no
    words but the references. It is left alone: not translated, not counted, not warned about."""
    root = project(tmp_path)
    with (root / "usage.rst").open("a", encoding="utf-8") as fh:
        fh.write(
            "\n.. py:data:: hook\n\n   :type: HookCaller\n\n   The hook relay.\n"
            "\n.. py:data:: check\n\n   :type: Callable[[HookCaller], bool] | None\n\n   The check.\n"
        )
    en = build(root, "en", language="en")
    zh = build(root)
    assert zh.warnings == en.warnings == ""
    assert "Sphinx cannot splice" not in zh.status and "0 kept in English" in zh.status
    assert "「The hook relay.」" in _body(zh.page("usage.html")) and "「The check.」" in _body(zh.page("usage.html"))
    e, z = page_facts(en.out / "usage.html"), page_facts(zh.out / "usage.html")
    assert e.hrefs == z.hrefs and e.code == z.code


@pytest.mark.parametrize(
    ("source", "parts"),
    [
        ("See {pep}`681` and {py:class}`attrs.Attribute` now.", ["{pep}`681`", "{py:class}`attrs.Attribute`"]),
        ("Version {{ release }} is fast[^perf].", ["{{ release }}", "[^perf]"]),
        ("Use {code}``a`b`` too.", ["{code}``a`b``"]),
        ("Pass `--{on}/--{off}` or `x=1` as {pep}`8` says.", ["`--{on}/--{off}`", "`x=1`", "{pep}`8`"]),
    ],
)
def test_myst_roles_and_substitutions_reach_the_model_as_placeholders(source: str, parts: list[str]) -> None:
    from mkdocs_zh_translate.pofill.formats import protect
    from tests.fakes import HanTranslator

    message = protect(source, "myst")
    assert not any(part in text for part in parts for text in message.texts)
    restored, problems = message.restore(HanTranslator().translate(message.texts))
    assert problems == [] and restored is not None
    assert [p for p in parts if p in restored] == parts and "See" not in restored


class _CountingPseudo(PseudoTranslator):
    """The pseudo model, counting the engine calls and the texts of each."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[int] = []

    def translate(self, texts: list[str]) -> list[str]:  # type: ignore[override]
        self.calls.append(len(texts))
        return super().translate(texts)


def test_cross_document_batching_translates_every_document_in_one_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``zh_translate_batch``: the misses of all documents reach the model together (one chunk
    here), not one document's at a time; pages, warnings and the summary are the unbatched ones."""
    per_doc, batched = _CountingPseudo(), _CountingPseudo()
    monkeypatch.setattr(lazy, "load_translator", lambda *a, **k: per_doc)
    plain = build(project(tmp_path / "a", "zh_translate_batch = False\n"))
    monkeypatch.setattr(lazy, "load_translator", lambda *a, **k: batched)
    root = project(tmp_path / "b", "zh_translate_batch = True\n")
    zh = build(root)
    assert len(per_doc.calls) >= 3 and batched.calls == [sum(per_doc.calls)]
    assert zh.warnings == plain.warnings == ""
    for page in CONTENT_PAGES:
        assert _body(zh.page(page)) == _body(plain.page(page)), page
    count = re.search(r"\((\d+) texts translated by the model in this build\)", zh.status)
    assert count is not None and int(count.group(1)) == sum(per_doc.calls)
    _no_model(monkeypatch)
    again = build(root, "zh2")  # fresh environment, full cache: the pre-read stops at once
    assert "(0 texts translated by the model in this build)" in again.status
    assert _body(again.page("usage.html")) == _body(zh.page("usage.html"))


STRAY_PAGE = """\
Stray marks
===========

A value: ``one``,
,``:option:`--two[=x]``` or ``three``.

Star after a comma,*not* emphasis, bar after a stop.|not| a substitution.
"""


def test_plain_marks_after_full_width_punctuation_stay_plain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """English reST starts no markup after "," or "." (``a,``b`` is text); the model's "，" and
    "。" are punctuation reST does allow there, so the same backquotes would open a literal (a
    warning only the Chinese build has) or the star emphasis. They stay plain text."""
    from tests.fakes import HanTranslator

    monkeypatch.setattr(lazy, "load_translator", lambda *a, **k: HanTranslator())
    root = project(tmp_path)
    (root / "stray.rst").write_text(STRAY_PAGE, encoding="utf-8")
    index = root / "index.rst"
    index.write_text(index.read_text(encoding="utf-8").replace("   usage\n", "   usage\n   stray\n"), encoding="utf-8")
    en = build(root, "en", language="en")
    zh = build(root)
    assert zh.warnings == en.warnings
    assert "0 kept in English" in zh.status
    e, z = page_facts(en.out / "stray.html"), page_facts(zh.out / "stray.html")
    assert e.code == z.code and e.hrefs == z.hrefs
    body = zh.page("stray.html")
    assert "<em>" not in body and "，``" in _body(body) and "。|" in _body(body)


FIELD_PAGE = """\
Fields
======

.. py:function:: make(auto_exc)

   Make a thing.

   :param auto_exc: If the class subclasses ``BaseException``, the following
      happens:

      - the values for *eq* are ignored and compared by id [#]_ ,
      - the value of *str* is ignored.

      .. [#] Note that *attrs* will not remove them.

   :type auto_exc: bool
"""


def test_field_body_of_several_blocks_keeps_its_list_and_footnote(tmp_path: Path) -> None:
    """Sphinx's docfields make a typed field's body of several blocks one message; its
    translation would replace the list and the footnote with one paragraph. Each paragraph is
    translated on its own instead."""
    root = project(tmp_path)
    (root / "fields.rst").write_text(FIELD_PAGE, encoding="utf-8")
    index = root / "index.rst"
    index.write_text(index.read_text(encoding="utf-8").replace("   usage\n", "   usage\n   fields\n"), encoding="utf-8")
    en = build(root, "en", language="en")
    zh = build(root)
    assert zh.warnings == en.warnings == "" and "0 kept in English" in zh.status
    e, z = page_facts(en.out / "fields.html"), page_facts(zh.out / "fields.html")
    assert e.hrefs == z.hrefs and e.code == z.code and e.ids == z.ids
    html = zh.page("fields.html")
    assert html.count("<li>") == en.page("fields.html").count("<li>")
    body = " ".join(_body(html).split())
    assert "「If the class subclasses BaseException, the following happens:」" in body
    assert "「the value of str is ignored.」" in body and "「Note that attrs will not remove them.」" in body


INDEX_PAGE = """\
Index targets
=============

.. contents::
   :local:

Roles
-----

.. index:: single: widgets

The widget protocol follows :pep:`8` and :pep:`257`.

Every :index:`widget <single: widget; drawing>` draws itself, see also :rfc:`2822`.

Notes
-----

Footnotes [#one]_ keep theirs [#]_.

.. [#one] The first.
.. [#] The second.
"""


def test_numbered_ids_of_translated_messages_stay_english(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``Locale`` parses each translation again, and the roles in it number their targets again
    (``index-3`` where the English had ``index-0``): deep links and index entries would point
    elsewhere. The English numbers are given back, the index still reaches them. A local table
    of contents is named by the language's label ("目录" makes no id, so docutils numbered it
    and every later id): it gets the English id and the later numbers are the English ones."""
    from tests.fakes import HanTranslator

    monkeypatch.setattr(lazy, "load_translator", lambda *a, **k: HanTranslator())
    root = project(tmp_path)
    (root / "targets.rst").write_text(INDEX_PAGE, encoding="utf-8")
    index = root / "index.rst"
    index.write_text(index.read_text(encoding="utf-8").replace("   usage\n", "   usage\n   targets\n"), encoding="utf-8")
    en = build(root, "en", language="en")
    zh = build(root)
    assert zh.warnings == en.warnings == "" and "0 kept in English" in zh.status
    e, z = page_facts(en.out / "targets.html"), page_facts(zh.out / "targets.html")
    assert {"index-1", "index-3", "contents", "id1"} <= e.ids and e.ids == z.ids
    assert e.hrefs == z.hrefs
    index_links = lambda build: sorted(re.findall(r'href="(targets\.html#[^"]+)"', build.page("genindex.html")))  # noqa: E731
    assert index_links(zh) == index_links(en) and len(index_links(en)) >= 5
    assert broken_links(zh.out, [*CONTENT_PAGES, "targets.html"]) == broken_links(en.out, [*CONTENT_PAGES, "targets.html"])
