"""PO files that gettext's tools leave alone: our writer agrees with ``msgcat`` byte for byte,
``msgfmt -c`` finds nothing to warn about, and a round trip through msgcat or polib followed by
``review sync`` rewrites nothing."""

from __future__ import annotations

import ctypes
import ctypes.util
import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.review.poformat import format_po
from mkdocs_zh_translate.review.powrap import break_opportunities, wrap_string
from mkdocs_zh_translate.review.store import new_po
from tests.plugin_sites import build_in_process, write_site

MSGCAT = shutil.which("msgcat")
MSGFMT = shutil.which("msgfmt")
needs_gettext = pytest.mark.skipif(MSGCAT is None or MSGFMT is None, reason="GNU gettext (msgcat, msgfmt) not installed")

WORDS = [
    "the", "configuration", "mkdocs.yml", "`code`", "[link](guide/install.md)", "https://example.com/a/b/c-d/index.html",
    "e.g.", "(see", "below)", '"quoted"', "back\\slash", "tab\there", "a-b", "x/y", "100%", "$5", "naïve",
    "中文", "翻译。", "，", "（括号）", "「引号」", "配置文件", "ASCII", "——", "…", "！", "：", "😀", "\u00a0",
    "supercalifragilisticexpialidocious" * 2, "   ", "\n", "1.5", "é", "ー", "い",
]  # fmt: skip
text = st.lists(st.sampled_from(WORDS), max_size=40).map(
    lambda words: "".join(w + ("" if w in ("，", "。", "\n") or w[:1] >= "\u4e00" else " ") for w in words)
)


def _msgcat(po_text: str, tmp: Path, *args: str) -> str:
    path = tmp / "in.po"
    path.write_text(po_text, encoding="utf-8")
    done = subprocess.run([MSGCAT or "msgcat", *args, str(path)], capture_output=True, text=True, check=True)
    return done.stdout


@needs_gettext
@settings(max_examples=200, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    entries=st.lists(st.tuples(text, text, st.booleans(), st.booleans()), min_size=1, max_size=6),
    width=st.sampled_from([79, 79, 40, 100, 0]),
)
def test_our_layout_is_msgcats_byte_for_byte(tmp_path: Path, entries: list[tuple[str, str, bool, bool]], width: int) -> None:
    po = new_po(None, {"POT-Creation-Date": "2024-01-01 00:00+0000", "PO-Revision-Date": "2024-01-01 00:00+0000"})
    seen = set()
    for index, (msgid, msgstr, fuzzy, obsolete) in enumerate(entries):
        key = msgid + str(index)
        if key in seen:
            continue
        seen.add(key)
        entry = polib.POEntry(
            msgid=f"{index} {msgid}",
            msgstr=msgstr,
            flags=["fuzzy"] if fuzzy else [],
            comment="paragraph",
            occurrences=[] if obsolete else [(f"docs/{'page-' * (index * 3)}{index}.md", str(index * 7 + 1))] * 2,
            previous_msgid=msgstr or None if fuzzy and not obsolete else None,
            msgctxt=msgid if index % 3 == 2 else None,
            obsolete=obsolete,
        )
        po.append(entry)
    assume(any(e.msgstr or not e.obsolete for e in po))  # msgcat writes nothing for a file of no messages
    ours = format_po(po, width)
    args = ["--no-wrap"] if width <= 0 else [f"--width={width}"]
    assert _msgcat(ours, tmp_path, *args) == ours


def _libunistring() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("unistring")
    return ctypes.CDLL(name) if name else None


LIB = _libunistring()


@pytest.mark.skipif(LIB is None, reason="libunistring (gettext's line breaking) not installed")
@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Co", "Cn")), max_size=20))
def test_break_opportunities_are_libunistrings(value: str) -> None:
    assert LIB is not None
    data = value.encode("utf-8")
    out = ctypes.create_string_buffer(len(data))
    LIB.u8_possible_linebreaks(data, ctypes.c_size_t(len(data)), b"UTF-8", out)
    ref, offset = [], 0
    for ch in value:
        ref.append(out.raw[offset] - 1)  # UC_BREAK_PROHIBITED=1, POSSIBLE=2, MANDATORY=3
        offset += len(ch.encode("utf-8"))
    assert break_opportunities(value) == ref


def test_chinese_breaks_between_han_but_not_around_punctuation() -> None:
    lines = wrap_string("msgstr", "中文" * 30 + "（配置）。" + "字" * 40, width=40)
    assert all(not line.startswith('"）') and not line.startswith('"。') for line in lines)
    assert all(not line.endswith('（"') for line in lines)
    assert lines[0] == 'msgstr ""' and all(len(line) <= 40 + line.count("字") + line.count("中") for line in lines)


