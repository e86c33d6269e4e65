"""Hostile inputs (issue 10): what an outside contributor, an unlucky user or a full disk does.

Every test here failed on main before the hardening branch. Untrusted inputs are PO files,
glossary.yml and model output; the tests put payloads in each and look for them, unescaped, in
the built HTML. Growth is tested as ratios of times at n, 2n and 4n (min of repeats), never as
absolute times.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import polib
import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.segment import segment_markdown
from tests.growth import assert_linear, assert_scales, assert_work_linear, fastest, growth_ratios
from tests.plugin_sites import NAV, PAGES, build_in_process, write_site

# -- 4. the segmenter is linear on pathological input ------------------------------------------

PATHOLOGICAL: dict[str, tuple[Callable[[int], str], int]] = {
    # name: (input of size n, n); was exponential / quadratic on main
    "attr_list a=b": (lambda n: "Hello world {" + "a=b" * n + " end.\n", 4000),
    "jinja {{": (lambda n: "{{" * n + "\n", 4000),
    "mdx_include {!": (lambda n: "{!" * n + "\n", 4000),
    "bracket math \\(": (lambda n: "\\(" * n + "\n", 4000),
    "url closing parens": (lambda n: "see http://a.b/" + ")" * n + "\n", 50000),
    "loose placeholder": (lambda n: "x <" + " " * n + "y\n", 50000),
}


@pytest.mark.parametrize("name", list(PATHOLOGICAL))
def test_segmenter_grows_linearly(name: str) -> None:
    make, n = PATHOLOGICAL[name]
    assert_linear(name, lambda: growth_ratios(make, n))


def _guard_page(n: int) -> tuple[str, Any, list[str | None]]:
    """n paragraphs with a link each; every 10th translation loses its link (spliced raw, as an
    unknown construct would be: the guard must find n/10 breaking segments)."""
    from tests.pipeline.test_pipeline_guard import RawPage

    texts = [f"Read the [part {k}](part{k}.md) of the guide now." for k in range(n)]
    source = "".join(f"{t}\n\n" for t in texts)
    translations: list[str | None] = [
        f"「{t}」" if k % 10 else f"「Read the part {k} of the guide now.」" for k, t in enumerate(texts)
    ]
    return source, RawPage.of(source, texts), translations


def test_page_guard_grows_linearly_with_breaking_segments() -> None:
    """The guard's search, as the page and the number of segments it must revert grow together:
    bisecting the whole page costs a whole-page render per probe (quadratic); over regions the
    probes render their regions (near-linear). Counted in characters rendered, not timed."""
    from mkdocs_zh_translate.pipeline.guard import PageGuard, python_markdown_renderer

    render = python_markdown_renderer()

    def rendered(k: int) -> float:  # counted: characters of Markdown the search rendered
        source, page, translations = _guard_page(k * 60)
        result = PageGuard(render, floor_s=float("inf")).check(source, page, translations)  # no budget
        assert len(result.reverted) == k * 6 and not result.whole_page
        return result.rendered

    assert_work_linear("page guard", rendered)


REVIEWED = {
    "unclosed tags": (lambda n: "运行" + "<a" * n, 20000),
    "attr-list equals": (lambda n: "运行" + "{=" * n, 2000),
}


@pytest.mark.parametrize("name", list(REVIEWED))
def test_reviewed_text_check_grows_linearly(name: str) -> None:
    from mkdocs_zh_translate.segment import from_readable

    segment = segment_markdown("Run the build command.\n").segments[0]
    make, n = REVIEWED[name]

    def best(k: int) -> float:
        text = make(k * n)
        return fastest(lambda: from_readable(segment, text))

    assert_scales(name, best)


# The zh build's heading-pin reader (plugin/pins.py) searches every heading's text.
PIN_TEXTS: dict[str, Callable[[int], str]] = {
    "spaces then no brace": lambda n: "a" + " " * n + "b",
    "open pins": lambda n: "a " + "{ #a" * n,
    "spaces and braces": lambda n: "a" + " {" * n + " }",
    "id quotes": lambda n: 'a { id="' + "a" * n,
}


@pytest.mark.parametrize("name", list(PIN_TEXTS))
def test_heading_pin_reader_grows_linearly(name: str) -> None:
    from mkdocs_zh_translate.plugin.pins import heading_pin

    assert_linear(name, lambda: growth_ratios(PIN_TEXTS[name], 20000, heading_pin))


def test_attr_list_still_an_atom() -> None:
    page = segment_markdown("Hello world {: #id .cls data-x=1 } end.\n\nA {{ var }} and \\(x^2\\) here.\n")
    texts = [s.text for s in page.segments]
    assert all("{:" not in t and "{{" not in t and "\\(" not in t for t in texts), texts


# -- 1-3. untrusted text reaches pages only as text --------------------------------------------

PAYLOAD = "\" zhevil=\"1' <zhevil>&amp; & <script>alert(1)</script>"


class _LiveMarkup(HTMLParser):
    """What a browser would execute or obey from the payloads: their tags, attributes, scripts."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._tag = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._tag = tag
        if tag == "zhevil":
            self.found.append("<zhevil> element")
        for name, value in attrs:
            if name == "zhevil" or (name == "http-equiv" and "refresh" in (value or "").lower()):
                self.found.append(f"<{tag} {name}={value!r}>")
            if "evil.example" in (value or ""):
                self.found.append(f"<{tag} {name}={value!r}>")

    def handle_data(self, data: str) -> None:
        if self._tag == "script" and "alert(1)" in data:
            self.found.append("live <script>alert(1)")


