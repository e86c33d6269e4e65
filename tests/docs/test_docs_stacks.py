"""The docs stacks of 2026: ``docs`` output built by mkdocs-static-i18n and by Zensical through
zensical-i18n, and the plugin under ProperDocs. Real builds, pseudo backend (「…」 marks every
translated segment, so "every page translated" is checkable in the HTML)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from mkdocs_zh_translate.cli.app import main
from mkdocs_zh_translate.plaintext import for_template
from tests.plugin_sites import Html, html_pages, write_site

PAGES = {
    "index.md": "# Welcome\n\nRead the [install guide](guide/install.md).\n\n!!! note\n    Notes are kept.\n",
    "guide/install.md": "---\ntitle: Installing\n---\n# Install\n\nInstall the package with pip.\n",
    "guide/usage.md": "# Usage\n\nRun the build command.\n\n![Diagram](../img/logo.png)\n",
}
NAV = [{"Home": "index.md"}, {"Guide": [{"Install it": "guide/install.md"}, "guide/usage.md"]}]
# The build's notice on machine-translated pages (plugin/site.py), as a Markdown HTML block.
MACHINE = (
    '<div class="admonition note zh-translate-banner"><p class="admonition-title">'
    "本页由机器翻译（pseudo 后端）。译文未经人工审校。</p></div>\n\n"
)
UNTRANSLATED = '<div class="admonition note zh-translate-banner"><p class="admonition-title">本页未翻译，显示英文原文。</p></div>\n\n'


def _site(root: Path, **extra: Any) -> Path:
    return write_site(root, theme="material", pages=PAGES, extra_config={"nav": NAV, **extra})


def _docs(root: Path, *args: str, capsys: pytest.CaptureFixture[str] | None = None) -> int:
    cwd = os.getcwd()
    os.chdir(root)
    try:
        return main(["docs", *args])
    finally:
        os.chdir(cwd)


def _i18n_config(root: Path, docs: str, snippet: Path, site_dir: str) -> Path:
    """A config that builds the generated tree with the i18n plugin block from the snippet."""
    block = yaml.safe_load(snippet.read_text(encoding="utf-8"))
    config = {
        "site_name": "Demo Docs",
        "docs_dir": docs,
        "site_dir": site_dir,
        "theme": {"name": "material"},
        "markdown_extensions": ["admonition", "attr_list"],
        "nav": NAV,
        "plugins": ["search", *block["plugins"]],
    }
    path = root / "i18n.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def _assert_every_page_translated(site: Path) -> None:
    english = [p.relative_to(site) for p in html_pages(site, skip="zh") if p.name == "index.html"]
    assert len(english) == 3, english
    for rel in english:
        page = Html(site / "zh" / rel)
        assert page.lang.startswith("zh"), (rel, page.lang)
        article = re.search(r"<article\b.*?</article>", page.source, flags=re.S)
        assert article, rel
        body = re.sub(r"<[^>]+>", "", article.group(0))
        prose = [line.strip() for line in body.splitlines() if re.search(r"[A-Za-z]{3,}", line)
                 and not re.search(r"[\u4e00-\u9fff]", line)]  # the banner is Chinese already
        # every line of words in the article went through the translator
        assert prose and all("「" in line for line in prose), (rel, prose)
        english_page = Html(site / rel)
        assert "「" not in english_page.text


def test_docs_writes_the_suffix_tree_and_the_language_snippet(tmp_path: Path) -> None:
    _site(tmp_path / "proj")
    assert _docs(tmp_path / "proj", "--out", "../out") == 0
    out = tmp_path / "out"
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert files == [
        "guide/install.md",
        "guide/install.zh.md",
        "guide/usage.md",
        "guide/usage.zh.md",
        "img/logo.png",
        "index.md",
        "index.zh.md",
    ]
    assert (out / "index.md").read_text() == PAGES["index.md"]
    install = (out / "guide/install.zh.md").read_text(encoding="utf-8")
    assert install.startswith('---\ntitle: "「Installing」"\n---\n' + MACHINE + "# 「Install」")
    snippet = yaml.safe_load((tmp_path / "out.i18n.yml").read_text(encoding="utf-8"))
    languages = snippet["plugins"][0]["i18n"]["languages"]
    assert languages[0] == {"locale": "en", "name": "English", "default": True}
    zh = languages[1]
    assert zh["locale"] == "zh" and zh["site_name"] == "「Demo Docs」"
    assert zh["nav_translations"] == {"Home": "「Home」", "Guide": "「Guide」", "Install it": "「Install it」"}
    assert zh["admonition_translations"] == {"note": "「Note」"}  # as the build translates the title


def test_unchanged_files_are_not_rewritten(tmp_path: Path) -> None:
    _site(tmp_path / "proj")
    assert _docs(tmp_path / "proj", "--out", "../out") == 0
    out = tmp_path / "out"
    stamps = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
    for path in stamps:
        os.utime(path, ns=(1, 1))
    (tmp_path / "proj/docs/guide/usage.md").write_text("# Usage\n\nRun it twice.\n", encoding="utf-8")
    assert _docs(tmp_path / "proj", "--out", "../out") == 0
    changed = sorted(p.relative_to(out).as_posix() for p in stamps if p.stat().st_mtime_ns != 1)
    assert changed == ["guide/usage.md", "guide/usage.zh.md"]


def test_folder_layout_and_excludes_and_human_translations(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    write_site(
        root, theme="material", pages=PAGES, plugin={"backend": "pseudo", "exclude": ["guide/usage.md"]}
    )
    (root / "docs/index.zh.md").write_text("# 欢迎\n", encoding="utf-8")  # a human translation wins
    assert _docs(root, "--out", "../out", "--layout", "folder") == 0
    out = tmp_path / "out"
    assert (out / "en/guide/usage.md").is_file() and (out / "en/img/logo.png").is_file()
    assert sorted(p.relative_to(out / "zh").as_posix() for p in (out / "zh").rglob("*.md")) == [
        "guide/install.md",
        "guide/usage.md",
    ]
    # the excluded page: the English page under the build's "not translated" notice
    assert (out / "zh/guide/usage.md").read_text(encoding="utf-8") == UNTRANSLATED + PAGES["guide/usage.md"]
    assert (out / "en/index.zh.md").read_text(encoding="utf-8") == "# 欢迎\n"


def test_docs_reads_properdocs_yml(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    _site(root)
    (root / "mkdocs.yml").rename(root / "properdocs.yml")
    assert _docs(root, "--out", "../out") == 0
    assert "「Welcome」" in (tmp_path / "out/index.zh.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--out", "docs/zh"], "must not contain or be inside docs_dir"),
        (["-f", "missing.yml", "--out", "../out"], "missing.yml: no such config file"),
        (["-f", "bad.yml", "--out", "../out"], "bad.yml"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    root = tmp_path / "proj"
    _site(root)
    (root / "bad.yml").write_text("site_name: [unclosed\n", encoding="utf-8")
    assert _docs(root, *args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err and "Traceback" not in err


@pytest.mark.parametrize("layout", ["suffix", "folder"])
def test_docs_output_builds_with_mkdocs_static_i18n(tmp_path: Path, layout: str) -> None:
    pytest.importorskip("mkdocs_static_i18n")
    _site(tmp_path / "proj")
    assert _docs(tmp_path / "proj", "--out", "../out", "--layout", layout) == 0
    config = _i18n_config(tmp_path, "out", tmp_path / "out.i18n.yml", "site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-f", str(config)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ, NO_MKDOCS_2_WARNING="1"),
    )
    assert done.returncode == 0, done.stderr
    _assert_every_page_translated(tmp_path / "site")
    assert "「Demo Docs」" in Html(tmp_path / "site/zh/index.html").source


@pytest.mark.parametrize("layout", ["suffix", "folder"])
def test_docs_output_builds_with_zensical_i18n(tmp_path: Path, layout: str) -> None:
    pytest.importorskip("zensical_i18n")
    _site(tmp_path / "proj")
    assert _docs(tmp_path / "proj", "--out", "../zproj/docs", "--layout", layout) == 0
    root = tmp_path / "zproj"
    config = _i18n_config(root, "docs", tmp_path / "zproj/docs.i18n.yml", "site")
    config.rename(root / "mkdocs.yml")
    done = subprocess.run(
        [sys.executable, "-m", "zensical_i18n", "build", "-f", "mkdocs.yml"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    _assert_every_page_translated(root / "site")
    assert "「Demo Docs」" in Html(root / "site/zh/index.html").source


def test_the_plugin_builds_under_properdocs(tmp_path: Path) -> None:
    pytest.importorskip("properdocs")
    root = tmp_path / "proj"
    _site(root, markdown_extensions=["admonition"])
    (root / "mkdocs.yml").rename(root / "properdocs.yml")
    done = subprocess.run(
        [sys.executable, "-m", "properdocs", "build"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "zh-translate:" in done.stderr  # the plugin ran (its summary line)
    _assert_every_page_translated(root / "site")


# -- beside mkdocs-static-i18n (en + fr) inside MkDocs -------------------------------------------

I18N_PAGES = {
    "index.md": "# Welcome\n\nRead the [guide](guide.md).\n",
    "index.fr.md": "# Bienvenue\n\nLisez le [guide](guide.md).\n",
    "guide.md": "---\ntitle: The guide\n---\n# Guide\n\nInstall it with pip.\n",
    "guide.fr.md": "# Guide\n\nInstallez-le avec pip.\n",
}


def _i18n_site(root: Path, alternate: list[dict[str, str]] | None = None) -> Path:
    extra: dict[str, Any] = {
        "nav": [{"Home": "index.md"}, {"Guide": "guide.md"}],
        "plugins": [
            "search",
            {
                "i18n": {
                    "docs_structure": "suffix",
                    "languages": [
                        {"locale": "en", "name": "English", "default": True},
                        {"locale": "fr", "name": "Français"},
                    ],
                }
            },
            {"zh-translate": {"backend": "pseudo"}},
        ],
    }
    if alternate is not None:
        extra["extra"] = {"alternate": alternate}
    return write_site(root, theme="material", pages=I18N_PAGES, extra_config=extra)


def _switcher(page: Path) -> dict[str, str]:
    return {a["hreflang"]: a["href"] for a in Html(page).find("a") if "hreflang" in a}


def _build(root: Path, host: str = "mkdocs") -> subprocess.CompletedProcess[str]:
    if host == "properdocs" and (root / "mkdocs.yml").exists():
        (root / "mkdocs.yml").rename(root / "properdocs.yml")
    return subprocess.run(
        [sys.executable, "-m", host, "build"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ, NO_MKDOCS_2_WARNING="1"),
    )


@pytest.mark.parametrize("host", ["mkdocs", "properdocs"])
def test_beside_static_i18n_every_language_links_every_language_once(tmp_path: Path, host: str) -> None:
    pytest.importorskip("mkdocs_static_i18n")
    pytest.importorskip(host)
    root = tmp_path / "proj"
    _i18n_site(root)
    done = _build(root, host)
    assert done.returncode == 0, done.stderr
    site = root / "site"
    assert not (site / "zh" / "fr").exists() and not (site / "fr" / "zh").exists()
    assert done.stderr.count("Building 'zh' documentation") == 1
    assert sorted(p.name for p in (root / "docs").iterdir()) == ["guide.fr.md", "guide.md", "img", "index.fr.md", "index.md"]
    for lang, prefix in (("en", ""), ("fr", "fr/"), ("zh", "zh/")):
        page = site / prefix / "guide" / "index.html"
        links = _switcher(page)
        assert set(links) == {"en", "fr", "zh"}, (page, links)
        for other, other_prefix in (("en", ""), ("fr", "fr/"), ("zh", "zh/")):
            target = (page.parent / links[other]).resolve()
            assert target == (site / other_prefix / "guide").resolve(), (lang, other, links[other])
        html = Html(page)
        assert html.lang == lang
    zh = Html(site / "zh/guide/index.html")
    assert "「Install it with pip.」" in zh.text and "「The guide」" in zh.text
    assert "zh-translate-banner" in zh.source
    assert "「" not in Html(site / "fr/guide/index.html").text


def test_beside_static_i18n_a_users_extra_alternate_is_kept_and_zh_added(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs_static_i18n")
    root = tmp_path / "proj"
    own = [
        {"name": "English (US)", "link": "/", "lang": "en"},
        {"name": "Français", "link": "/fr/", "lang": "fr"},
    ]
    _i18n_site(root, alternate=own)
    done = _build(root)
    assert done.returncode == 0, done.stderr
    names = [a.get("hreflang") for a in Html(root / "site/fr/index.html").find("a") if "hreflang" in a]
    assert names == ["en", "fr", "zh"]
    assert "English (US)" in Html(root / "site/zh/index.html").text


def test_progress_without_a_terminal_is_log_lines_in_build_and_docs(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    _site(root)
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", ZH_TRANSLATE_PROGRESS_SECONDS="0")  # a line per chunk
    build = subprocess.run(  # stderr is a pipe here, as in CI
        [sys.executable, "-m", "mkdocs", "build"], cwd=root, capture_output=True, text=True, timeout=300, env=env
    )
    assert build.returncode == 0, build.stderr
    lines = [line for line in build.stderr.splitlines() if re.match(r"zh-translate: \d+/\d+ segments", line)]
    assert lines[0].startswith("zh-translate: 0/") and "ETA unknown" in lines[0]
    assert re.search(r"(\d+)/\1 segments \(100%\), [\d.]+/s, ETA 0 s", lines[-1]), lines
    assert " segments translated in " in build.stderr and "\r" not in build.stderr
    docs = subprocess.run(
        [sys.executable, "-m", "mkdocs_zh_translate", "docs", "--out", "../out", "--backend", "pseudo"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert docs.returncode == 0, docs.stderr
    # the build filled the cache: nothing left to translate, so no progress at all
    assert not re.search(r"zh-translate: \d+/\d+ segments", docs.stderr) and " 0 translated" in docs.stderr


def test_files_of_deleted_pages_are_removed_and_nothing_else(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    _site(root)
    (tmp_path / "out").mkdir()
    (tmp_path / "out/mine.txt").write_text("not ours", encoding="utf-8")
    assert _docs(root, "--out", "../out") == 0
    (root / "docs/guide/usage.md").unlink()
    assert _docs(root, "--out", "../out") == 0
    out = tmp_path / "out"
    assert not (out / "guide/usage.md").exists() and not (out / "guide/usage.zh.md").exists()
    assert (out / "guide/install.zh.md").is_file() and (out / "mine.txt").read_text(encoding="utf-8") == "not ours"


def test_beside_static_i18n_in_the_folder_structure(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs_static_i18n")
    root = tmp_path / "proj"
    pages = {"en/index.md": "# Welcome\n\nRead the [guide](guide.md).\n", "en/guide.md": "# Guide\n\nInstall it.\n"}
    pages["fr/index.md"] = "# Bienvenue\n\nLisez le guide.\n"
    languages = [{"locale": "en", "name": "English", "default": True}, {"locale": "fr", "name": "Français"}]
    plugins = ["search", {"i18n": {"docs_structure": "folder", "languages": languages}}, {"zh-translate": {"backend": "pseudo"}}]
    write_site(root, theme="material", pages=pages, extra_config={"plugins": plugins})
    done = _build(root)
    assert done.returncode == 0, done.stderr
    site = root / "site"
    assert not (root / "docs/zh").exists()
    assert "「Install it.」" in Html(site / "zh/guide/index.html").text
    assert _switcher(site / "fr/guide/index.html")["zh"] == "../../zh/guide/"
    assert not (site / "zh/fr").exists() and not (site / "zh/en").exists()



@pytest.mark.parametrize("english", ["en/", ""])
def test_beside_static_i18n_a_sites_own_zh_folder_wins_and_only_missing_pages_are_translated(
    tmp_path: Path, english: str
) -> None:
    # The site ships human zh/ pages and lists zh among static-i18n's languages (zotero-cli-cc
    # with en/, openai-agents with English at the top of docs_dir): no refusal over docs/zh/;
    # the human page is the zh page, no banner on it; the page zh/ lacks is translated.
    pytest.importorskip("mkdocs_static_i18n")
    root = tmp_path / "proj"
    pages = {f"{english}index.md": "# Welcome\n\nRead the [guide](guide.md).\n", f"{english}guide.md": "# Guide\n\nInstall it.\n"}
    pages["zh/index.md"] = "# 欢迎\n\n人工翻译的首页。\n"
    languages = [{"locale": "en", "name": "English", "default": True}, {"locale": "zh", "name": "简体中文"}]
    plugins = ["search", {"i18n": {"docs_structure": "folder", "languages": languages}}, {"zh-translate": {"backend": "pseudo"}}]
    write_site(root, theme="material", pages=pages, extra_config={"plugins": plugins})
    done = _build(root)
    assert done.returncode == 0, done.stderr
    site = root / "site"
    human = Html(site / "zh/index.html")
    assert "人工翻译的首页。" in human.text and "「人工" not in human.text and "「欢迎" not in human.text
    assert "zh-translate-banner" not in human.source
    machine = Html(site / "zh/guide/index.html")
    assert "「Install it.」" in machine.text and "zh-translate-banner" in machine.source
    assert sorted(p.name for p in (root / "docs/zh").iterdir()) == ["index.md"]
    assert not (site / "zh/zh").exists() and not (site / "zh/en").exists()

HOSTILE = 'Say "hi" \'there\' </title><script>alert(1)</script>\nnext: line'


def test_hostile_titles_stay_inert_text_in_the_snippet_and_front_matter(tmp_path: Path) -> None:
    pages = dict(PAGES)
    pages["guide/install.md"] = "---\ntitle: " + json.dumps(HOSTILE) + "\n---\n# Install\n\nInstall it.\n"
    nav = [{"Home": "index.md"}, {HOSTILE: [{"Install it": "guide/install.md"}, "guide/usage.md"]}]
    write_site(tmp_path / "proj", theme="material", pages=pages, extra_config={"nav": nav, "site_name": HOSTILE})
    assert _docs(tmp_path / "proj", "--out", "../out") == 0
    raw = (tmp_path / "out.i18n.yml").read_text(encoding="utf-8")
    zh = yaml.safe_load(raw)["plugins"][0]["i18n"]["languages"][1]
    # the English nav title stays the key static-i18n matches; every value is inert text
    assert all("<" not in v for v in [zh["site_name"], *zh["nav_translations"].values()])
    escaped = for_template(f"「{HOSTILE}」")
    assert zh["site_name"] == escaped and zh["nav_translations"][HOSTILE] == escaped  # one scalar each
    assert set(zh) == {"locale", "name", "site_name", "site_description", "nav_translations", "admonition_translations"}
    front = (tmp_path / "out/guide/install.zh.md").read_text(encoding="utf-8").split("---\n")[1]
    assert yaml.safe_load(front) == {"title": escaped}  # one key: the newline did not start another
    assert front.count("\n") == 1


def test_beside_static_i18n_a_title_from_the_translated_h1_is_escaped(tmp_path: Path) -> None:
    # MkDocs takes page.title from the H1 as escaped HTML and themes pass it through `striptags`,
    # which unescapes it: untrusted (translated) text would come back as live markup.
    pytest.importorskip("mkdocs_static_i18n")
    root = tmp_path / "proj"
    _i18n_site(root)
    (root / "docs/other.md").write_text(
        "# Use &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; \"safely\"\n\nBody text.\n", encoding="utf-8"
    )
    done = _build(root)
    assert done.returncode == 0, done.stderr
    english = (root / "site/other/index.html").read_text(encoding="utf-8")
    assert "<script>alert(1)</script>" in english  # what the English theme does with the user's own H1
    zh = (root / "site/zh/other/index.html").read_text(encoding="utf-8")
    assert "「Use" in zh and "alert(1)" in zh
    assert "<script>alert(1)" not in zh and "</title><script>" not in zh
    # the heading pin is an attribute in the zh build (attr_list added for it), not text
    assert "{ #" not in zh and 'id="use-titlescriptalert1script-safely"' in zh
    assert 'id="use-titlescriptalert1script-safely"' in english
    assert "attr_list" not in (root / "mkdocs.yml").read_text(encoding="utf-8")
    fr = (root / "site/fr/index.html").read_text(encoding="utf-8")
    assert "「" not in fr


SNIPPET_README = "# Demo project\n\nThe project turns notes into pages.\n"
SNIPPET_PAGES = {
    "index.md": '--8<-- "README.md"\n',
    "guide.md": "# Guide\n\nOwn text.\n\n--8<-- \"parts.md:usage\"\n",
    "code.md": '```python\n--8<-- "code.py"\n```\n',
    "missing.md": "# Missing\n\nOwn words.\n\n--8<-- \"nowhere.md\"\n",
}


def _snippet_site(root: Path, plugins: list[Any] | None = None) -> None:
    extra: dict[str, Any] = {
        "markdown_extensions": [{"pymdownx.snippets": {"base_path": ["."], "check_paths": True}}],
    }
    if plugins is not None:
        extra["plugins"] = plugins
    write_site(root, theme="material", pages=SNIPPET_PAGES, extra_config=extra)
    (root / "README.md").write_text(SNIPPET_README, encoding="utf-8")
    (root / "parts.md").write_text("Skip.\n\n--8<-- [start:usage]\nUsage is simple.\n--8<-- [end:usage]\n", encoding="utf-8")
    (root / "code.py").write_text("print('only code')\n", encoding="utf-8")


def test_docs_translates_included_markdown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _snippet_site(tmp_path / "proj")
    assert _docs(tmp_path / "proj", "--out", "../out") == 0
    out = tmp_path / "out"
    home = (out / "index.zh.md").read_text(encoding="utf-8")
    assert home == MACHINE + "# 「Demo project」 { #demo-project }\n\n「The project turns notes into pages.」\n\n"
    assert "「Usage is simple.」" in (out / "guide.zh.md").read_text(encoding="utf-8")
    assert (out / "index.md").read_text(encoding="utf-8") == SNIPPET_PAGES["index.md"]  # English as written
    assert not (out / "code.zh.md").exists()  # nothing to translate: no page claims a translation
    missing = (out / "missing.zh.md").read_text(encoding="utf-8")
    assert '--8<-- "nowhere.md"' in missing and "「Own words.」" in missing
    err = capsys.readouterr().err
    assert "missing.md: snippets not included, kept in English" in err and "nowhere.md" in err


def test_beside_static_i18n_included_markdown_is_translated(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs_static_i18n")
    root = tmp_path / "proj"
    i18n = {"i18n": {"docs_structure": "suffix", "languages": [{"locale": "en", "name": "English", "default": True}]}}
    _snippet_site(root, plugins=["search", i18n, {"zh-translate": {"backend": "pseudo"}}])
    (root / "docs/missing.md").unlink()  # check_paths: the English build itself would fail on it
    done = _build(root)
    assert done.returncode == 0, done.stderr
    home = Html(root / "site/zh/index.html")
    assert "「The project turns notes into pages.」" in home.text and "zh-translate-banner" in home.source
    assert "「Usage is simple.」" in Html(root / "site/zh/guide/index.html").text
    code = Html(root / "site/zh/code/index.html")  # static-i18n's English fallback, no banner
    assert "only code" in code.text and "zh-translate-banner" not in code.source
    assert "「" not in Html(root / "site/index.html").text
