"""Translation memory: `review sync` offers reviewed Chinese to near-identical English, as a
fuzzy suggestion with the similar English as ``#| msgid``, never as reviewed."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import polib
import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.review.memory import Memory
from mkdocs_zh_translate.review.store import entry_state, render_po
from mkdocs_zh_translate.review.sync import merge
from mkdocs_zh_translate.review.units import Unit, page_units
from mkdocs_zh_translate.segment import segment_markdown
from tests.growth import assert_work_linear
from tests.plugin_sites import build_in_process, write_site

REVIEWED_EN = "Run the build command before you publish the site to the server."
REVIEWED_ZH = "在把站点发布到服务器之前运行构建命令。"
NEAR = "Run the build command before you publish the website to the server."  # 94% similar
FAR = "Run the serve command to preview the site while you edit it."


def _unit(msgid: str) -> Unit:
    return Unit(msgid, None, msgid, "paragraph", None, [("docs/b.md", "1")])


def _reviewed(*pairs: tuple[str, str]) -> polib.POFile:
    po = polib.POFile()
    for english, chinese in pairs:
        po.append(polib.POEntry(msgid=english, msgstr=chinese))
    return po


def _memory(threshold: float = 90) -> Memory:
    return Memory.of_files([_reviewed((REVIEWED_EN, REVIEWED_ZH))], threshold)


def test_a_near_match_gets_the_reviewed_text_as_a_fuzzy_suggestion_with_the_previous_msgid() -> None:
    po = merge(None, [_unit(NEAR)], {(None, NEAR): "机器翻译。"}, memory=_memory())
    entry = po.find(NEAR)
    assert entry.msgstr == REVIEWED_ZH and entry.fuzzy and entry.previous_msgid == REVIEWED_EN
    assert entry_state(entry) != "reviewed"
    text = render_po(po, 0)  # unwrapped, as `review sync --width 0` writes it
    assert f'#| msgid "{REVIEWED_EN}"' in text and "#, fuzzy" in text


def test_below_the_threshold_or_disabled_nothing_is_offered() -> None:
    po = merge(None, [_unit(FAR), _unit(NEAR)], {(None, FAR): "机器一。", (None, NEAR): "机器二。"}, memory=_memory())
    far = po.find(FAR)
    assert far.msgstr == "机器一。" and far.previous_msgid is None  # the machine text, as before
    strict = merge(None, [_unit(NEAR)], {(None, NEAR): "机器二。"}, memory=_memory(threshold=99))
    assert strict.find(NEAR).msgstr == "机器二。" and strict.find(NEAR).previous_msgid is None
    off = merge(None, [_unit(NEAR)], {(None, NEAR): "机器二。"}, memory=_memory(threshold=0))
    assert off.find(NEAR).msgstr == "机器二。"


def test_only_reviewed_entries_are_remembered() -> None:
    po = polib.POFile()
    po.append(polib.POEntry(msgid=REVIEWED_EN, msgstr="机器的。", flags=["fuzzy"]))  # machine text
    stale = polib.POEntry(msgid=FAR, msgstr="旧的。", flags=["fuzzy"], previous_msgid="Old English.")
    po.append(stale)  # a suggestion nobody confirmed
    gone = polib.POEntry(msgid="Obsolete but reviewed English sentence here.", msgstr="过时的。", obsolete=True)
    po.append(gone)
    memory = Memory.of_files([po])
    assert memory.lookup(_unit(NEAR)) is None and memory.lookup(_unit(FAR + " ")) is None
    found = memory.lookup(_unit("Obsolete but reviewed English sentences here."))
    assert found is not None and found.chinese == "过时的。"  # a person's work on English that left


def test_a_rewrapped_paragraph_scores_100() -> None:
    wrapped = REVIEWED_EN.replace(" before ", "\nbefore   ")
    found = _memory().lookup(_unit(wrapped))
    assert found is not None and found.score == 100 and found.chinese == REVIEWED_ZH


def test_entries_holding_a_persons_text_are_untouched() -> None:
    old = polib.POFile()
    old.append(polib.POEntry(msgid=NEAR, msgstr="审校过的。"))  # reviewed
    other = "Run the build command before you publish the site to a server."
    old.append(polib.POEntry(msgid=other, msgstr="改了一半的草稿", flags=["fuzzy"]))  # not the machine text
    po = merge(old, [_unit(NEAR), _unit(other)], {(None, NEAR): "机器。", (None, other): "机器。"}, memory=_memory())
    assert po.find(NEAR).msgstr == "审校过的。" and not po.find(NEAR).fuzzy and po.find(NEAR).previous_msgid is None
    draft = po.find(other)
    assert draft.msgstr == "改了一半的草稿" and draft.previous_msgid is None
    # an existing entry holding exactly the cached machine text is offered the suggestion
    machine = polib.POFile()
    machine.append(polib.POEntry(msgid=other, msgstr="机器。", flags=["fuzzy"]))
    again = merge(machine, [_unit(other)], {(None, other): "机器。"}, memory=_memory())
    assert again.find(other).msgstr == REVIEWED_ZH and again.find(other).previous_msgid == REVIEWED_EN


def _page_unit(markdown: str) -> Unit:
    units, _site = page_units(segment_markdown(markdown), "docs/b.md")
    return units[0]


def test_a_suggestion_whose_markup_does_not_fit_is_not_offered() -> None:
    memory = Memory.of_files(
        [_reviewed(("Install the package with `pip install demo` first.", "先用 `pip install demo` 安装软件包。"))]
    )
    fits = _page_unit("Install the package with `pip install demo` first!\n")
    assert memory.lookup(fits) is not None
    other_code = _page_unit("Install the package with `pip install demo2` first.\n")
    assert memory.lookup(other_code) is None  # the reviewed text would lose `pip install demo2`
    po = merge(None, [other_code], {other_code.key: "机器。"}, memory=memory)
    assert po.find(other_code.msgid).msgstr == "机器。" and po.find(other_code.msgid).previous_msgid is None


PAGES = {
    "index.md": f"# Home\n\n{REVIEWED_EN}\n",
    "other.md": "# Other\n\nRun the build command before you publish the website\nto the server.\n",
}


def test_sync_offers_the_suggestion_and_the_build_does_not_use_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    config = write_site(tmp_path, pages=PAGES)
    review = tmp_path / "translations" / "zh"
    review.mkdir(parents=True)
    _reviewed((REVIEWED_EN, REVIEWED_ZH)).save(str(review / "index.md.po"))
    assert cli_main(["review", "sync", "-f", str(config)]) == 0
    path = review / "other.md.po"
    text = path.read_text(encoding="utf-8")
    assert "#, fuzzy" in text and f'#| msgid "{REVIEWED_EN}"' in text and REVIEWED_ZH in text
    if shutil.which("msgfmt"):
        proc = subprocess.run(["msgfmt", "-c", "-o", "/dev/null", str(path)], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        same = subprocess.run(["msgcat", str(path)], capture_output=True, text=True, timeout=60)
        assert same.stdout == text  # laid out as gettext writes it: a msgcat round trip changes nothing
    build_in_process(config)
    built = (tmp_path / "site" / "zh" / "other" / "index.html").read_text(encoding="utf-8")
    assert REVIEWED_ZH not in built  # fuzzy: not a reviewed translation
    home = (tmp_path / "site" / "zh" / "index.html").read_text(encoding="utf-8")
    assert REVIEWED_ZH in home  # the reviewed entry itself is used
    # --memory 0: no suggestion for a new page's near match
    (tmp_path / "docs" / "third.md").write_text("Run the build command before you publish the site to the servers.\n")
    assert cli_main(["review", "sync", "--memory", "0", "-f", str(config)]) == 0
    assert REVIEWED_ZH not in (review / "third.md.po").read_text(encoding="utf-8")
    assert cli_main(["review", "sync", "--memory", "101", "-f", str(config)]) == 2


def _sentences(count: int, seed: int) -> list[str]:
    """Docs-like sentences: common words and a few of a vocabulary that grows with the site."""
    rng = random.Random(seed)
    common = "the a to of and in is for you with this that on your can be by it or as".split()
    terms = [f"term{n}" for n in range(count)]
    out = []
    for _ in range(count):
        words = rng.choices(common, k=8) + rng.choices(terms, k=4)
        rng.shuffle(words)
        out.append(" ".join(words).capitalize() + ".")
    return out


def test_lookups_grow_linearly_with_the_size_of_the_memory() -> None:
    def work_at(k: int) -> float:
        size = 1500 * k
        reviewed = _sentences(size, seed=k)
        memory = Memory([(text, "译文。") for text in reviewed])
        rng = random.Random(k)
        hits = 0
        for text in _sentences(size, seed=100 + k)[: size // 2] + reviewed[size // 2 :]:
            if rng.random() < 0.5:  # a near match: one word of a reviewed sentence changed
                text = text.replace("the ", "one ", 1)
            hits += memory.lookup(_unit(text)) is not None
        assert hits >= size // 4  # the near matches are found
        return float(memory.work)

    assert_work_linear("translation memory lookups", work_at)
