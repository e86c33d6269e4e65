"""Translation memory: `review sync` offers reviewed Chinese to near-identical English, as a
fuzzy suggestion with the similar English as ``#| msgid``, never as reviewed."""

from __future__ import annotations

import json
import logging
import random
import re
import shutil
import subprocess
from pathlib import Path

import polib
import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.logs import LOGGER_NAME
from mkdocs_zh_translate.review.memory import Memory
from mkdocs_zh_translate.review.report import render_report
from mkdocs_zh_translate.review.status import Counts, ReviewFile, format_status, status_of, status_report
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


# A suggestion is not a stale review: its own state, marker and counts


MARK = "zh-translate: suggestion from translation memory"


def _match(entry: polib.POEntry) -> int:
    """The percentage the entry's marker line states (its only marker line)."""
    lines = [line for line in (entry.tcomment or "").split("\n") if line.startswith(MARK)]
    assert len(lines) == 1, entry.tcomment
    found = re.fullmatch(re.escape(MARK) + r" \((\d+)% match\)", lines[0])
    assert found is not None, lines[0]
    return int(found.group(1))


def _status(po: polib.POFile) -> Counts:
    return status_of([ReviewFile(Path("b.md.po"), "b.md", po)]).total


def test_a_suggestion_is_marked_and_counted_as_suggested_not_stale() -> None:
    po = merge(None, [_unit(NEAR)], {(None, NEAR): "机器翻译。"}, memory=_memory())
    entry = po.find(NEAR)
    assert entry_state(entry) == "suggested"
    assert 90 <= _match(entry) < 100  # one word differs
    assert f"# {MARK} ({_match(entry)}% match)\n" in render_po(po, 0)  # a translator comment line
    counts = _status(po)
    assert (counts.suggested, counts.stale, counts.machine, counts.reviewed) == (1, 0, 0, 0)
    # a stale review (reviewed, then the English changed) stays stale
    changed = polib.POEntry(msgid=NEAR, msgstr="旧的。", flags=["fuzzy"], previous_msgid=REVIEWED_EN)
    assert entry_state(changed) == "stale"


def test_an_accepted_suggestion_is_reviewed_and_the_next_sync_drops_the_marker() -> None:
    po = merge(None, [_unit(NEAR)], {(None, NEAR): "机器翻译。"}, memory=_memory())
    entry = po.find(NEAR)
    assert MARK in entry.tcomment
    entry.tcomment = f"checked by Li\n{entry.tcomment}"  # the team's own comment line stays
    entry.flags = []  # the reviewer accepts it
    assert entry_state(entry) == "reviewed"
    again = merge(po, [_unit(NEAR)], {(None, NEAR): "机器翻译。"}, memory=_memory())
    done = again.find(NEAR)
    assert entry_state(done) == "reviewed" and done.msgstr == REVIEWED_ZH
    assert done.tcomment == "checked by Li" and MARK not in render_po(again, 0)


def test_an_edited_suggestion_still_fuzzy_is_a_draft_kept_and_still_suggested() -> None:
    po = merge(None, [_unit(NEAR)], {(None, NEAR): "机器翻译。"}, memory=_memory())
    po.find(NEAR).msgstr = "在把网站发布到服务器之前运行构建命令。"  # edited, #, fuzzy kept
    before = _match(po.find(NEAR))
    other = Memory.of_files([_reviewed((NEAR, "另一个译文。"))])  # an exact match: would be offered if open
    again = merge(po, [_unit(NEAR)], {(None, NEAR): "机器翻译。"}, memory=other)
    draft = again.find(NEAR)
    assert draft.msgstr == "在把网站发布到服务器之前运行构建命令。"  # never overwritten
    assert entry_state(draft) == "suggested" and _match(draft) == before and draft.previous_msgid == REVIEWED_EN
    assert _status(again).suggested == 1 and _status(again).stale == 0


def test_a_suggestion_whose_english_changes_moves_with_it_and_its_marker_tells_the_new_match() -> None:
    po = merge(None, [_unit(NEAR)], {(None, NEAR): "机器翻译。"}, memory=_memory())
    po.find(NEAR).msgstr = "草稿。"  # a reviewer's unfinished edit
    before = _match(po.find(NEAR))
    edited = NEAR.replace("Run the build", "Now run the build")
    again = merge(po, [_unit(edited)], {(None, edited): "机器。"}, memory=None)
    moved = again.find(edited)
    assert moved.msgstr == "草稿。" and moved.previous_msgid == REVIEWED_EN and entry_state(moved) == "suggested"
    assert _match(moved) < before  # the English it translates is further from the new text
    assert not any(e.obsolete and e.msgstr == "草稿。" for e in again)


