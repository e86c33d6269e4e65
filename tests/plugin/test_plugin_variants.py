"""Traditional Chinese variants built from the same run (option ``variants``): ``site/zh-TW/``.

The "model" writes Simplified Chinese words for a few English ones, so the variant's pages hold
real Chinese for OpenCC's Taiwan table (s2twp) to convert: 软件 becomes 軟體, 缓存 快取.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

import polib
import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.pipeline import lazy as batch
from tests.plugin_sites import PAGES, build_in_process, run_mkdocs, write_site

pytest.importorskip("opencc", reason="the `hant` extra (OpenCC) is not installed")

WORDS = {"install": "安装", "package": "软件包", "cache": "缓存", "software": "软件", "default": "默认",
         "usage": "用法", "welcome": "欢迎", "requirements": "要求", "build": "构建"}
CODE_PAGE = (
    "# Software\n\n"
    "The default software uses `默认软件` inline, see [the network](https://example.com/软件).\n\n"
    "```text\n默认软件 stays Simplified in code\n```\n"
)


class WordModel:
    """English words to Simplified Chinese words; the rest (placeholders too) as it is."""

    fingerprint = "words-test"
    loads = 0

    def __init__(self) -> None:
        WordModel.loads += 1

    def translate(self, texts: Sequence[str]) -> list[str]:
        pattern = re.compile(r"\b(" + "|".join(WORDS) + r")\b", re.IGNORECASE)
        return [pattern.sub(lambda m: WORDS[m.group(1).lower()], t) for t in texts]


def _site(root: Path, monkeypatch: pytest.MonkeyPatch, variants: object, theme: str = "material") -> Path:
    monkeypatch.setattr(batch, "load_translator", lambda *a, **k: WordModel())
    (root / "model").mkdir(parents=True, exist_ok=True)
    plugin: dict[str, object] = {"backend": "onnx", "model": "model"}
    if variants is not None:
        plugin["variants"] = variants
    return write_site(root, theme=theme, plugin=plugin, pages={**PAGES, "software.md": CODE_PAGE})


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("variants")
    with pytest.MonkeyPatch.context() as monkeypatch:
        build_in_process(_site(root, monkeypatch, ["zh-Hans", "zh-TW"]))
    return root / "site"


def _labels(html: str) -> list[tuple[str, str, str]]:
    """Material's language selector: (hreflang, href, label) of each entry."""
    return [(m.group(2), m.group(1), m.group(3).strip())
            for m in re.finditer(r'<a href="([^"]*)" hreflang="([^"]*)" class="md-select__link">\s*([^<]*)', html)]


