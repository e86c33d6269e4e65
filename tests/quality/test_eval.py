"""``mkdocs-zh-translate eval``: scores of the pipeline's output against references.

The pseudo backend translates ``text`` as ``「text」``, so references written that way are
identical to the output (chrF 100) and any other reference scores below it. A fake loader stands
in for two settings of a model where ``--compare`` must show them apart.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.pipeline.backends import TranslatorSpec
from mkdocs_zh_translate.pipeline.translator import PseudoTranslator, Translator
from tests.fakes import CountingTranslator, EmphasisBreaker
from tests.plugin_sites import write_site

IDENTICAL = (
    "# the pseudo backend's own output: every reference identical\n"
    "Hello world, this is a test.\t「Hello world, this is a test.」\n"
    "\n"
    "Run `mkdocs build` to [build](build.md) the site.\t「Run `mkdocs build` to [build](build.md) the site.」\n"
)
CHINESE = "Hello world, this is a test.\t你好世界，这是一个测试。\n"

RUN_KEYS = {
    "label", "settings", "sentences", "chrf", "bleu", "whole", "pieces", "english", "placeholder_errors",
    "fallbacks", "untranslated", "length_outliers", "seconds", "worst_untranslated", "worst_length",
}
SETTINGS_KEYS = {"backend", "model", "beams", "threads", "max_batch_tokens", "markup", "shortlist"}
SENTENCE_KEYS = {"where", "source", "candidate", "reference"}


def _tsv(tmp_path: Path, text: str, name: str = "refs.tsv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _eval(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = cli_main(["eval", *args])
    out = capsys.readouterr()
    return rc, out.out, out.err


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    rc, out, err = _eval(capsys, *args, "--json")
    assert rc == 0, err
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def test_identical_references_score_100(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    refs = _tsv(tmp_path, IDENTICAL)
    data = _json(capsys, "--references", str(refs), "--backend", "pseudo")
    (result,) = data["runs"]  # type: ignore[misc]
    assert data["references"]["count"] == 2 and data["references"]["skipped"] == 0  # type: ignore[index]
    assert str(data["references"]["origin"]).endswith("refs.tsv")  # type: ignore[index]
    assert result["chrf"] == pytest.approx(100.0) and result["bleu"] == pytest.approx(100.0)
    assert (result["sentences"], result["whole"], result["pieces"], result["english"]) == (2, 2, 0, 0)
    assert result["untranslated"] == 0 and result["length_outliers"] == 0 and result["placeholder_errors"] == 0


def test_other_references_score_lower_and_english_left_is_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _json(capsys, "--references", str(_tsv(tmp_path, CHINESE)), "--backend", "pseudo")
    (result,) = data["runs"]  # type: ignore[misc]
    assert result["chrf"] < 20 and result["bleu"] < 20
    # the pseudo output is the English itself: a long English run the reference lacks, 2.3x as long
    assert result["untranslated"] == 1 and result["length_outliers"] == 1
    (worst,) = result["worst_untranslated"]
    assert worst["english"] == ["this is a test"] and worst["where"].endswith("refs.tsv:1")
    assert result["worst_length"][0]["ratio"] > 2.0


def test_english_runs_need_length_and_skip_what_the_reference_keeps() -> None:
    from mkdocs_zh_translate.quality import metrics

    assert metrics.english_runs("使用 MkDocs 构建") == []  # one short word: a name, not English left
    assert metrics.english_runs("请 run the build now 吧") == ["run the build now"]
    assert metrics.english_left("见 Material for MkDocs 主题", "见 Material for MkDocs 的主题") == []
    assert metrics.english_left("见 Material for MkDocs 主题", "见材料主题") == ["material for mkdocs"]


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("Hello.\t「Hello.」\n\nno tab on this line\n", 3, "expected `english<TAB>reference`"),
        ("Hello.\t「Hello.」\nA\tB\tC\n", 2, "expected `english<TAB>reference`"),
        ("Hello.\t\n", 1, "expected `english<TAB>reference`"),
        ("Run `a` now.\t现在运行。\n", 1, "the reference does not keep the English's markup (lost the code `a`)"),
        ("Hello.\n\nWorld.\t你好\n", 3, None),  # line 1 has no tab: the first bad line is named
    ],
)
def test_a_bad_tsv_line_is_one_error_naming_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, line: int, message: str | None
) -> None:
    refs = _tsv(tmp_path, text)
    rc, out, err = _eval(capsys, "--references", str(refs), "--backend", "pseudo")
    if message is None:  # the first bad line wins
        line, message = 1, "expected `english<TAB>reference`"
    assert rc == 2 and out == ""
    (only,) = err.strip().splitlines()
    assert only.startswith("mkdocs-zh-translate: error: ") and f"refs.tsv:{line}: {message}" in only
    assert "Traceback" not in err


def test_a_tsv_that_is_not_utf8_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    refs = tmp_path / "refs.tsv"
    refs.write_bytes("Hello.\t「Hello.」\n".encode() + b"World.\t\xff\n")
    rc, _out, err = _eval(capsys, "--references", str(refs), "--backend", "pseudo")
    assert rc == 2 and "refs.tsv:2" in err and len(err.strip().splitlines()) == 1


def test_json_schema_is_stable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, "--references", str(_tsv(tmp_path, IDENTICAL + CHINESE)), "--backend", "pseudo",
                 "--min-chrf", "10", "--worst", "1")
    assert set(data) == {"format", "tool", "command", "references", "runs", "threshold"}
    assert data["format"] == 1 and data["command"] == "eval"
    assert data["tool"]["name"] == "mkdocs-zh-translate"  # type: ignore[index]
    assert set(data["references"]) == {"origin", "count", "skipped"}  # type: ignore[arg-type]
    assert data["threshold"] == {"min_chrf": 10.0, "passed": True}
    (result,) = data["runs"]  # type: ignore[misc]
    assert set(result) == RUN_KEYS and set(result["settings"]) == SETTINGS_KEYS
    assert result["settings"]["backend"] == "pseudo" and result["settings"]["markup"] == "tags"
    for key in ("sentences", "whole", "pieces", "english", "placeholder_errors", "untranslated", "length_outliers"):
        assert isinstance(result[key], int), key
    assert isinstance(result["chrf"], float) and isinstance(result["bleu"], float)
    assert len(result["worst_length"]) == 1  # --worst 1 of the one outlier
    assert set(result["worst_length"][0]) == SENTENCE_KEYS | {"ratio"}
    assert set(result["worst_untranslated"][0]) == SENTENCE_KEYS | {"english"}


def test_limit_scores_the_first_n(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, "--references", str(_tsv(tmp_path, IDENTICAL + CHINESE)), "--backend", "pseudo",
                 "--limit", "2")
    assert data["references"]["count"] == 2  # type: ignore[index]
    assert data["runs"][0]["chrf"] == pytest.approx(100.0)  # type: ignore[index]


class _BySpec:
    """The loader ``--compare`` gets in these tests: beams=1 a model that breaks emphasis, else
    one that keeps it (both upper-case the text)."""

    def __init__(self) -> None:
        self.specs: list[TranslatorSpec] = []

    def get(self, spec: TranslatorSpec) -> Translator:
        self.specs.append(spec)
        return EmphasisBreaker() if spec.beams == 1 else CountingTranslator()


def test_compare_shows_two_settings_side_by_side(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    loader = _BySpec()
    monkeypatch.setattr("mkdocs_zh_translate.quality.run.LazyTranslator", lambda: loader)
    refs = _tsv(tmp_path, "Use **bold** here.\tUSE **BOLD** HERE.\nPlain text stays.\tPLAIN TEXT STAYS.\n")
    rc, out, err = _eval(capsys, "--references", str(refs), "--backend", "pseudo",
                         "--compare", "beams=1", "beams=4,markup=tags")
    assert rc == 0, err
    assert [s.beams for s in loader.specs] == [1, 4] and {s.backend for s in loader.specs} == {"pseudo"}
    lines = out.splitlines()
    head = next(line for line in lines if "beams=1" in line)
    assert head.split() == ["beams=1", "beams=4,markup=tags"]
    row = next(line for line in lines if line.startswith("placeholder errors"))
    assert row.split()[2:] == ["1", "(50%)", "0", "(0%)"]
    data = _json(capsys, "--references", str(refs), "--backend", "pseudo", "--compare", "beams=1", "beams=4,shortlist=300")
    first, second = data["runs"]  # type: ignore[misc]
    assert (first["label"], second["label"]) == ("beams=1", "beams=4,shortlist=300")
    assert (first["settings"]["shortlist"], second["settings"]["shortlist"]) == (0, 300)
    assert first["fallbacks"] == {"drop_pairs": 1} and second["fallbacks"] == {}


@pytest.mark.parametrize(
    ("setting", "message"),
    [("beams", "expected field=value"), ("colour=red", "unknown field 'colour'"),
     ("beams=0", "beams takes a whole number"), ("markup=nope", "unknown markup strategy 'nope'"),
     ("backend=gpt", "unknown backend 'gpt'")],
)
def test_compare_settings_are_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], setting: str, message: str
) -> None:
    rc, _out, err = _eval(capsys, "--references", str(_tsv(tmp_path, IDENTICAL)), "--backend", "pseudo",
                          "--compare", "beams=2", setting)
    assert rc == 2 and message in err and len(err.strip().splitlines()) == 1


def test_threshold_exit_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    same, other = _tsv(tmp_path, IDENTICAL, "same.tsv"), _tsv(tmp_path, CHINESE, "other.tsv")
    assert _eval(capsys, "--references", str(same), "--backend", "pseudo", "--min-chrf", "99")[0] == 0
    rc, _out, err = _eval(capsys, "--references", str(other), "--backend", "pseudo", "--min-chrf", "50")
    assert rc == 1 and "chrF below --min-chrf 50" in err
    assert _json(capsys, "--references", str(other), "--backend", "pseudo")["runs"][0]["chrf"] < 50  # type: ignore[index]
    rc, _out, err = _eval(capsys, "--references", str(same), "--backend", "pseudo", "--min-chrf", "101")
    assert rc == 2 and "--min-chrf 101" in err


REVIEWED_PO = (
    'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    'msgid "Hello world, this is a test."\nmsgstr "你好世界，这是一个测试。"\n\n'
    '#, fuzzy\nmsgid "A machine sentence."\nmsgstr "机器的句子。"\n\n'
)


class _Recording(PseudoTranslator):
    def __init__(self) -> None:
        self.seen: list[str] = []

    def translate(self, texts: Sequence[str]) -> list[str]:
        self.seen.extend(texts)
        return super().translate(texts)


def test_reviewed_references_are_not_the_candidates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The site's reviewed entry is the reference: the model must translate its English (the
    build would serve the reviewed text instead), and no PO file is written."""
    config = write_site(tmp_path, pages={"index.md": "Hello world, this is a test.\n\nA machine sentence.\n"})
    po = tmp_path / "translations" / "zh" / "index.md.po"
    po.parent.mkdir(parents=True)
    po.write_text(REVIEWED_PO, encoding="utf-8")
    before = (po.read_bytes(), po.stat().st_mtime_ns)
    model = _Recording()
    monkeypatch.setattr("mkdocs_zh_translate.pipeline.lazy.LazyTranslator.get", lambda self, spec: model)
    data = _json(capsys, "-f", str(config))
    assert data["references"]["count"] == 1  # type: ignore[index]  # the fuzzy entry is no reference
    (result,) = data["runs"]  # type: ignore[misc]
    assert model.seen == ["Hello world, this is a test."]
    assert result["chrf"] < 20 and result["untranslated"] == 1  # 「Hello world…」 against 你好世界…
    assert result["worst_untranslated"][0]["reference"] == "你好世界，这是一个测试。"
    assert result["worst_untranslated"][0]["where"].endswith("index.md.po:5")
    assert (po.read_bytes(), po.stat().st_mtime_ns) == before
    assert sorted(p.name for p in po.parent.iterdir()) == ["index.md.po"]


def test_a_site_without_reviewed_entries_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_site(tmp_path, pages={"index.md": "Hello world.\n"})
    rc, _out, err = _eval(capsys, "-f", str(config), "--backend", "pseudo")
    assert rc == 2 and "no references to score" in err