def test_status_report_and_json_count_suggestions_apart() -> None:
    po = merge(None, [_unit(NEAR), _unit(FAR)], {(None, NEAR): "机一。", (None, FAR): "机二。"}, memory=_memory())
    file = ReviewFile(Path("b.md.po"), "b.md", po)
    status = status_of([file])
    lines = format_status(status).splitlines()
    head = lines[0].split()
    row = dict(zip(head, lines[2].split()))
    assert (row["suggested"], row["stale"], row["machine"]) == ("1", "0", "1")
    pages = status_report(status)["pages"]
    assert pages["b.md"]["suggested"] == 1 and pages["b.md"]["stale_reviews"] == 0
    html = render_report([file], status, "t")
    assert "<th>suggested</th>" in html and "suggested (from translation memory)" in html
    assert f"reviewed for: {REVIEWED_EN}" in html


@pytest.mark.skipif(not shutil.which("msgmerge"), reason="needs GNU gettext")
def test_the_marker_survives_msgcat_and_msgmerge(tmp_path: Path) -> None:
    po = merge(None, [_unit(NEAR)], {(None, NEAR): "机器翻译。"}, memory=_memory())
    path = tmp_path / "b.md.po"
    path.write_text(render_po(po), encoding="utf-8")
    template = polib.POFile()
    template.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    template.append(polib.POEntry(msgid=NEAR, msgstr="", comment="paragraph", occurrences=[("docs/b.md", "1")]))
    pot = tmp_path / "b.md.pot"
    template.save(str(pot))
    for command in (["msgcat", str(path)], ["msgmerge", "-q", str(path), str(pot)]):
        proc = subprocess.run(command, capture_output=True, text=True, timeout=60, check=True)
        again = polib.pofile(proc.stdout)
        entry = again.find(NEAR)
        assert entry.msgstr == REVIEWED_ZH and entry_state(entry) == "suggested", command  # still not stale
        assert _match(entry) == _match(po.find(NEAR))


def test_check_gates_suggestions_apart_and_the_build_summary_counts_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.chdir(tmp_path)
    config = write_site(tmp_path, pages=PAGES)
    review = tmp_path / "translations" / "zh"
    review.mkdir(parents=True)
    _reviewed((REVIEWED_EN, REVIEWED_ZH)).save(str(review / "index.md.po"))
    assert cli_main(["review", "sync", "-f", str(config)]) == 0
    assert ", 0 stale, 1 suggested, " in capsys.readouterr().out
    assert cli_main(["review", "sync", "-f", str(config)]) == 0
    assert "review sync: 0 of 3 PO file(s) written" in capsys.readouterr().out  # the marker is stable
    assert cli_main(["review", "check", "-f", str(config), "--max-stale", "0"]) == 0  # right after a sync
    assert cli_main(["review", "check", "-f", str(config), "--max-suggested", "0"]) == 1
    out = capsys.readouterr().out
    assert "1 suggested, 0 stale, 0 rejected: more than 0 suggested" in out
    assert cli_main(["review", "check", "-f", str(config), "--max-suggested", "-1"]) == 2
    with caplog.at_level(logging.INFO, logger=LOGGER_NAME):
        build_in_process(config)
    summary = [r.getMessage() for r in caplog.records if "segments (" in r.getMessage()]
    assert len(summary) == 1 and ", 1 suggested (from translation memory)" in summary[0]
    assert "stale" not in summary[0]
    report = json.loads((tmp_path / ".zh-translate-cache" / "report.json").read_text(encoding="utf-8"))
    assert report["pages"]["other.md"]["suggested"] == 1 and report["totals"]["stale_reviews"] == 0


def test_the_plugin_option_sets_the_threshold(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    config = write_site(tmp_path, pages=PAGES, plugin={"backend": "pseudo", "translation_memory": 0})
    review = tmp_path / "translations" / "zh"
    review.mkdir(parents=True)
    _reviewed((REVIEWED_EN, REVIEWED_ZH)).save(str(review / "index.md.po"))
    assert cli_main(["review", "sync", "-f", str(config)]) == 0
    assert REVIEWED_ZH not in (review / "other.md.po").read_text(encoding="utf-8")  # off in mkdocs.yml
    assert cli_main(["review", "sync", "--memory", "90", "-f", str(config)]) == 0  # the flag wins
    assert REVIEWED_ZH in (review / "other.md.po").read_text(encoding="utf-8")
    bad = write_site(tmp_path, pages=PAGES, plugin={"backend": "pseudo", "translation_memory": 101})
    assert cli_main(["review", "sync", "-f", str(bad)]) == 2