def live_markup(text: str) -> list[str]:
    parser = _LiveMarkup()
    parser.feed(text)
    return parser.found


class PayloadTranslator:
    """A hostile model: keeps the placeholders, appends quotes, tags, ampersands and a script."""

    fingerprint = "payload-model"

    def translate(self, texts: Sequence[str]) -> list[str]:
        return [f"{t}{PAYLOAD}" if t.strip() else t for t in texts]


def _payload_loader(monkeypatch: pytest.MonkeyPatch) -> None:
    from mkdocs_zh_translate.pipeline import lazy

    monkeypatch.setattr(lazy, "load_translator", lambda backend, model, **options: PayloadTranslator())


def _poison_po(path: Path, msgstr_for: Callable[[str], str]) -> int:
    po = polib.pofile(str(path))
    count = 0
    for entry in po:
        if entry.msgid:
            entry.msgstr = msgstr_for(entry.msgid)
            if "fuzzy" in entry.flags:
                entry.flags.remove("fuzzy")
            count += 1
    po.save()
    return count


def test_no_payload_reaches_any_zh_html_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _payload_loader(monkeypatch)
    (tmp_path / "model").mkdir()
    pages = dict(PAGES)  # admonition titles: the default one (site.po) and one written on the page
    pages["guide/usage.md"] += '\n!!! note\n    A default title.\n\n!!! warning "Careful here"\n    Body text.\n'
    pages["guide/titled.md"] = "# A title from its heading\n\nNo nav title, no front matter.\n"  # page.title from H1
    config = write_site(
        tmp_path, theme="material", plugin={"backend": "onnx", "model": "model", "banner": "机器翻译 <b>&"},
        pages=pages, extra_config={"markdown_extensions": ["admonition"], "nav": NAV},
    )
    build_in_process(config)
    assert cli_main(["review", "sync", "-f", str(config)]) == 0
    review = tmp_path / "translations" / "zh"
    # Reviewers' payloads: page entries and site strings (site name, description, nav, front matter).
    assert _poison_po(review / "index.md.po", lambda m: "欢迎 <zhevil> " + m) > 0
    site_po = review / "site.po"
    assert _poison_po(site_po, lambda m: '0;url=//evil.example/" http-equiv="refresh' if "cache" in m else f"{m} & 译") > 0
    (review / "glossary.yml").write_text("terms:\n  cache: 缓存&存储\n", encoding="utf-8")
    build_in_process(config)
    zh_files = list((tmp_path / "site" / "zh").rglob("*.html"))
    assert len(zh_files) >= 4
    seen_payload = False
    for path in zh_files:
        text = path.read_text(encoding="utf-8")
        assert live_markup(text) == [], path
        seen_payload = seen_payload or "zhevil" in text
    assert seen_payload  # the payloads did reach the pages, as text
    assert "缓存&amp;存储" in (tmp_path / "site" / "zh" / "index.html").read_text(encoding="utf-8")


