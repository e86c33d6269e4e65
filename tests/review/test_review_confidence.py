"""``review sync`` writes the model's confidence as an extracted comment (``#. confidence:``),
follows the machine cache when the translation changes, never touches a reviewed msgstr, and
``review report --worst N`` lists the least confident machine translations first."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import polib
import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.review.confidence import format_score, read_score
from mkdocs_zh_translate.review.store import entry_state
from mkdocs_zh_translate.review.sync import merge
from mkdocs_zh_translate.review.units import Unit
from mkdocs_zh_translate.scored import ScoredText
from tests.fakes import CountingTranslator
from tests.plugin_sites import build_in_process, write_site

PAGES = {
    "index.md": "# Home\n\nWelcome to the demo site.\n\nA considerably longer sentence that the model finds harder.\n",
    "guide.md": "# Guide\n\nFirst paragraph of the guide.\n\nSecond paragraph of the guide.\n",
}


def _unit(msgid: str) -> Unit:
    return Unit(msgid, None, msgid, "paragraph", None, [("docs/a.md", "1")])


def test_merge_writes_updates_keeps_and_drops_the_confidence_line() -> None:
    units = [_unit("Machine."), _unit("Reviewed."), _unit("Gone from the cache."), _unit("Unscored.")]
    machine = {(None, "Machine."): "机器。", (None, "Unscored."): "无。"}
    scores: dict[tuple[str | None, str], float | None] = {(None, "Machine."): -0.4242, (None, "Reviewed."): -1.5,
                                                          (None, "Gone from the cache."): -0.7, (None, "Unscored."): -0.2}
    po = merge(None, units, machine, scores=scores)
    assert po.find("Machine.").comment == "paragraph\nconfidence: -0.42"
    old = polib.POFile()
    for entry in po:
        old.append(entry)
    old.find("Reviewed.").msgstr = "人工。"  # a person reviewed it: not fuzzy
    # the model changed: new scores; one text has no cached translation any more, one has no score
    again = merge(old, units, machine, scores={(None, "Machine."): -2.0, (None, "Reviewed."): -0.05,
                                               (None, "Unscored."): None})
    assert again.find("Machine.").comment == "paragraph\nconfidence: -2.00"
    reviewed = again.find("Reviewed.")
    assert reviewed.msgstr == "人工。" and entry_state(reviewed) == "reviewed"
    assert reviewed.comment == "paragraph\nconfidence: -0.05"
    assert again.find("Gone from the cache.").comment == "paragraph\nconfidence: -0.70"  # nothing new: kept
    assert again.find("Unscored.").comment == "paragraph"  # the cache's text has no score: unknown


def test_the_line_is_stable_and_read_back() -> None:
    assert [format_score(s) for s in (-0.0001, -0.425, -1.0, -12.3456)] == ["0.00", "-0.42", "-1.00", "-12.35"]
    assert read_score("paragraph\nconfidence: -0.42") == -0.42
    assert read_score("paragraph") is None and read_score("confidence: high") is None and read_score(None) is None


def score_for(text: str, factor: float) -> float:
    return -factor * len(text) / 100


class Scored(CountingTranslator):
    """The fake model: upper-cased text, each output scored ``score_for(input, factor)``."""

    def __init__(self, factor: float) -> None:
        super().__init__()
        self.factor = factor

    def translate(self, texts: Sequence[str]) -> list[str]:
        return [ScoredText(o, score_for(t, self.factor)) for t, o in zip(texts, super().translate(texts))]


@pytest.fixture
def scored_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[float]]:
    """A site built with a scoring fake model (``factor[0]`` sets its scores)."""
    from mkdocs_zh_translate.pipeline import lazy

    monkeypatch.chdir(tmp_path)
    (tmp_path / "model").mkdir()
    factor = [1.0]
    monkeypatch.setattr(lazy, "load_translator", lambda backend, model, **options: Scored(factor[0]))
    return write_site(tmp_path, pages=PAGES, plugin={"backend": "onnx", "model": str(tmp_path / "model")}), factor


def _review(config: Path, *args: str) -> int:
    return cli_main(["review", *args, "-f", str(config)])


def _scores(po_file: Path) -> dict[str, float | None]:
    return {e.msgid: read_score(e.comment) for e in polib.pofile(str(po_file)) if not e.obsolete}


def test_sync_writes_the_confidence_and_follows_the_model(
    scored_site: tuple[Path, list[float]], capsys: pytest.CaptureFixture[str]
) -> None:
    config, factor = scored_site
    review = config.parent / "translations" / "zh"
    build_in_process(config)
    assert _review(config, "sync") == 0
    guide = review / "guide.md.po"
    first = "First paragraph of the guide."
    second = "Second paragraph of the guide."
    assert _scores(guide) == {"Guide": round(score_for("Guide", 1), 2), first: round(score_for(first, 1), 2),
                              second: round(score_for(second, 1), 2)}
    assert f"#. paragraph\n#. confidence: {format_score(score_for(second, 1))}\n" in guide.read_text("utf-8")

    # a reviewer accepts one entry; then the model changes (new cache, other scores)
    po = polib.pofile(str(guide))
    po.find(second).msgstr = "第二段。"
    po.find(second).flags.remove("fuzzy")
    po.save(str(guide))
    shutil.rmtree(config.parent / ".zh-translate-cache")
    factor[0] = 3.0
    build_in_process(config)
    assert _review(config, "sync") == 0
    after = polib.pofile(str(guide))
    assert after.find(second).msgstr == "第二段。" and "fuzzy" not in after.find(second).flags
    scores = _scores(guide)
    assert scores[first] == round(score_for(first, 3), 2)  # the new machine text's score
    assert scores[second] == round(score_for(second, 1), 2)  # reviewed: not retranslated, line kept

    # least confident first, unreviewed machine translations only
    capsys.readouterr()
    assert _review(config, "report", "--worst", "3") == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [line.split("\t") for line in lines[2:]]
    assert lines[1] == "confidence\twhere\tenglish\tmachine" and len(rows) == 3
    assert [float(r[0]) for r in rows] == sorted(float(r[0]) for r in rows)
    assert rows[0][2] == "A considerably longer sentence that the model finds harder."
    assert rows[0][1] == "docs/index.md:5" and rows[0][3] == rows[0][2].upper()
    assert second not in {r[2] for r in rows}
    everything = [s for f in review.glob("*.po") for e in polib.pofile(str(f))
                  if entry_state(e) == "machine" and (s := read_score(e.comment)) is not None]
    assert [float(r[0]) for r in rows] == sorted(round(s, 2) for s in everything)[:3]


@pytest.mark.skipif(shutil.which("msgcat") is None, reason="GNU gettext is not installed")
def test_gettext_tools_keep_the_file_valid_and_sync_reads_their_output(scored_site: tuple[Path, list[float]]) -> None:
    config, _factor = scored_site
    build_in_process(config)
    assert _review(config, "sync") == 0
    index = config.parent / "translations" / "zh" / "index.md.po"
    written = _scores(index)
    assert written and None not in written.values()
    for command in (["msgcat", "--width=40", str(index)], ["msgmerge", "--no-wrap", str(index), str(index)]):
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        assert result.returncode == 0, result.stderr
        assert "#. confidence: " in result.stdout
        check = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", "-"], input=result.stdout,
                               capture_output=True, text=True, check=False)
        assert check.returncode == 0, check.stderr
        index.write_text(result.stdout, encoding="utf-8")  # as a translator's tool leaves it
        assert _scores(index) == written
        assert _review(config, "sync") == 0
        assert _scores(index) == written


def test_the_pseudo_backend_gives_no_scores_and_the_report_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    config = write_site(tmp_path, pages=PAGES)
    build_in_process(config)
    assert _review(config, "sync") == 0
    review = config.parent / "translations" / "zh"
    assert all("confidence" not in f.read_text("utf-8") for f in review.glob("*.po"))
    capsys.readouterr()
    assert _review(config, "report", "--worst", "5") == 0
    out = capsys.readouterr().out
    assert "no confidence scores" in out and "pseudo" in out
    assert _review(config, "report") == 2  # neither -o nor --worst: one clear line


@pytest.mark.skipif(shutil.which("msgmerge") is None, reason="GNU gettext is not installed")
def test_msgmerge_with_the_templates_keeps_every_confidence_line(scored_site: tuple[Path, list[float]]) -> None:
    """msgmerge takes extracted comments from the .pot: the template carries the PO file's, so a
    reviewed entry (whose machine text the cache may no longer hold) keeps its line."""
    config, factor = scored_site
    review = config.parent / "translations" / "zh"
    guide, pot = review / "guide.md.po", config.parent / "translations" / "templates" / "guide.md.pot"
    first, second = "First paragraph of the guide.", "Second paragraph of the guide."
    build_in_process(config)
    assert _review(config, "sync", "--templates") == 0
    po = polib.pofile(str(guide))
    po.find(second).msgstr = "第二段。"
    po.find(second).flags.remove("fuzzy")
    po.save(str(guide))
    shutil.rmtree(config.parent / ".zh-translate-cache")  # another model: the reviewed text is never retranslated
    factor[0] = 3.0
    build_in_process(config)
    assert _review(config, "sync", "--templates") == 0
    assert f"#. confidence: {format_score(score_for(second, 1))}" in pot.read_text("utf-8")
    merged = subprocess.run(["msgmerge", "--quiet", "--no-wrap", str(guide), str(pot)], capture_output=True,
                            text=True, check=True)
    guide.write_text(merged.stdout, encoding="utf-8")  # as `msgmerge -U` leaves it
    expected = {"Guide": round(score_for("Guide", 3), 2), first: round(score_for(first, 3), 2),
                second: round(score_for(second, 1), 2)}
    assert _scores(guide) == expected
    assert _review(config, "sync", "--templates") == 0
    assert _scores(guide) == expected and polib.pofile(str(guide)).find(second).msgstr == "第二段。"
