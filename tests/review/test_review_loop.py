"""The whole review loop on a copy of the example site (issue 5's "must show").

build -> sync -> a reviewer edits entries -> the English changes -> build and sync again ->
reviewed text kept, stale entries carry the old text as a suggestion, status/check numbers are
right, and builds without the model (and without the cache) still succeed from the PO files.
The model is a counting fake (upper-cases text, keeps placeholders) behind the onnx backend, so
"the model directory is removed" means what it means for a real model.
"""

from __future__ import annotations

import logging
import re
import shutil
from pathlib import Path

import polib
import pytest
import yaml
from mkdocs.exceptions import Abort

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.logs import LOGGER_NAME, PREFIX
from mkdocs_zh_translate.review.store import entry_state
from tests.plugin_sites import CountingTranslator, build_in_process, fake_model_loader

REPO = Path(__file__).resolve().parents[2]

INSTALL_OLD = "Install the package from the project directory:"
INSTALL_NEW = "Install the package from your project directory:"
CODE_PARA = (
    "This installs the plugin, the `mkdocs-zh-translate` command and ONNX Runtime. It does not "
    "install PyTorch: the model runs on ONNX Runtime alone."  # msgids carry no soft line break
)
CODE_ZH = "这会安装插件、`mkdocs-zh-translate` 命令和 ONNX Runtime。它不安装 PyTorch：模型只靠 ONNX Runtime 运行。"
REMOVED = "Run the command below. It prints the sub-commands of the tool."
ADDED = "A new sentence that nobody has translated yet."


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[CountingTranslator]:
    return fake_model_loader(monkeypatch)


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(REPO / "example_site", root)
    _configure(root, {"backend": "onnx", "model": "model"})
    (root / "model").mkdir()
    (root / "model" / "config.json").write_text('{"fake": 1}')
    monkeypatch.chdir(root)
    return root / "mkdocs.yml"