def test_glossary_markup_is_refused_with_file_and_line(tmp_path: Path) -> None:
    from mkdocs_zh_translate.pipeline.glossary import load_glossary
    from mkdocs_zh_translate.review.store import ReviewError

    path = tmp_path / "glossary.yml"
    path.write_text('keep: [MkDocs]\nterms:\n  plugin: 插件\n  guide: "\\"><script>alert(1)</script><meta x=\\""\n', encoding="utf-8")
    with pytest.raises(ReviewError, match=r"glossary\.yml:4: glossary term .*plain text"):
        load_glossary(path)


@pytest.mark.parametrize("bad", ["\u202e", "\u2066", "\u2069", "\u200b", "\ufeff", "\u200d"])
def test_glossary_invisible_controls_are_refused(tmp_path: Path, bad: str) -> None:
    from mkdocs_zh_translate.pipeline.glossary import load_glossary
    from mkdocs_zh_translate.review.store import ReviewError

    path = tmp_path / "glossary.yml"
    path.write_text(f"terms:\n  plugin: 插{bad}件\n", encoding="utf-8")
    with pytest.raises(ReviewError, match=r"glossary\.yml:2: .*invisible control characters \(U\+"):
        load_glossary(path)


@pytest.mark.parametrize("bad", ["\u202a", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200b", "\u2060", "\ufeff"])
def test_reviewed_msgstr_with_invisible_controls_is_rejected(bad: str) -> None:
    from mkdocs_zh_translate.segment import from_readable

    segment = segment_markdown("Run the build command.\n").segments[0]
    assert from_readable(segment, "运行构建命令。").problems == []
    problems = from_readable(segment, f"运行{bad}构建命令。").problems
    assert any("invisible control" in p and f"U+{ord(bad):04X}" in p for p in problems), problems


def test_zwj_inside_an_emoji_sequence_is_kept() -> None:
    from mkdocs_zh_translate.segment import from_readable

    segment = segment_markdown("Run the build command.\n").segments[0]
    assert from_readable(segment, "运行构建命令 👩\u200d💻。").problems == []
    assert from_readable(segment, "运行\u200d构建命令。").problems != []


def test_rejected_site_string_names_site_po_and_line(tmp_path: Path) -> None:
    from mkdocs_zh_translate.review.layer import ReviewedLayer

    (tmp_path / "site.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Docs about the cache"\nmsgstr "0;url=//evil.example/\\" http-equiv=\\"refresh"\n\n'
        'msgid "Guide"\nmsgstr "指南\u202e"\n',
        encoding="utf-8",
    )
    found, warnings = ReviewedLayer(tmp_path).strings(["Docs about the cache", "Guide"])
    assert found == {}
    assert any("site.po:5:" in w and "double quote" in w for w in warnings), warnings
    assert any("site.po:8:" in w and "U+202E" in w for w in warnings), warnings


# -- 6. one strict PO reader: msgfmt's rules, file:line, nothing written ----------------------

_PO_HEAD = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
BAD_PO = {
    # name: (body after the header, line msgfmt reports, words of our message)
    "unterminated": ('msgid "FAQ"\nmsgstr "常见问题\n', 6, "unterminated"),
    "bad escape": ('msgid "FAQ"\nmsgstr "常见\\q问题"\n', 6, "escape"),
    "stray continuation": ('msgid "FAQ"\nmsgstr "常见问题"\n# translator comment\n"stray"\n', 8, "stray"),
    "duplicate": ('msgid "FAQ"\nmsgstr "常见问题"\n\nmsgid "Guide"\nmsgstr "指南"\n\nmsgid "FAQ"\nmsgstr "问答"\n', 11, "duplicate"),
}


@pytest.mark.parametrize("name", list(BAD_PO))
def test_strict_po_reader_names_the_real_line(tmp_path: Path, name: str) -> None:
    from mkdocs_zh_translate.review.store import ReviewError, read_po

    body, line, words = BAD_PO[name]
    path = tmp_path / "index.md.po"
    path.write_text(_PO_HEAD + body, encoding="utf-8")
    with pytest.raises(ReviewError, match=rf"index\.md\.po:{line}: malformed PO file: .*{words}"):
        read_po(path)


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext's msgfmt not installed")
@pytest.mark.parametrize("name", list(BAD_PO))
def test_msgfmt_agrees_on_line(tmp_path: Path, name: str) -> None:
    body, line, _words = BAD_PO[name]
    path = tmp_path / "x.po"
    path.write_text(_PO_HEAD + body, encoding="utf-8")
    done = subprocess.run(["msgfmt", "-o", os.devnull, str(path)], capture_output=True, text=True, check=False)
    # msgfmt reports an unterminated string at the line after it (where it saw the newline).
    assert done.returncode != 0 and re.search(rf"x\.po:({line}|{line + 1}):", done.stderr), done.stderr


def test_pofill_catalog_is_as_strict(tmp_path: Path) -> None:
    from mkdocs_zh_translate.pofill.catalog import CatalogError, parse_catalog

    with pytest.raises(CatalogError, match=r"usage\.po:6: malformed PO file: invalid escape"):
        parse_catalog(_PO_HEAD + BAD_PO["bad escape"][0], "usage.po")


def test_review_sync_writes_nothing_for_an_unterminated_msgstr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_site(tmp_path)
    assert cli_main(["review", "sync", "-f", str(config)]) == 0
    path = tmp_path / "translations" / "zh" / "index.md.po"
    text = path.read_text(encoding="utf-8")
    broken = re.sub(r'msgstr ""\n\n', 'msgstr "欢迎光临\n\n', text.split("\n\n", 1)[1], count=1)
    path.write_text(text.split("\n\n", 1)[0] + "\n\n" + broken, encoding="utf-8")
    before = {p: p.read_bytes() for p in path.parent.rglob("*") if p.is_file()}
    capsys.readouterr()
    assert cli_main(["review", "sync", "-f", str(config)]) == 2
    err = capsys.readouterr().err
    assert re.search(r"index\.md\.po:\d+: malformed PO file: unterminated", err), err
    assert {p: p.read_bytes() for p in path.parent.rglob("*") if p.is_file()} == before


# -- 7. cache faults: corrupt is moved aside, cannot-write is still read ----------------------


def _mount(*args: str) -> bool:
    """Run ``mount`` (root in a container that allows it); False when it is not permitted."""
    if shutil.which("mount") is None or os.geteuid() != 0:
        return False
    return subprocess.run(["mount", *args], capture_output=True, check=False).returncode == 0


def _cached_build(root: Path) -> tuple[Any, Path]:
    config = write_site(root, plugin={"backend": "pseudo", "cache_dir": "mnt/cache"})
    plugin = build_in_process(config)
    assert plugin.stats.translated > 0
    return plugin, config


def _edit_a_page(root: Path) -> None:
    page = root / "docs" / "index.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nOne new sentence to translate.\n", encoding="utf-8")


def _assert_cache_read_and_kept(root: Path, config: Path, first: Any, caplog: pytest.LogCaptureFixture) -> None:
    cache = root / "mnt" / "cache"

    def files() -> list[str]:  # SQLite's own -wal/-shm companions may come and go
        return sorted(p.name for p in cache.iterdir() if not p.name.endswith(("-wal", "-shm")))

    before = files()
    _edit_a_page(root)
    for _ in range(2):  # twice: the second build must find the same valid cache, nothing piled up
        caplog.clear()
        plugin = build_in_process(config)
        assert plugin.stats.cached == first.stats.translated, plugin.stats.summary()  # every old segment read
        assert plugin.stats.translated == 1
        warnings = [r.getMessage() for r in caplog.records if "translation cache" in r.getMessage()]
        assert len(warnings) == 1 and "cannot write" in warnings[0] and "reading it" in warnings[0], warnings
        assert (root / "site" / "zh" / "index.html").is_file()
    assert files() == before
    assert not list((root / "mnt").glob("*.broken*")) and not list(root.glob("*.broken*"))


def test_cache_on_a_full_tmpfs_is_read_and_kept(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    if not _mount("-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mnt)):
        pytest.skip("cannot mount a tmpfs here (see test_cache_that_cannot_be_written_is_read for the simulation)")
    try:
        first, config = _cached_build(tmp_path)
        try:  # fill the disk to the last byte
            with open(mnt / "filler", "wb") as fh:
                while True:
                    fh.write(b"\0" * 4096)
                    fh.flush()
        except OSError:
            pass
        with pytest.raises(OSError, match="No space left"):
            (mnt / "probe").write_bytes(b"\0" * 8192)
        before_tmp = set(Path(tempfile.gettempdir()).glob("zh-translate-cache-*"))
        _assert_cache_read_and_kept(tmp_path, config, first, caplog)
        assert set(Path(tempfile.gettempdir()).glob("zh-translate-cache-*")) == before_tmp
    finally:
        subprocess.run(["umount", str(mnt)], check=False)


def test_cache_in_a_read_only_directory_is_read(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    first, config = _cached_build(tmp_path)
    mnt = tmp_path / "mnt"
    if not _mount("--bind", str(mnt), str(mnt)):
        pytest.skip("cannot bind-mount here (see test_cache_that_cannot_be_written_is_read for the simulation)")
    try:
        assert _mount("-o", "remount,bind,ro", str(mnt))
        with pytest.raises(OSError, match="Read-only file system"):
            (mnt / "cache" / "probe").write_text("x")
        _assert_cache_read_and_kept(tmp_path, config, first, caplog)
    finally:
        subprocess.run(["umount", str(mnt)], check=False)


def test_cache_that_cannot_be_written_is_read(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another user's cache (root cannot be refused by chmod): diskcache fails to open it for
    writing, as it does for a directory owned by someone else; simulated by monkeypatching."""
    import diskcache

    from mkdocs_zh_translate.pipeline import cache as memory

    first, config = _cached_build(tmp_path)

    def refuse(*args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(memory.diskcache, "Cache", refuse)
    assert memory.diskcache is diskcache
    _assert_cache_read_and_kept(tmp_path, config, first, caplog)


def test_failed_writes_on_an_open_cache_warn_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ENOSPC in the middle of a build: the open cache stays in use for reading."""
    import diskcache

    first, config = _cached_build(tmp_path)

    def full(self: object, *args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(diskcache.Cache, "set", full)
    _assert_cache_read_and_kept(tmp_path, config, first, caplog)


def test_corrupt_cache_leaves_one_broken_copy(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    _first, config = _cached_build(tmp_path)
    for _ in range(3):
        (tmp_path / "mnt" / "cache" / "cache.db").write_bytes(b"this is not a database" * 100)
        caplog.clear()
        build_in_process(config)
        assert any("integrity check failed" in r.getMessage() for r in caplog.records)
    assert not [p.name for p in (tmp_path / "mnt").iterdir() if "broken" in p.name]  # the directory stays
    assert [p.name for p in (tmp_path / "mnt" / "cache").iterdir() if "broken" in p.name] == ["cache.db.broken"]


# -- 8. collisions with the English site --------------------------------------------------------


def _build_error(config: Path, caplog: pytest.LogCaptureFixture) -> str:
    """The one error line a refused build logs (MkDocs turns our PluginError into Abort)."""
    from mkdocs.exceptions import Abort

    caplog.clear()
    with pytest.raises(Abort):
        build_in_process(config)
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1, errors
    return errors[0]


@pytest.mark.parametrize(
    ("language", "theme", "extra_page", "what"),
    [
        ("guide", "mkdocs", None, "docs_dir has guide/"),
        ("assets", "material", None, "the theme has assets/"),
        ("zh", "mkdocs", "zh/index.md", "docs_dir has zh/"),
        ("faq", "mkdocs", "faq.md", "docs_dir has faq.md"),
    ],
)
def test_language_prefix_that_would_delete_english_files_is_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, language: str, theme: str, extra_page: str | None, what: str
) -> None:
    pages = dict(PAGES)
    if extra_page:
        pages[extra_page] = "# Extra\n\nAn English page.\n"
    config = write_site(tmp_path, theme=theme, plugin={"backend": "pseudo", "language": language}, pages=pages,
                        extra_config={"nav": NAV})
    assert re.search(rf"option 'language': '{language}' .*\({re.escape(what)}", _build_error(config, caplog))
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("option", ["cache_dir", "review_dir"])
def test_cache_or_review_dir_inside_site_dir_is_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, option: str
) -> None:
    config = write_site(tmp_path, plugin={"backend": "pseudo", option: "site/ours"})
    assert re.search(rf"option '{option}': .* is inside site_dir", _build_error(config, caplog))


def test_exclude_pattern_matching_nothing_is_warned(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    config = write_site(tmp_path, plugin={"backend": "pseudo", "exclude": ["guide/*", "changelog.md"]})
    build_in_process(config)
    warned = [r.getMessage() for r in caplog.records if "exclude" in r.getMessage()]
    assert warned == ["zh-translate: option 'exclude': 'changelog.md' matches no page in docs_dir (typo?)"]


# -- 5. deep nesting: one line, or the page kept in English ------------------------------------

DEEP = "".join('<div markdown="1">\n\n' for _ in range(500)) + "Deep text.\n\n" + "</div>\n\n" * 500


@pytest.fixture
def default_recursion_limit() -> Iterator[None]:
    """Python's default limit, under which DEEP overflows the parser. Other code in the same
    process may have raised it: mkdocstrings' Python handler sets 2000 when a site loads it (an
    in-process build of such a site earlier on this xdist worker), and then DEEP is simply
    segmented; a page deeper than the raised limit is refused the same way."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        yield
    finally:
        sys.setrecursionlimit(before)


@pytest.mark.usefixtures("default_recursion_limit")
def test_md_refuses_deep_nesting_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deep.md"
    path.write_text(DEEP, encoding="utf-8")
    assert cli_main(["md", "--backend", "pseudo", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "deep.md:1: nesting too deep" in err and "Traceback" not in err, err


@pytest.mark.usefixtures("default_recursion_limit")
def test_plugin_keeps_a_too_deep_page_in_english(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    pages = dict(PAGES)
    pages["deep.md"] = "# Deep\n\n" + DEEP
    # Without md_in_html: Python-Markdown itself overflows the stack on this page with it.
    config = write_site(tmp_path, pages=pages, extra_config={"nav": NAV})
    build_in_process(config)
    warned = [r.getMessage() for r in caplog.records if "deep.md" in r.getMessage()]
    assert any("nesting too deep" in w and "kept in English" in w for w in warned), warned
    assert "Deep text." in (tmp_path / "site" / "zh" / "deep" / "index.html").read_text(encoding="utf-8")


# -- 10. smaller ones -----------------------------------------------------------------------------


def test_md_keeps_a_utf8_bom(tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    src, out = tmp_path / "bom.md", tmp_path / "out.md"
    src.write_bytes("\ufeff# Hello\n\nWorld.\n".encode())
    assert cli_main(["md", "--backend", "pseudo", str(src), "-o", str(out)]) == 0
    assert out.read_bytes().startswith(b"\xef\xbb\xbf#")
    plain = tmp_path / "plain.md"
    plain.write_bytes(b"# Hello\n")
    assert cli_main(["md", "--backend", "pseudo", str(plain), "-o", str(out)]) == 0
    assert out.read_bytes().startswith(b"#")


def test_review_sync_refuses_a_symlinked_directory_inside_review_dir(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_site(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    review = tmp_path / "translations" / "zh"
    review.mkdir(parents=True)
    (review / "guide").symlink_to(outside, target_is_directory=True)
    assert cli_main(["review", "sync", "-f", str(config)]) == 2
    err = capsys.readouterr().err
    assert "guide: is a symbolic link inside" in err and err.count("\n") == 1, err
    assert list(outside.iterdir()) == [] and not (review / "index.md.po").exists()  # nothing written


_JIEBA_PROBE = """
import os, sys, tempfile
real_rename = os.rename
def rename(src, dst):  # /tmp/jieba.cache belongs to another user: it cannot be replaced
    if os.path.dirname(os.path.abspath(dst)) == tempfile.gettempdir() and os.path.basename(dst) == "jieba.cache":
        raise PermissionError(13, "Operation not permitted", dst)
    return real_rename(src, dst)
os.rename = rename
from pathlib import Path
from mkdocs_zh_translate.plugin import jiebaconf, site
jiebaconf.quiet_jieba(Path(sys.argv[1]))
print(site.segment_chinese("翻译缓存让第二次构建更快"))
"""


def test_jieba_cache_is_per_user_and_never_a_traceback(tmp_path: Path) -> None:
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "xdg"))
    done = subprocess.run(
        [sys.executable, "-c", _JIEBA_PROBE, str(tmp_path / "cache")],
        env=env, capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "\u200b" in done.stdout  # segmented
    private = tmp_path / "xdg" / "mkdocs-zh-translate"
    assert (private / "jieba.cache").is_file()
    assert private.stat().st_mode & 0o077 == 0


def test_review_dir_created_after_serve_started_is_watched(tmp_path: Path) -> None:
    import threading

    from watchdog.observers import Observer

    from mkdocs_zh_translate.plugin.plugin import watch_review_dir

    class Server:  # the parts of MkDocs' LiveReloadServer the plugin uses
        def __init__(self) -> None:
            self.observer = Observer()
            self._watched_paths: dict[str, int] = {}
            self._rebuild_cond = threading.Condition()
            self._want_rebuild = False

        def watch(self, path: str) -> None:
            self._watched_paths[path] = 1

    server = Server()
    review = tmp_path / "translations" / "zh"
    watch_review_dir(server, review)
    server.observer.start()
    try:
        assert server._watched_paths == {}
        (tmp_path / "translations").mkdir()
        time.sleep(0.5)  # the ancestor watch moves one level down
        review.mkdir()
        (review / "index.md.po").write_text("", encoding="utf-8")
        deadline = time.monotonic() + 10
        while str(review) not in server._watched_paths and time.monotonic() < deadline:
            time.sleep(0.05)
        assert str(review) in server._watched_paths
        assert server._want_rebuild
    finally:
        server.observer.stop()
        server.observer.join()


# -- 9. model integrity ---------------------------------------------------------------------------


def _fake_export(root: Path, files: dict[str, bytes]) -> Path:
    import hashlib
    import json

    model = root / "model"
    model.mkdir()
    listed = {}
    for name, data in files.items():
        (model / name).write_bytes(data)
        listed[name] = {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
    (model / "manifest.json").write_text(json.dumps({"format": 7, "fingerprint": "x", "files": listed}))
    return model


def test_edited_small_file_changes_the_fingerprint_and_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mkdocs_zh_translate.model_integrity import ModelIntegrityError, verify_model
    from mkdocs_zh_translate.pipeline import spec as batch

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    model = _fake_export(tmp_path, {"generation.json": b'{"eos_token_id": 0}', "encoder.onnx": b"\x01" * 1000})
    import json

    manifest = json.loads((model / "manifest.json").read_text())
    original = batch.model_fingerprint(model)
    assert original.startswith("manifest:")
    (model / "generation.json").write_bytes(b'{"eos_token_id": 7}')  # same size, other meaning
    assert batch.model_fingerprint(model) != original  # never cached under the original's key
    with pytest.raises(ModelIntegrityError, match=r"generation\.json: changed since export \(sha256"):
        verify_model(model, manifest)
    (model / "generation.json").write_bytes(b'{"eos_token_id": 0}')  # restored: the old key again
    assert batch.model_fingerprint(model) == original


def test_large_files_are_hashed_once_and_remembered_outside_the_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    from mkdocs_zh_translate import model_integrity

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(model_integrity, "SMALL_FILE", 100)
    model = _fake_export(tmp_path, {"generation.json": b"{}", "encoder.onnx": b"\x01" * 1000})
    manifest = json.loads((model / "manifest.json").read_text())
    hashed: list[str] = []
    real = model_integrity.sha256_file
    monkeypatch.setattr(model_integrity, "sha256_file", lambda p: hashed.append(p.name) or real(p))
    before = sorted(p.name for p in model.iterdir())
    first = model_integrity.verify_model(model, manifest)
    assert hashed == ["encoder.onnx", "generation.json"]
    hashed.clear()
    assert model_integrity.verify_model(model, manifest) == first
    assert hashed == ["generation.json"]  # small: every load; large: remembered by size+mtime
    (model / "encoder.onnx").write_bytes(b"\x02" * 1000)  # same size, new mtime
    with pytest.raises(model_integrity.ModelIntegrityError, match=r"encoder\.onnx: changed since export"):
        model_integrity.verify_model(model, manifest)
    assert sorted(p.name for p in model.iterdir()) == before  # nothing written into the model dir
    assert (tmp_path / "xdg" / "mkdocs-zh-translate" / "verified-models.json").is_file()


def test_engine_refuses_an_edited_generation_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The issue's case: eos 0→7 in generation.json, same size, produced garbage before."""
    from mkdocs_zh_translate.engine import EngineError, OnnxTranslator
    from tests.models import tiny_onnx_model

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    model = tmp_path / "m"
    shutil.copytree(tiny_onnx_model("int8"), model)
    from mkdocs_zh_translate.pipeline.spec import model_fingerprint

    out = OnnxTranslator(model).translate(["Open the file."])
    fingerprint = model_fingerprint(model)  # the model's part of the cache key
    text = (model / "generation.json").read_text(encoding="utf-8")
    edited = re.sub(r'"eos_token_id": (\d)\b', lambda m: f'"eos_token_id": {(int(m.group(1)) + 7) % 10}', text, count=1)
    assert edited != text and len(edited) == len(text)
    (model / "generation.json").write_text(edited, encoding="utf-8")
    with pytest.raises(EngineError, match=r"generation\.json: changed since export \(sha256 differs"):
        OnnxTranslator(model)
    (model / "generation.json").write_text(text, encoding="utf-8")
    assert OnnxTranslator(model).translate(["Open the file."]) == out and model_fingerprint(model) == fingerprint