def test_escapes_are_never_split_and_newlines_end_lines() -> None:
    lines = wrap_string("msgid", 'a\nb "' + "x" * 90 + '" \\ end', width=20)
    assert lines[:3] == ['msgid ""', '"a\\n"', '"b \\""'] or lines[1] == '"a\\n"'
    assert all(not line.endswith('\\"') or line.endswith('\\""') or line == 'msgid ""' for line in lines)
    assert wrap_string("msgid", "word " * 40, width=0) == ['msgid "' + "word " * 40 + '"']


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    shutil.copytree(Path(__file__).resolve().parents[2] / "example_site", root)
    config = (root / "mkdocs.yml").read_text(encoding="utf-8")
    config = config.replace("backend: onnx", "backend: pseudo").replace("model: ../.cache/demo-model", "")
    config = config.replace("base_path: [example_site/snippets, snippets]", "base_path: [snippets]")
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    monkeypatch.chdir(root)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    return root / "mkdocs.yml"


def _files(root: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted((root / "translations").rglob("*.po"))}


@needs_gettext
def test_example_site_po_files_survive_msgcat_polib_and_msgfmt(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = site.parent
    build_in_process(site)
    assert cli_main(["review", "sync", "-f", str(site)]) == 0
    written = _files(root)
    assert len(written) >= 9
    for path, data in written.items():
        assert subprocess.run([MSGCAT or "", str(path)], capture_output=True, check=True).stdout == data, path
        check = subprocess.run([MSGFMT or "", "-c", "--statistics", "-o", "/dev/null", str(path)], capture_output=True, text=True)
        assert check.returncode == 0 and "warning" not in check.stderr and "translated messages" in check.stderr, check.stderr
        po = polib.pofile(str(path))
        assert po.metadata["Plural-Forms"] == "nplurals=1; plural=0;" and po.metadata["Project-Id-Version"] == "mkdocs-zh-translate"
        assert format_po(po).encode("utf-8") == data, path  # polib load + our writer: identical
    # a later sync (another day) rewrites nothing, not even the dates
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    assert cli_main(["review", "sync", "-f", str(site)]) == 0
    assert _files(root) == written


def test_a_file_another_tool_wrapped_is_not_rewritten(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = site.parent
    build_in_process(site)
    assert cli_main(["review", "sync", "-f", str(site), "--width", "0"]) == 0
    path = root / "translations" / "zh" / "guide" / "review.md.po"
    unwrapped = path.read_text(encoding="utf-8")
    assert max(len(line) for line in unwrapped.splitlines()) > 79
    assert cli_main(["review", "sync", "-f", str(site)]) == 0  # width 79, same content: kept
    assert path.read_text(encoding="utf-8") == unwrapped
    po = polib.pofile(str(path))
    entry = next(e for e in po if e.msgstr and not e.obsolete)
    entry.flags = []  # a reviewer approves one entry
    path.write_text(format_po(po, 0), encoding="utf-8")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    assert cli_main(["review", "sync", "-f", str(site)]) == 0
    after = polib.pofile(str(path))
    assert after.metadata["PO-Revision-Date"] == "2023-11-14 22:13+0000"  # sync changed no translation
    assert max(len(line) for line in path.read_text(encoding="utf-8").splitlines()) > 79  # nothing re-wrapped


def test_revision_date_moves_only_when_a_translation_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    config = write_site(tmp_path, pages={"index.md": "# Title\n\nOne paragraph.\n"}, plugin={"backend": "pseudo"})
    build_in_process(config)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert cli_main(["review", "sync", "-f", str(config)]) == 0
    path = tmp_path / "translations" / "zh" / "index.md.po"
    first = polib.pofile(str(path)).metadata
    (tmp_path / "docs" / "index.md").write_text("# Title\n\nOne paragraph.\n\nA new one.\n", encoding="utf-8")
    build_in_process(config)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    assert cli_main(["review", "sync", "-f", str(config)]) == 0
    second = polib.pofile(str(path)).metadata
    assert first["PO-Revision-Date"] == "2023-11-14 22:13+0000"
    assert second["POT-Creation-Date"] == "2027-01-15 08:00+0000"  # a new English entry
    assert second["PO-Revision-Date"] == "2027-01-15 08:00+0000"  # with machine text filled in
