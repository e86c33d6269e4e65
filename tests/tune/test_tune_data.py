"""What a tuning run learns from and is validated on (no torch): whole PO files held out, no
near-duplicate on both sides, the same split for the same seed, replay without the forms the
reviewers replaced."""

from __future__ import annotations

from pathlib import Path

import pytest

from mkdocs_zh_translate.tune import data
from mkdocs_zh_translate.tune.data import Pair
from tests.tune import domain


def _pairs(entries: list[domain.Entry]) -> list[Pair]:
    return data.pairs_of(domain.references(entries))


def test_held_out_by_whole_po_file_without_near_duplicate_leaks() -> None:
    pairs = _pairs(domain.reviewed_entries(200, pages=10))
    # a near-duplicate of a sentence on another page: case and punctuation differ only
    twin = Pair("docs/page1.po:999", pairs[0].source.upper().rstrip(".") + "!", pairs[0].target)
    split = data.split([*pairs, twin], held_out=0.2, seed=0)
    assert split.by == "file"
    held_files = {data.group_of(p) for p in split.held_out}
    assert not held_files & {data.group_of(p) for p in split.train}
    assert 30 <= len(split.held_out) <= 60
    held = {data.near_key(p.source) for p in split.held_out}
    assert not held & {data.near_key(p.source) for p in split.train}
    assert len(split.train) + len(split.held_out) + split.dropped == len(pairs) + 1
    again = data.split([*pairs, twin], held_out=0.2, seed=0)
    assert again.held_out == split.held_out
    assert data.split([*pairs, twin], held_out=0.2, seed=1).held_out != split.held_out


def test_one_po_file_is_split_by_near_duplicate_cluster() -> None:
    pairs = [Pair("docs/index.po:1", f"Install the plugin {n}.", "x") for n in range(10)]
    pairs += [Pair("docs/index.po:2", f"Open page number {w}.", "y") for w in "abcdefghij"]
    split = data.split(pairs, held_out=0.3, seed=0)
    assert split.by == "near-duplicate"
    # the ten "Install the plugin N." differ in a digit only: one cluster, all on one side
    sides = {p in split.held_out for p in pairs[:10]}
    assert len(sides) == 1


def test_glossary_terms_train_and_never_validate() -> None:
    pairs = _pairs(domain.reviewed_entries(50, pages=5))
    terms = data.glossary_pairs([("MkDocs", None), ("plugin", "插件")])
    split = data.split(pairs, terms, held_out=0.2)
    assert split.terms == 2
    assert Pair("glossary.yml", "MkDocs", "MkDocs") in split.train
    assert all(p.where != "glossary.yml" for p in split.held_out)


def test_replay_leaves_out_the_forms_the_reviewers_replaced() -> None:
    from tools.export_tiny import pseudo_translate, word_chunk

    entries = domain.reviewed_entries(120)
    sources = [e.source for e in entries]
    model = [pseudo_translate(s) for s in sources]  # what the base model writes
    forms = data.rejected_forms(model, [e.reference for e in entries])
    assert {word_chunk(w) for w in domain.TERMS} <= forms
    plugin = word_chunk("plugin")
    others = ["Open the plugin folder.", "Open the page folder."]
    replay = data.replay_pairs(others, [pseudo_translate(s) for s in others], forms)
    assert [p.source for p in replay] == ["Open the page folder."]
    assert not any(plugin in p.target for p in replay)


def test_replay_takes_none_of_the_reviewed_or_held_out_english() -> None:
    pairs = _pairs(domain.reviewed_entries(60, pages=6))
    split = data.split(pairs, held_out=0.2)
    others = [p.source.lower() for p in pairs] + ["A new sentence.", "Another one."]
    chosen = data.replay_sources(others, split, 10)
    assert sorted(chosen) == ["A new sentence.", "Another one."]


def test_tune_command_refuses_bad_numbers_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from mkdocs_zh_translate.cli.app import main

    assert main(["tune", "--out", "x", "--held-out", "1.5"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "mkdocs-zh-translate: error: --held-out 1.5: a share between 0 and 1"
    assert main(["tune", "--out", "x", "--lr", "nan"]) == 2
    assert "--lr nan: a number, 0 or more" in capsys.readouterr().err


def test_eval_held_out_scores_only_what_the_tuned_model_never_trained_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from mkdocs_zh_translate.cli.app import main

    tsv = tmp_path / "refs.tsv"
    tsv.write_text("Open the file.\t打开文件。\nSave the page.\t保存页面。\nClose the site.\t关闭站点。\n", encoding="utf-8")
    tuned = tmp_path / "tuned"
    tuned.mkdir()
    held = [data.source_digest("Open the file."), data.source_digest("Close the site.")]
    (tuned / "tune.json").write_text(json.dumps({"entries": {"held_out_sources": held}}), encoding="utf-8")
    assert main(["eval", "--references", str(tsv), "--held-out", str(tuned), "--backend", "pseudo", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["references"]["count"] == 2
    assert main(["eval", "--references", str(tsv), "--held-out", str(tuned), "--backend", "pseudo",
                 "--compare", "beams=1", "beams=2"]) == 0
    assert "gain (beams=2 over beams=1): chrF +0.0" in capsys.readouterr().out
    assert main(["eval", "--references", str(tsv), "--held-out", str(tmp_path), "--backend", "pseudo"]) == 2
    assert "no tuning record" in capsys.readouterr().err