def test_the_taiwan_site_is_built_in_traditional_with_taiwan_vocabulary(built: Path) -> None:
    page = (built / "zh-TW" / "software" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="zh-TW"' in page
    assert "The 預設 軟體 uses" in page  # 默认 软件 in prose: s2twp writes Taiwan words
    assert "本頁由機器翻譯" in page  # the banner, converted
    simplified = (built / "zh" / "software" / "index.html").read_text(encoding="utf-8")
    assert "The 默认 软件 uses" in simplified and "預設" not in simplified
    # code, inline code and URLs are the English page's bytes in every variant
    assert "<code>默认软件</code>" in page
    assert "默认软件 stays Simplified in code" in page
    assert 'href="https://example.com/软件"' in page


def test_material_speaks_the_variant_and_every_switcher_lists_every_language(built: Path) -> None:
    tw = (built / "zh-TW" / "guide" / "install" / "index.html").read_text(encoding="utf-8")
    assert "搜尋" in tw and "選擇語言" in tw  # Material's own zh-TW interface strings
    expected = {
        "": [("en", "./", "English"), ("zh", "../../zh/guide/install/", "简体中文"),
             ("zh-TW", "../../zh-TW/guide/install/", "繁體中文（台灣）")],
        "zh/": [("en", "../../../guide/install/", "English"), ("zh", "./", "简体中文"),
                ("zh-TW", "../../../zh-TW/guide/install/", "繁體中文（台灣）")],
        "zh-TW/": [("en", "../../../guide/install/", "English"), ("zh", "../../../zh/guide/install/", "简体中文"),
                   ("zh-TW", "./", "繁體中文（台灣）")],
    }
    for prefix, links in expected.items():
        html = (built / f"{prefix}guide/install/index.html").read_text(encoding="utf-8")
        assert _labels(html) == links, prefix


def test_sitemaps_name_every_language(built: Path) -> None:
    for sitemap in (built / "sitemap.xml", built / "zh" / "sitemap.xml", built / "zh-TW" / "sitemap.xml"):
        text = sitemap.read_text(encoding="utf-8")
        assert 'hreflang="zh-TW" href="https://example.com/docs/zh-TW/guide/install/"' in text, sitemap
        assert 'hreflang="zh" href="https://example.com/docs/zh/guide/install/"' in text, sitemap
    assert "<loc>https://example.com/docs/zh-TW/guide/install/</loc>" in (built / "zh-TW" / "sitemap.xml").read_text()


def test_the_variants_search_index_is_its_own_and_segmented(built: Path) -> None:
    docs = json.loads((built / "zh-TW" / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    text = " ".join(doc["text"] for doc in docs)
    assert "\u200b軟體\u200b" in text  # jieba's cut of the Traditional text
    assert "\u200b快取\u200b" in text and "缓存" not in text


def test_without_the_option_nothing_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build_in_process(_site(tmp_path, monkeypatch, None))
    site = tmp_path / "site"
    assert not (site / "zh-TW").exists()
    html = (site / "zh" / "index.html").read_text(encoding="utf-8")
    assert [label for _lang, _href, label in _labels(html)] == ["English", "中文"]


def test_a_bad_variant_is_a_config_error(tmp_path: Path) -> None:
    write_site(tmp_path, plugin={"backend": "pseudo", "variants": ["zh-Hans", "zh-XX"]})
    proc = run_mkdocs(tmp_path)
    assert proc.returncode != 0
    assert "option 'variants': unknown Chinese variant 'zh-XX'" in proc.stderr


def _edit(path: Path, msgid_start: str, text: str) -> None:
    po = polib.pofile(str(path))
    for entry in po:
        if entry.msgid.startswith(msgid_start):
            entry.msgstr, entry.flags = text, [f for f in entry.flags if f != "fuzzy"]
    po.save(str(path))


def test_reviews_per_variant(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = _site(tmp_path, monkeypatch, ["zh-Hans", "zh-TW"], theme="mkdocs")
    build_in_process(config)
    assert cli_main(["review", "sync", "-f", str(config)]) == 0
    zh, tw = tmp_path / "translations" / "zh", tmp_path / "translations" / "zh-TW"
    assert (tw / "guide" / "install.md.po").is_file() and (tw / "site.po").is_file()
    assert polib.pofile(str(tw / "index.md.po")).metadata["Language"] == "zh_TW"
    _edit(zh / "guide" / "install.md.po", "You need Python", "你需要 Python 和一个缓存目录（审校）。")
    _edit(zh / "guide" / "install.md.po", "Install the package", "用 pip 安装软件包。回到[首页](../index.md)，参阅[用法](usage.md#run-it)。")
    _edit(tw / "guide" / "install.md.po", "Install the package", "以 pip 安裝套件。回到[首頁](../index.md)，參閱[用法](usage.md#run-it)。")
    assert cli_main(["review", "sync", "-f", str(config)]) == 0
    entries = {e.msgid: e for e in polib.pofile(str(tw / "guide" / "install.md.po"))}
    offered = entries["You need Python and a cache directory."]
    assert offered.msgstr == "你需要 Python 和一個快取目錄（審校）。" and "fuzzy" in offered.flags
    assert "the zh-Hans review, converted to zh-TW" in offered.tcomment
    assert entries["Install the package with pip. Go [home](../index.md) or see [usage](usage.md#run-it)."].msgstr \
        == "以 pip 安裝套件。回到[首頁](../index.md)，參閱[用法](usage.md#run-it)。"  # the variant's own review, kept
    # review status / check of the variant's files: one reviewed, one suggested
    capsys.readouterr()
    assert cli_main(["review", "status", "-f", str(config), "--variant", "zh-TW", "--json"]) == 0
    totals = json.loads(capsys.readouterr().out)["totals"]
    assert (totals["reviewed"], totals["suggested"]) == (1, 1), totals
    assert cli_main(["review", "check", "-f", str(config), "--variant", "zh-TW", "--max-suggested", "0"]) == 1
    assert "1 suggested" in capsys.readouterr().out
    # eval scores the variant against its own reviewers' entries (one, here)
    assert cli_main(["eval", "-f", str(config), "--variant", "zh-TW", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["references"]["count"] == 1, report["references"]
    build_in_process(config)
    tw_page = (tmp_path / "site" / "zh-TW" / "guide" / "install" / "index.html").read_text(encoding="utf-8")
    zh_page = (tmp_path / "site" / "zh" / "guide" / "install" / "index.html").read_text(encoding="utf-8")
    assert "以 pip 安裝套件。" in tw_page  # the variant's review wins
    assert "你需要 Python 和一個快取目錄（審校）。" in tw_page  # the Simplified review, converted
    assert "你需要 Python 和一个缓存目录（审校）。" in zh_page and "用 pip 安装软件包。" in zh_page  # untouched


def test_a_warm_rebuild_with_a_variant_loads_no_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = _site(tmp_path, monkeypatch, ["zh-Hans", "zh-TW", "zh-HK"], theme="mkdocs")
    build_in_process(config)
    first = _page(tmp_path / "site" / "zh-HK" / "index.html")
    WordModel.loads = 0
    calls: list[str] = []
    from mkdocs_zh_translate.pipeline import variants

    real = variants.Converter.__call__
    monkeypatch.setattr(variants.Converter, "__call__", lambda self, text: calls.append(text) or real(self, text))
    build_in_process(config)
    assert WordModel.loads == 0 and calls == []
    assert _page(tmp_path / "site" / "zh-HK" / "index.html") == first


def _page(path: Path) -> str:
    """The page without the theme's build date (``<!-- MkDocs version …, build date … -->``)."""
    text = path.read_text(encoding="utf-8")
    return text[: text.rindex("<!--")]


def test_the_variants_glossary_gives_its_own_word(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = _site(tmp_path, monkeypatch, ["zh-Hans", "zh-TW"], theme="mkdocs")
    (tmp_path / "translations" / "zh").mkdir(parents=True)
    (tmp_path / "translations" / "zh" / "glossary.yml").write_text("terms:\n  cache: 缓存\n", encoding="utf-8")
    (tmp_path / "translations" / "zh-TW").mkdir(parents=True)
    (tmp_path / "translations" / "zh-TW" / "glossary.yml").write_text("terms:\n  cache: 暫存\n", encoding="utf-8")
    build_in_process(config)
    tw = (tmp_path / "site" / "zh-TW" / "guide" / "install" / "index.html").read_text(encoding="utf-8")
    zh = (tmp_path / "site" / "zh" / "guide" / "install" / "index.html").read_text(encoding="utf-8")
    assert "a 暫存 directory" in tw and "快取" not in tw  # the variant's term, not s2twp's 快取
    assert "a 缓存 directory" in zh


def test_a_dirty_rebuild_updates_the_variants_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = _site(tmp_path, monkeypatch, ["zh-Hans", "zh-TW"], theme="mkdocs")
    build_in_process(config)
    usage = tmp_path / "docs" / "guide" / "usage.md"
    usage.write_text(usage.read_text(encoding="utf-8") + "\nA brand new software paragraph.\n", encoding="utf-8")
    build_in_process(config, dirty=True)
    tw = (tmp_path / "site" / "zh-TW" / "guide" / "usage" / "index.html").read_text(encoding="utf-8")
    assert "A brand new 軟體 paragraph." in tw


def test_beside_static_i18n_the_option_is_named_as_ignored(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    pytest.importorskip("mkdocs_static_i18n")
    from tests.plugin.test_plugin_modes import I18N_PAGES

    i18n = {"docs_structure": "suffix",
            "languages": [{"locale": "en", "name": "English", "default": True}, {"locale": "fr", "name": "Français"}]}
    plugin = {"backend": "pseudo", "variants": ["zh-Hans", "zh-TW"]}
    config = write_site(tmp_path, theme="material", pages=I18N_PAGES,
                        extra_config={"plugins": ["search", {"i18n": i18n}, {"zh-translate": plugin}]})
    with caplog.at_level("WARNING"):
        build_in_process(config)
    assert any("option 'variants' is ignored beside mkdocs-static-i18n" in r.getMessage() for r in caplog.records)
    assert not (tmp_path / "site" / "zh-TW").exists()


def test_serve_watches_the_variants_review_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mkdocs.config import load_config

    (tmp_path / "translations" / "zh").mkdir(parents=True)
    (tmp_path / "translations" / "zh-TW").mkdir(parents=True)
    config = load_config(config_file=str(_site(tmp_path, monkeypatch, ["zh-Hans", "zh-TW"])))
    plugin = config.plugins["zh-translate"]
    config.plugins.on_startup(command="serve", dirty=False)
    config = config.plugins.on_config(config)
    watched: list[str] = []

    class Server:  # the parts of MkDocs' LiveReloadServer the plugin uses
        mount_path = "/"

        def __init__(self) -> None:
            self.app = lambda environ, start_response: [b""]
            self.error_handler = lambda code: b"english 404"

        def watch(self, path: str) -> None:
            watched.append(path)

        def get_app(self):  # type: ignore[no-untyped-def]
            return self.app

        def set_app(self, app) -> None:  # type: ignore[no-untyped-def]
            self.app = app

    server = Server()
    plugin.on_serve(server, config, None)
    assert str(tmp_path / "translations" / "zh-TW") in watched
    assert str(tmp_path / "translations" / "zh") in watched
    # a missing zh-TW page is answered with the zh-TW site's own 404 page
    (tmp_path / "site" / "zh-TW").mkdir(parents=True)
    (tmp_path / "site" / "zh-TW" / "404.html").write_bytes("找不到頁面".encode())
    server.app({"PATH_INFO": "/zh-TW/missing/"}, None)
    assert server.error_handler(404) == "找不到頁面".encode()
    server.app({"PATH_INFO": "/missing/"}, None)
    assert server.error_handler(404) == b"english 404"
    config.plugins.on_shutdown()


def test_the_root_404_page_sends_each_chinese_sites_visitors_to_its_own(built: Path) -> None:
    page = (built / "404.html").read_text(encoding="utf-8")
    assert 'var s=["/docs/zh/", "/docs/zh-TW/"]' in page
    assert '<html lang="zh-TW"' in (built / "zh-TW" / "404.html").read_text(encoding="utf-8")


def test_variant_pages_from_the_simplified_renders_are_the_pages_a_render_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """speedups: auto converts the Simplified build's renders (convertrender.py) where that is
    what rendering the variant's Markdown gives; off renders every page: the sites are the same
    bytes, and the page whose code holds Chinese (software.md) is rendered, not converted."""
    from mkdocs_zh_translate.plugin import speedups

    if not speedups.enabled(speedups.AUTO, "convertrender"):
        pytest.skip("MkDocs is not at a version the speed-up was tested with")
    sites = {}
    listed = {}
    for mode in ("auto", "off"):
        root = tmp_path / mode
        config = _site(root, monkeypatch, ["zh-Hans", "zh-TW"])
        text = config.read_text(encoding="utf-8").replace("variants:", f"speedups: '{mode}'\n    variants:")
        config.write_text(text, encoding="utf-8")
        plugin = build_in_process(config)
        sites[mode] = (root / "site" / "zh-TW", plugin._kept.converted)
        listed[mode] = plugin._kept.listing.reused
    auto, converted = sites["auto"]
    off, plain = sites["off"]
    files = sorted(p.relative_to(off) for p in off.rglob("*") if p.suffix in (".html", ".json", ".xml"))
    assert files and all((auto / f).read_bytes() == (off / f).read_bytes() for f in files)
    assert (converted.converted, converted.rendered) == (3, 1)  # software.md: 默认软件 in its code
    assert (plain.converted, plain.rendered) == (0, 0)
    # the theme's files: the Simplified build's listing (themelisting.py), the same files copied
    assert listed == {"auto": 1, "off": 0}
    assert sorted(p.relative_to(auto) for p in auto.rglob("*")) == sorted(p.relative_to(off) for p in off.rglob("*"))


def test_serve_keeps_the_model_asked_for_traditional_across_rebuilds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``via: model`` under ``mkdocs serve``: an edit after the first build sends new text to the
    model's Traditional target again; the one loaded for the first build answers it, as the
    Simplified model is kept (one plugin instance, the same model options)."""
    from tests.plugin.test_plugin_reload import Serve

    loads = {"zh-Hans": 0, "zh-Hant": 0}

    def load(backend: str, model: object, **options: object) -> WordModel:
        loads[str(options.get("target") or "zh-Hans")] += 1
        return WordModel()

    config = _site(tmp_path, monkeypatch, ["zh-Hans", {"code": "zh-TW", "via": "model"}], theme="mkdocs")
    monkeypatch.setattr(batch, "load_translator", load)
    session = Serve(config)
    try:
        session.rebuild()
        assert loads == {"zh-Hans": 1, "zh-Hant": 1}
        usage = tmp_path / "docs" / "guide" / "usage.md"
        usage.write_text(usage.read_text(encoding="utf-8") + "\nA brand new software paragraph.\n", encoding="utf-8")
        session.rebuild()
        tw = (tmp_path / "site" / "zh-TW" / "guide" / "usage" / "index.html").read_text(encoding="utf-8")
        assert "A brand new 軟體 paragraph." in tw  # the edit reached the variant through its model
        assert loads == {"zh-Hans": 1, "zh-Hant": 1}
        # other model options: another model, loaded for both targets
        config.write_text(config.read_text(encoding="utf-8").replace("model: model", "model: model\n    beams: 2"),
                          encoding="utf-8")
        usage.write_text(usage.read_text(encoding="utf-8") + "\nAnother default paragraph.\n", encoding="utf-8")
        session.rebuild()
        assert loads == {"zh-Hans": 2, "zh-Hant": 2}
    finally:
        session.close()


def test_a_variants_page_hooks_are_kept_between_builds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A variant's site is a third build in every ``mkdocs build``: Material's search index of
    its pages (an HTML parse and jieba per page) is kept in the machine cache, and the next
    build (a new plugin, as in a new process) takes it for every page that did not change:
    the same bytes. Another version of a package that made it: made again."""
    from mkdocs_zh_translate.plugin import hookmemo, speedups

    if not speedups.tested("mkdocs") or not speedups.tested("mkdocs-material"):
        pytest.skip("MkDocs or Material is not at a version the speed-up was tested with")
    config = _site(tmp_path, monkeypatch, ["zh-Hans", "zh-TW"])
    index = tmp_path / "site" / "zh-TW" / "search" / "search_index.json"
    memo = build_in_process(config)._kept.hooks["zh-TW"]
    assert (memo.reused, memo.ran) == (0, 4)
    made = index.read_bytes()
    memo = build_in_process(config)._kept.hooks["zh-TW"]
    assert (memo.reused, memo.ran) == (4, 0) and index.read_bytes() == made
    usage = tmp_path / "docs" / "guide" / "usage.md"
    usage.write_text(usage.read_text(encoding="utf-8") + "\nA brand new software paragraph.\n", encoding="utf-8")
    memo = build_in_process(config)._kept.hooks["zh-TW"]
    assert (memo.reused, memo.ran) == (3, 1)
    docs = json.loads(index.read_text(encoding="utf-8"))["docs"]
    assert any("A brand new \u200b軟體\u200b paragraph." in doc["text"] for doc in docs)  # made again
    monkeypatch.setattr(hookmemo, "_MAKERS", (*hookmemo._MAKERS, "pytest"))  # pytest's version: another one
    memo = build_in_process(config)._kept.hooks["zh-TW"]
    assert (memo.reused, memo.ran) == (0, 4)


def test_stored_search_entries_put_no_markup_into_a_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The machine cache is no more trusted for search entries than for translations: an entry
    someone else wrote with markup Material never writes (an ``<img onerror>``, a location off
    the page) is not taken; that page is indexed again, the others are reused."""
    from mkdocs_zh_translate.pipeline.cache import DEFAULT_CACHE_DIRNAME, MachineCache
    from mkdocs_zh_translate.plugin import speedups
    from mkdocs_zh_translate.plugin.hookmemo import HOOKS_META

    if not speedups.tested("mkdocs") or not speedups.tested("mkdocs-material"):
        pytest.skip("MkDocs or Material is not at a version the speed-up was tested with")
    config = _site(tmp_path, monkeypatch, ["zh-Hans", "zh-TW"])
    build_in_process(config)
    machine = MachineCache(tmp_path / DEFAULT_CACHE_DIRNAME)
    stored = json.loads(machine.get_meta(HOOKS_META + "zh-TW") or "{}")
    pages = list(stored["results"].values())
    pages[0][0]["text"] += '<img src=x onerror="alert(1)">'
    pages[1][0]["location"] = "javascript:alert(1)"
    machine.set_meta(HOOKS_META + "zh-TW", json.dumps(stored, ensure_ascii=False))
    machine.close()
    memo = build_in_process(config)._kept.hooks["zh-TW"]
    assert (memo.reused, memo.ran) == (2, 2)
    index = (tmp_path / "site" / "zh-TW" / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "onerror" not in index and "javascript:" not in index
