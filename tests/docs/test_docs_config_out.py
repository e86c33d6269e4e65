"""``docs --config-out`` and the notices of the generated pages: the whole recipe is
``docs --out build/docs --config-out build/mkdocs.yml`` then ``mkdocs build -f build/mkdocs.yml``
(mkdocs-static-i18n) or ``zensical-i18n build -f build/mkdocs.yml``. Real builds, pseudo backend."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from mkdocs_zh_translate.cli.app import main
from tests.plugin_sites import Html, write_site

PAGES = {
    "index.md": "# Welcome\n\nRead the [install guide](guide/install.md).\n",
    "guide/install.md": "---\ntitle: Installing\n---\n# Install\n\nInstall the package with pip.\n",
    "guide/usage.md": "# Usage\n\nRun the build command.\n",
}
NAV = [{"Home": "index.md"}, {"Guide": [{"Install it": "guide/install.md"}, "guide/usage.md"]}]
MACHINE = "本页由机器翻译（pseudo 后端）。译文未经人工审校。"
UNTRANSLATED = "本页未翻译，显示英文原文。"


def _site(root: Path, **plugin: object) -> Path:
    options = {"backend": "pseudo", "exclude": ["guide/usage.md"], **plugin}
    return write_site(root, theme="material", pages=PAGES, plugin=options, extra_config={"nav": NAV})


def _docs(root: Path, *args: str) -> int:
    cwd = os.getcwd()
    os.chdir(root)
    try:
        return main(["docs", *args])
    finally:
        os.chdir(cwd)


def _check_site(site: Path) -> None:
    for rel in ("index.html", "guide/install/index.html"):
        assert MACHINE in (site / "zh" / rel).read_text(encoding="utf-8"), rel
        assert "zh-translate-banner" not in (site / rel).read_text(encoding="utf-8"), rel
        assert "「" in Html(site / "zh" / rel).text
    usage = (site / "zh/guide/usage/index.html").read_text(encoding="utf-8")  # excluded: English + notice
    article = re.search(r"<article\b.*?</article>", usage, flags=re.S)
    assert article and UNTRANSLATED in article.group(0) and MACHINE not in usage
    assert "Run the build command." in article.group(0) and "「" not in article.group(0)
    for lang, page, other, target in (("en", "guide/install/index.html", "zh", "zh/guide/install"),
                                      ("zh", "zh/guide/install/index.html", "en", "guide/install")):
        links = {a["hreflang"]: a["href"] for a in Html(site / page).find("a") if "hreflang" in a}
        assert other in links, (lang, links)
        assert ((site / page).parent / links[other]).resolve() == (site / target).resolve(), (lang, links)


def _recipe(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "proj"
    _site(root)
    before = (root / "mkdocs.yml").read_bytes()
    assert _docs(root, "--out", "build/docs", "--config-out", "build/mkdocs.yml") == 0
    assert (root / "mkdocs.yml").read_bytes() == before
    config = yaml.safe_load((root / "build/mkdocs.yml").read_text(encoding="utf-8"))
    assert config["INHERIT"] == "../mkdocs.yml" and config["docs_dir"] == "docs"
    assert config["plugins"][0] == "search" and "zh-translate" not in str(config["plugins"])
    assert config["plugins"][1]["i18n"]["languages"][1]["locale"] == "zh"
    return root, root / "build/mkdocs.yml"


def test_config_out_builds_with_mkdocs_static_i18n(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs_static_i18n")
    root, config = _recipe(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-f", str(config.relative_to(root))],
        cwd=root, capture_output=True, text=True, timeout=300, env=dict(os.environ, NO_MKDOCS_2_WARNING="1"),
    )
    assert done.returncode == 0, done.stderr
    assert "zh-translate:" not in done.stderr  # the plugin did not run again: the tree is translated
    _check_site(root / "build/site")


def test_config_out_builds_with_zensical_i18n(tmp_path: Path) -> None:
    pytest.importorskip("zensical_i18n")
    root, config = _recipe(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "zensical_i18n", "build", "-f", str(config.relative_to(root))],
        cwd=root, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    _check_site(root / "build/site")


def test_the_notice_follows_the_banner_option_and_the_reviews(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    _site(root, banner="Demo <b>model</b> & co.")
    assert _docs(root, "--out", "../out") == 0
    home = (tmp_path / "out/index.zh.md").read_text(encoding="utf-8")
    first, blank, heading = home.split("\n")[:3]
    assert first.startswith('<div class="admonition note zh-translate-banner"><p class="admonition-title">Demo ')
    assert first.endswith("model" + first.split("model")[-1]) and "<b>" not in first and " & " not in first
    assert first.endswith("译文未经人工审校。</p></div>") and blank == "" and heading.startswith("# ")
    # every entry of the home page reviewed: the build's "all reviewed" wording
    assert main(["review", "sync", "-f", str(root / "mkdocs.yml")]) == 0
    po = root / "translations/zh/index.md.po"
    po.write_text(po.read_text(encoding="utf-8").replace("#, fuzzy\n", ""), encoding="utf-8")
    assert _docs(root, "--out", "../out") == 0
    home = (tmp_path / "out/index.zh.md").read_text(encoding="utf-8")
    assert "译文已全部经人工审校。" in home.split("\n")[0]
    assert "未经人工审校" in (tmp_path / "out/guide/install.zh.md").read_text(encoding="utf-8")
    # banner: false -> no notice, and excluded pages are left to the i18n plugin's own fallback
    config = root / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace("banner: Demo <b>model</b> & co.", "banner: false"),
                      encoding="utf-8")
    assert _docs(root, "--out", "../out") == 0
    assert "zh-translate-banner" not in (tmp_path / "out/index.zh.md").read_text(encoding="utf-8")
    assert not (tmp_path / "out/guide/usage.zh.md").exists()


@pytest.mark.parametrize(
    ("config_out", "message"),
    [
        ("mkdocs.yml", "is the config file"),
        ("docs/zh.yml", "is inside docs_dir"),
        ("build/docs/mkdocs.yml", "is inside the output directory"),
        ("other/mkdocs.yml", "must be inside the config's folder"),
        ("build/docs.i18n.yml", "is the --snippet file"),
    ],
)
def test_config_out_never_overwrites_an_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], config_out: str, message: str
) -> None:
    root = tmp_path / "proj"
    _site(root)
    def files() -> dict[Path, bytes]:  # (the cache the plugin opens is not an input)
        return {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and ".zh-translate-cache" not in p.parts}

    before = files()
    assert _docs(root, "--out", "build/docs", "--config-out", config_out) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err and "Traceback" not in err, err
    assert files() == before and not (root / "build").exists()  # refused before anything was written


# -- extensions that read files relative to the working directory ---------------------------

INCLUDED_SNIPPET = "Snippet text from outside docs."
INCLUDED_FILE = "Included text from markdown-include."


def _including_site(root: Path) -> None:
    """A page including a snippet and a markdown-include file, by relative ``base_path``s (and
    ``check_paths`` off, the default: a file not found is silently left out)."""
    pages = dict(PAGES)
    pages["guide/usage.md"] = '# Usage\n\nRun the build command.\n\n--8<-- "note.md"\n\n{!parts/part.md!}\n'
    extensions = [{"pymdownx.snippets": {"base_path": ["snippets"]}}, {"markdown_include.include": {"base_path": "."}}]
    write_site(root, theme="material", pages=pages, plugin={"backend": "pseudo"},
               extra_config={"nav": NAV, "markdown_extensions": extensions})
    (root / "snippets").mkdir()
    (root / "snippets" / "note.md").write_text(INCLUDED_SNIPPET + "\n", encoding="utf-8")
    (root / "parts").mkdir()
    (root / "parts" / "part.md").write_text(INCLUDED_FILE + "\n", encoding="utf-8")


@pytest.mark.parametrize("tool", ["mkdocs", "zensical_i18n"])
def test_config_out_keeps_the_files_extensions_include(tmp_path: Path, tool: str) -> None:
    pytest.importorskip("mkdocs_static_i18n" if tool == "mkdocs" else "zensical_i18n")
    root = tmp_path / "proj"
    _including_site(root)
    assert _docs(root, "--out", "build/docs", "--config-out", "build/mkdocs.yml") == 0
    command = [sys.executable, "-m", tool, "build", "-f", "build/mkdocs.yml"]
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert done.returncode == 0, done.stdout + done.stderr
    english = (root / "build/site/guide/usage/index.html").read_text(encoding="utf-8")
    assert INCLUDED_SNIPPET in english and INCLUDED_FILE in english  # not silently left out
    chinese = Html(root / "build/site/zh/guide/usage/index.html").text
    assert "Snippet text" in chinese and "Included text" in chinese
    written = yaml.safe_load((root / "build/mkdocs.yml").read_text(encoding="utf-8"))
    snippets, include = written["markdown_extensions"]
    assert snippets == {"pymdownx.snippets": {"base_path": [str((root / "snippets").resolve())]}}
    assert include == {"markdown_include.include": {"base_path": str(root.resolve())}}


def test_config_out_writes_python_names_back_and_keeps_other_extensions(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    _including_site(root)
    config = root / "mkdocs.yml"
    config.write_text(
        config.read_text(encoding="utf-8").replace(
            "markdown_extensions:\n",
            "markdown_extensions:\n- pymdownx.emoji:\n    emoji_index: !!python/name:material.extensions.emoji.twemoji\n",
        ),
        encoding="utf-8",
    )
    assert _docs(root, "--out", "build/docs", "--config-out", "build/mkdocs.yml") == 0
    from mkdocs.utils.yaml import yaml_load

    with open(root / "build/mkdocs.yml", "rb") as fd:
        written = yaml_load(fd)
    from material.extensions.emoji import twemoji

    assert written["markdown_extensions"][0] == {"pymdownx.emoji": {"emoji_index": twemoji}}