@pytest.fixture(scope="module")
def _pseudo_synced(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example site on the pseudo backend, built once and synced: where the approve and
    reflow tests start. Made once for the module; each test works on its own copy."""
    root = tmp_path_factory.mktemp("pseudo") / "proj"
    shutil.copytree(REPO / "example_site", root)
    _configure(root, {"backend": "pseudo", "model": None})
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        build_in_process(root / "mkdocs.yml")
        assert _review(root / "mkdocs.yml", "sync") == 0
    return root


@pytest.fixture
def pseudo_site(_pseudo_synced: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the built and synced pseudo-backend site (its own snippets directory)."""
    root = tmp_path / "proj"
    shutil.copytree(_pseudo_synced, root)
    _configure(root, {})
    monkeypatch.chdir(root)
    return root / "mkdocs.yml"


def _configure(root: Path, options_update: dict[str, object]) -> None:
    """The copy's mkdocs.yml: snippets read from the copy, plain YAML, ``options_update`` applied."""
    config = yaml.load((root / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.Loader)
    for ext in config["markdown_extensions"]:
        if isinstance(ext, dict) and "pymdownx.snippets" in ext:
            ext["pymdownx.snippets"]["base_path"] = [str(root / "snippets")]
        if isinstance(ext, dict) and "pymdownx.emoji" in ext:
            ext["pymdownx.emoji"] = {}  # the !!python/name tags do not survive a plain dump
    plugins = config["plugins"]
    options = next(p["zh-translate"] for p in plugins if isinstance(p, dict) and "zh-translate" in p)
    options.update(options_update)
    (root / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")


def _review(config: Path, *args: str) -> int:
    return cli_main(["review", *args, "-f", str(config)])


def _entry(po: polib.POFile, msgid: str) -> polib.POEntry:
    found = [e for e in po if e.msgid == msgid and not e.obsolete]
    assert len(found) == 1, (msgid, [e.msgid for e in po][:20])
    return found[0]


def _zh(root: Path, page: str) -> str:
    return (root / "site" / "zh" / page / "index.html").read_text(encoding="utf-8")


def test_review_loop_on_the_example_site(
    site: Path, made: list[CountingTranslator], capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    root = site.parent
    install_po = root / "translations" / "zh" / "guide" / "install.md.po"
    site_po = root / "translations" / "zh" / "site.po"

    # 1. first build: everything machine-translated; sync writes fuzzy machine entries
    build_in_process(site)
    assert made[0].segments > 100
    assert _review(site, "sync") == 0
    po = polib.pofile(str(install_po))
    entry = _entry(po, INSTALL_OLD)
    assert entry.fuzzy and entry.msgstr == INSTALL_OLD.upper()
    assert entry.occurrences == [("docs/guide/install.md", "22")]
    # msgid is readable Markdown, not placeholders
    assert _entry(po, CODE_PARA).msgstr.startswith("THIS INSTALLS THE PLUGIN, THE `mkdocs-zh-translate` COMMAND")
    assert not any("<x1/>" in e.msgid or "<g1>" in e.msgid for e in po)
    before = install_po.stat().st_mtime_ns
    assert _review(site, "sync") == 0  # nothing changed: no file is rewritten
    assert install_po.stat().st_mtime_ns == before

    # 2. a reviewer edits: two translations, one approval, one bad edit (drops a code span)
    po = polib.pofile(str(install_po))
    for msgid, text in ((INSTALL_OLD, "从项目目录安装软件包："), (CODE_PARA, CODE_ZH)):
        e = _entry(po, msgid)
        e.msgstr, e.flags = text, []
    approved = _entry(po, "Requirements")
    approved.flags = []
    bad = _entry(po, "The plugin needs an exported model directory. Export the English-to-Chinese model of the OPUS-MT project once, on a machine with internet access:")
    bad.msgstr, bad.flags = "插件需要一个导出的模型目录。<script>alert(1)</script>", []
    po.save(str(install_po))
    spo = polib.pofile(str(site_po))
    nav = _entry(spo, "Installation")
    nav.msgstr, nav.flags = "安装", []
    spo.save(str(site_po))
    bad_line = polib.pofile(str(install_po)).find(bad.msgid).linenum

    # 3. the English changes: one reviewed sentence edited, one sentence removed, one added
    page = root / "docs" / "guide" / "install.md"
    text = page.read_text(encoding="utf-8")
    text = text.replace(INSTALL_OLD, INSTALL_NEW).replace(REMOVED, ADDED)
    page.write_text(text, encoding="utf-8")

    # 4. build again: reviewed text in the page, the bad edit rejected with file and line
    po_files = {p: p.read_bytes() for p in (root / "translations").rglob("*.po")}
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger=LOGGER_NAME):
        plugin = build_in_process(site)
    assert {p: p.read_bytes() for p in (root / "translations").rglob("*.po")} == po_files  # builds only read
    html = _zh(root, "guide/install")
    assert "ONNX Runtime。它不安装 PyTorch" in html and "<code>mkdocs-zh-translate</code> 命令" in html
    assert "从项目目录安装软件包" not in html  # its source changed: no longer applies
    assert INSTALL_NEW.upper() in html and ADDED.upper() in html
    assert "alert(1)" not in html and "插件需要一个导出的模型目录" not in html
    assert "THE PLUGIN NEEDS AN EXPORTED MODEL DIRECTORY" in html  # fell back to the machine text
    warnings = [r.getMessage() for r in caplog.records if "rejected" in r.getMessage()]
    assert len(warnings) == 1
    assert f"install.md.po:{bad_line}: reviewed translation rejected" in warnings[0]
    assert "script" in warnings[0]
    assert plugin.stats.translated == 2  # only the changed and the new sentence went to the model
    assert "<title>安装 - " in _zh(root, "guide/install")  # reviewed nav title

    # 5. sync again: reviewed kept, stale with the old text as suggestion, vanished obsolete
    assert _review(site, "sync") == 0
    po = polib.pofile(str(install_po))
    assert _entry(po, CODE_PARA).msgstr == CODE_ZH and not _entry(po, CODE_PARA).fuzzy
    stale = _entry(po, INSTALL_NEW)
    assert stale.fuzzy and stale.previous_msgid == INSTALL_OLD and stale.msgstr == "从项目目录安装软件包："
    assert _entry(po, ADDED).fuzzy and _entry(po, ADDED).msgstr == ADDED.upper()
    obsolete = [e for e in po if e.obsolete]
    assert [e.msgid for e in obsolete] == [REMOVED]
    assert "#| msgid \"Install the package from the project directory:\"" in install_po.read_text(encoding="utf-8")
    assert "#~ msgid" in install_po.read_text(encoding="utf-8")

    # 6. status and check
    capsys.readouterr()
    assert _review(site, "status") == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("guide/install.md "))
    total_entries = len([e for e in po if not e.obsolete])
    # columns: reviewed, rejected, machine, stale, suggested, missing, obsolete
    # reviewed: the code paragraph and "Requirements"; rejected: the <script> edit; stale: the
    # edited sentence; suggested: the page's heading "Installation", offered the nav title's
    # review (translation memory) as a fuzzy suggestion, which no sync can resolve: not stale
    heading = _entry(po, "Installation")
    assert heading.fuzzy and heading.msgstr == "安装" and heading.previous_msgid == "Installation"
    assert entry_state(heading) == "suggested"
    assert "zh-translate: suggestion from translation memory (100% match)" in heading.tcomment
    assert row.split()[1:8] == ["2", "1", str(total_entries - 5), "1", "1", "0", "1"]
    assert "install.md.po: msgid 'The plugin needs an exported model directory. E...': rejected (adds a script" in out
    total = next(line for line in out.splitlines() if line.startswith("total "))
    reviewed_total = int(total.split()[1])
    assert reviewed_total == 3  # + the nav title in site.po
    all_entries = sum(int(x) for x in total.split()[1:7])
    assert _review(site, "check", "--min-reviewed", f"{100 * 3 / all_entries - 0.1:.2f}") == 0
    assert _review(site, "check", "--min-reviewed", f"{100 * 3 / all_entries + 0.1:.2f}") == 1
    assert "1 rejected" in capsys.readouterr().out
    # a team gating on stale reviews is not failed by the suggestion; --max-suggested gates it
    assert _review(site, "check", "--max-stale", "1") == 0
    assert _review(site, "check", "--max-suggested", "0") == 1
    assert "1 suggested, 1 stale, " in capsys.readouterr().out

    # 7. the model directory removed: the build succeeds from cache and PO files
    shutil.rmtree(root / "model")
    plugin = build_in_process(site)
    assert plugin.lazy.loads == 0
    assert "ONNX Runtime。它不安装 PyTorch" in _zh(root, "guide/install")

    # 8. a fresh clone: no model, no cache. The build fails rather than ship English as zh ...
    shutil.rmtree(root / ".zh-translate-cache")
    with pytest.raises(Abort):
        build_in_process(site)
    # ... unless a partial deploy is allowed: reviewed entries used, the rest English, one warning a page
    config = yaml.safe_load(site.read_text(encoding="utf-8"))
    options = next(p["zh-translate"] for p in config["plugins"] if isinstance(p, dict) and "zh-translate" in p)
    options["allow_untranslated"] = True
    site.write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger=LOGGER_NAME):
        plugin = build_in_process(site)
    html = _zh(root, "guide/install")
    assert "ONNX Runtime。它不安装 PyTorch" in html and "<title>安装 - " in html
    assert INSTALL_NEW in html  # English
    kept = [r.getMessage() for r in caplog.records if "kept in English" in r.getMessage()]
    pages = {m.removeprefix(PREFIX).split(":", 1)[0] for m in kept}
    assert len(kept) == len(pages) >= 9  # exactly one warning per page
    assert any("install.md" in m for m in kept)


def test_approving_every_machine_entry_changes_nothing_but_the_banner(
    pseudo_site: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Every machine translation on the example site (every Markdown construct the segmenter
    handles) survives the trip to readable Markdown in the PO file and back."""
    site = pseudo_site
    root = site.parent
    # the machine pages of the first build, and the PO files its sync wrote
    machine = {p.relative_to(root / "site"): p.read_text(encoding="utf-8") for p in (root / "site" / "zh").rglob("*.html")}
    approved = 0
    for path in (root / "translations" / "zh").rglob("*.po"):
        po = polib.pofile(str(path))
        for entry in po:
            assert entry.msgstr, entry.msgid  # the pseudo backend translated everything
            entry.flags = [f for f in entry.flags if f != "fuzzy"]
            approved += 1
        po.save(str(path))
    assert approved > 150
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger=LOGGER_NAME):
        plugin = build_in_process(site)
    assert [r.getMessage() for r in caplog.records if "rejected" in r.getMessage()] == []
    assert plugin.stats.translated == 0
    banner = re.compile(r'<p class="admonition-title">[^<]*</p>')
    pre = re.compile(r"<pre\b.*?</pre>", re.S)

    def prose(html: str) -> str:  # msgstrs carry no soft line breaks: a newline may become a space
        return " ".join(pre.sub("<pre/>", banner.sub("", html)).split())

    for rel, before in machine.items():
        after = (root / "site" / rel).read_text(encoding="utf-8")
        assert pre.findall(after) == pre.findall(before), rel  # code blocks byte for byte
        assert prose(after) == prose(before), rel
    assert "译文已全部经人工审校" in (root / "site" / "zh" / "guide" / "install" / "index.html").read_text(encoding="utf-8")


_PROSE_LINE = re.compile(r"[A-Za-z`*\[(]")


def _reflow(markdown: str) -> str:
    """Every paragraph of ``markdown`` re-flowed onto one line, as mdformat or prettier do to a
    whole site: a prose line at column 0 joins the prose line above it (fences, lists, tables,
    headings, containers and hard breaks untouched)."""
    out: list[str] = []
    fenced = False
    lines = markdown.split("\n")
    if lines[0] == "---" and "---" in lines[1:]:  # front matter is YAML, not prose
        end = lines.index("---", 1) + 1
        out, lines = lines[:end], lines[end:]
    for line in lines:
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        prev = out[-1] if out else ""
        joinable = (
            not fenced
            and _PROSE_LINE.match(line) is not None
            and _PROSE_LINE.match(prev) is not None
            and not prev.endswith(("  ", "\\", ":"))
            and not line.startswith(("* ", "*[", "[^", "[//]"))
            and not re.match(r"\[[^\]]*\]:", line)  # a link reference definition
        )
        if joinable:
            out[-1] = f"{prev} {line}"
        else:
            out.append(line)
    return "\n".join(out)


def test_reflowing_every_paragraph_of_the_example_site_keeps_every_review(
    pseudo_site: Path, caplog: pytest.LogCaptureFixture
) -> None:
    site = pseudo_site  # built and synced
    root = site.parent
    reviewed = 0
    for path in (root / "translations" / "zh").rglob("*.po"):
        po = polib.pofile(str(path))
        for entry in po:
            entry.msgstr, entry.flags = f"审{entry.msgstr}", []
            reviewed += 1
        po.save(str(path))
    joined = 0
    for page in (root / "docs").rglob("*.md"):
        text = page.read_text(encoding="utf-8")
        flowed = _reflow(text)
        joined += text.count("\n") - flowed.count("\n")
        page.write_text(flowed, encoding="utf-8")
    assert joined > 50  # the site really was re-wrapped
    plugin = build_in_process(site)
    fresh = {page: c.translated for page, c in plugin.stats.pages.items() if c.translated}
    assert plugin.stats.translated == 0, fresh  # every segment still found: reviewed (or cached strings)
    assert _review(site, "sync") == 0
    states = [
        entry_state(e) for p in (root / "translations" / "zh").rglob("*.po") for e in polib.pofile(str(p))
    ]
    assert len(states) == reviewed and set(states) == {"reviewed"}, sorted(set(states))
