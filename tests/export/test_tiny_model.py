"""The tiny test model must behave like a real translation model where downstream tests look.

The engine's parity tests, the segmenter's fallback ladder and the plugin's end-to-end tests all
rely on these properties; a model that repeats one token or drops placeholders would make those
tests pass vacuously or fail for the wrong reason.
"""

from __future__ import annotations

import json
import random
import re
import threading
from pathlib import Path
from typing import Any

import pytest

from tests import models
from tools import export_tiny
from tools.export_tiny import heldout_pairs, placeholders_of, pseudo_translate

# --- the synthetic task itself (cheap) ----------------------------------------------------------


def test_task_is_deterministic_and_chinese_like() -> None:
    out = pseudo_translate("Build the site with MkDocs, then open the page.")
    assert out == pseudo_translate("Build the site with MkDocs, then open the page.")
    assert "MkDocs" in out and "，" in out and out.endswith("。")
    assert not re.search(r"[a-z]", out.replace("MkDocs", ""))
    assert pseudo_translate("Build the site.") != pseudo_translate("Build the page.")


def test_task_copies_placeholders_in_order() -> None:
    src = "Run <x1/> to <g1>build the site</g1>, then see <x2/>."
    out = pseudo_translate(src)
    assert placeholders_of(out) == ["<x1/>", "<g1>", "</g1>", "<x2/>"]


def test_task_target_lengths_vary_independently_of_word_count() -> None:
    rng = random.Random(3)
    ratios = set()
    for _ in range(200):
        src, tgt = export_tiny.make_pair(rng, placeholder_rate=0.0)
        ratios.add(round(len(tgt) / max(1, len(src.split())), 1))
    assert len(ratios) > 10


def test_generated_placeholders_are_numbered_from_one_in_reading_order() -> None:
    rng = random.Random(5)
    styles = set()
    for _ in range(300):
        src, _ = export_tiny.make_pair(rng, placeholder_rate=1.0)
        opened = re.findall(r"<x(\d+)/>|<g(\d+)>", src)
        shared = [int(x or g) for x, g in opened]
        atoms = [int(x) for x, g in opened if x]
        pairs = [int(g) for x, g in opened if g]
        if shared == list(range(1, len(shared) + 1)):  # the segmenter's style: one counter
            styles.add("shared")
        else:
            assert atoms == list(range(1, len(atoms) + 1)), src
            assert pairs == list(range(1, len(pairs) + 1)), src
            styles.add("separate")
        for n in pairs:  # every pair is closed after it opens
            assert src.index(f"<g{n}>") < src.index(f"</g{n}>"), src
    assert styles == {"shared", "separate"}


# --- the cache in tests/models.py (cheap) -----------------------------------------------------


def test_cached_dir_builds_once_even_when_asked_concurrently(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("ZH_TRANSLATE_TEST_CACHE", str(tmp_path))
    calls: list[int] = []
    gate = threading.Event()

    def build(target: Path) -> None:
        calls.append(1)
        gate.wait(0.3)  # hold the lock so the other thread must wait for us
        target.mkdir()
        (target / "done").write_text("x")

    results: list[Path] = []
    threads = [threading.Thread(target=lambda: results.append(models._cached_dir("entry", build))) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1
    assert {r.name for r in results} == {"entry"}
    assert (tmp_path / "entry" / "done").read_text() == "x"
    assert not [p for p in tmp_path.iterdir() if ".tmp-" in p.name]


def test_cached_dir_leaves_nothing_behind_when_build_fails(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("ZH_TRANSLATE_TEST_CACHE", str(tmp_path))

    def broken(target: Path) -> None:
        target.mkdir()
        (target / "half").write_text("x")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        models._cached_dir("entry", broken)
    assert not (tmp_path / "entry").exists()
    assert not [p for p in tmp_path.iterdir() if ".tmp-" in p.name]


def test_cached_dir_clears_leftovers_of_a_killed_build(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("ZH_TRANSLATE_TEST_CACHE", str(tmp_path))
    (tmp_path / "entry.tmp-99999").mkdir()
    (tmp_path / "entry.tmp-99999" / "half").write_text("x")
    models._cached_dir("entry", lambda target: target.mkdir())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["entry", "entry.lock"]


def test_cache_key_follows_preset_and_seed() -> None:
    assert models.tiny_hf_key("test", 0) != models.tiny_hf_key("demo", 0)
    assert models.tiny_hf_key("test", 0) != models.tiny_hf_key("test", 1)
    assert models.tiny_hf_key("test", 0) == models.tiny_hf_key("test", 0)


def test_cache_key_follows_the_training_libraries(monkeypatch: Any) -> None:
    # the cache is per user and outlives a virtual environment: a torch upgrade retrains
    import importlib.metadata

    before = models.tiny_hf_key("test", 0)
    real = importlib.metadata.version
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "0.0" if name == "torch" else real(name))
    assert models.tiny_hf_key("test", 0) != before
    assert models.exporter_key("x") != models.exporter_key("y")


def test_the_default_cache_is_the_users_shared_by_every_clone(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.delenv("ZH_TRANSLATE_TEST_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert models.cache_root() == tmp_path / "xdg" / "mkdocs-zh-translate" / "test-models"
    assert (tmp_path / "xdg" / "mkdocs-zh-translate").stat().st_mode & 0o077 == 0  # private
    # a cache directory that is not ours (or cannot be made): the clone's own .cache/
    (tmp_path / "file").write_text("x")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))
    assert models.dev_cache() == models.REPO / ".cache"


def test_a_test_that_moves_xdg_cache_home_keeps_the_models_where_they_are(tmp_path: Path, monkeypatch: Any) -> None:
    # tests/conftest.py fixes the folder for the run; otherwise such a test trains them again
    before = models.cache_root()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert models.cache_root() == before


def test_prune_deletes_entries_unused_for_the_period_and_only_those(tmp_path: Path) -> None:
    import fcntl
    import os
    import time

    now = time.time()
    old = now - (models.UNUSED_DAYS + 1) * 86400
    for name in ("old", "fresh", "busy", "old.tmp-1"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "weights").write_text("x")
    for name in ("old", "busy", "old.tmp-1"):
        os.utime(tmp_path / name, (old, old))
    (tmp_path / "old.lock").touch()
    with open(tmp_path / "busy.lock", "a+") as held:  # another process is building it again
        fcntl.flock(held, fcntl.LOCK_EX)
        assert models.prune(tmp_path, now=now) == ["old"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["busy", "busy.lock", "fresh", "old.lock", "old.tmp-1"]
    assert models.prune(tmp_path, now=now) == ["busy"]


def test_an_entry_used_is_kept_and_a_new_build_prunes_the_unused(tmp_path: Path, monkeypatch: Any) -> None:
    import os
    import time

    monkeypatch.setenv("ZH_TRANSLATE_TEST_CACHE", str(tmp_path))
    old = time.time() - (models.UNUSED_DAYS + 1) * 86400
    for name in ("used", "stale"):
        models._cached_dir(name, lambda target: target.mkdir())
    for name in ("used", "stale"):
        os.utime(tmp_path / name, (old, old))
    models._cached_dir("used", lambda target: pytest.fail("cached: not built again"))
    assert (tmp_path / "used").stat().st_mtime > old + 86400
    models._cached_dir("new", lambda target: target.mkdir())
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_dir()) == ["new", "used"]


def test_cli_refuses_a_non_empty_out_dir(tmp_path: Path, capsys: Any) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    assert export_tiny.main(["--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert str(tmp_path) in err and err[-1] == "\n" and err.count("\n") == 1
    assert (tmp_path / "keep.txt").read_text() == "mine"


def test_unknown_preset_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown preset 'huge'"):
        export_tiny.build_tiny_marian(tmp_path / "m", preset="huge")


@pytest.mark.parametrize(("many_ms", "one_ms", "chosen"), [(60, 100, 2), (1400, 100, 1)])
def test_thread_probe_keeps_the_faster_thread_count(many_ms: float, one_ms: float, chosen: int) -> None:
    """Idle machine: both cores; a busy neighbour (2-thread steps 14x slower, measured): one."""
    torch = pytest.importorskip("torch")
    before = torch.get_num_threads()
    probe = export_tiny._ThreadProbe(2)
    said = []
    try:
        for step in range(export_tiny._ThreadProbe.ONE_UNTIL + 10):
            probe.before(step)
            if step >= export_tiny._ThreadProbe.ONE_UNTIL:
                assert torch.get_num_threads() == chosen
            ms = many_ms if step < export_tiny._ThreadProbe.MANY_UNTIL else one_ms
            said.append(probe.after(step, ms / 1000))
    finally:
        torch.set_num_threads(before)
    assert probe.threads == chosen
    assert [s for s in said if s] == [
        f"training on {chosen} thread(s): a step took {many_ms} ms on several, {one_ms} ms on one"
    ]


def test_a_single_thread_build_never_probes() -> None:
    probe = export_tiny._ThreadProbe(1)
    assert all(probe.after(step, 1.0) is None for step in range(100))
    assert probe.threads == 1


def test_collate_pads_and_shifts_the_decoder_input() -> None:
    torch = pytest.importorskip("torch")
    data = [([5, 6, 0], [7, 8, 9, 0]), ([5, 0], [7, 0])]
    batch = export_tiny._collate(data, [0, 1], pad=3)
    assert batch["input_ids"].tolist() == [[5, 6, 0], [5, 0, 3]]
    assert batch["attention_mask"].tolist() == [[1, 1, 1], [1, 1, 0]]
    assert batch["labels"].tolist() == [[7, 8, 9, 0], [7, 0, -100, -100]]
    assert batch["decoder_input_ids"].tolist() == [[3, 7, 8, 9], [3, 7, 3, 3]]  # starts with pad
    assert all(t.dtype == torch.long for t in batch.values())


@pytest.mark.slow
def test_builds_are_reproducible(tmp_path: Path) -> None:
    """Same preset and seed, same bytes: the cache key may then stand for the model."""
    a = export_tiny.build_tiny_marian(tmp_path / "a", preset="smoke", log=lambda _: None)
    b = export_tiny.build_tiny_marian(tmp_path / "b", preset="smoke", log=lambda _: None)
    for name in ("model.safetensors", "source.spm", "target.spm", "vocab.json"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    c = export_tiny.build_tiny_marian(tmp_path / "c", preset="smoke", seed=1, log=lambda _: None)
    assert (a / "model.safetensors").read_bytes() != (c / "model.safetensors").read_bytes()


@pytest.mark.slow
def test_saved_model_outputs_only_target_pieces_as_training_scored_them(tmp_path: Path) -> None:
    """Training scores the target pieces only; the saved model (what the export reads) must
    give every other piece no probability and the target pieces the distribution trained."""
    import torch
    from transformers import MarianMTModel

    out = export_tiny.build_tiny_marian(tmp_path / "m", preset="smoke", log=lambda _: None)
    tok = export_tiny._load_tokenizer(out)
    model = MarianMTModel.from_pretrained(str(out)).eval()
    targets = {tok.encoder[p] for p in export_tiny._pieces(out / "target.spm")} | {0, 1}
    sources_only = sorted(set(range(len(tok.encoder))) - targets)
    assert len(sources_only) > len(tok.encoder) // 3  # the joint vocabulary: many never output
    rng = random.Random(1)
    data = export_tiny._encode_all(tok, [export_tiny.make_pair(rng, 0.5) for _ in range(8)])
    batch = export_tiny._collate(data, range(8), tok.pad_token_id)
    batch.pop("labels")
    with torch.no_grad():
        full = torch.log_softmax(model(**batch).logits, dim=-1)
    assert float(full[..., sources_only].max()) < -1000
    ids, _ = export_tiny._mask_to_target_pieces(export_tiny._make_model(len(tok.encoder), export_tiny.PRESETS["smoke"]),
                                                tok, out)
    assert sorted(ids.tolist()) == sorted(targets)
    with torch.no_grad():
        hidden = model.model(**batch).last_hidden_state
        scored = torch.log_softmax(hidden @ model.get_output_embeddings().weight[ids].T, dim=-1)
    assert torch.allclose(full[..., ids], scored, atol=1e-4)


# --- the trained model (built once, cached) -----------------------------------------------------


@pytest.fixture(scope="module")
def hf_dir() -> Path:
    return models.tiny_hf_model("test")


@pytest.fixture(scope="module")
def tok(hf_dir: Path) -> Any:
    return export_tiny._load_tokenizer(hf_dir)


@pytest.fixture(scope="module")
def model(hf_dir: Path) -> Any:
    import torch
    from transformers import MarianMTModel

    # One thread: on the shared 2-core machine, 2-thread generate() was 10x slower under load.
    torch.set_num_threads(1)
    return MarianMTModel.from_pretrained(str(hf_dir)).eval()


def _generate(model: Any, tok: Any, texts: list[str], **kwargs: Any) -> Any:
    import torch

    enc = tok(texts, return_tensors="pt", padding=True)
    with torch.no_grad():
        return model.generate(**enc, **kwargs)


@pytest.mark.slow
def test_layout_matches_opus_mt(hf_dir: Path, tok: Any) -> None:
    for name in ("config.json", "generation_config.json", "source.spm", "target.spm", "vocab.json",
                 "tokenizer_config.json", "training.json"):
        assert (hf_dir / name).is_file(), name
    assert list((hf_dir).glob("model.safetensors")) or list(hf_dir.glob("pytorch_model.bin"))
    vocab = json.loads((hf_dir / "vocab.json").read_text(encoding="utf-8"))
    pad = len(vocab) - 1
    assert vocab["</s>"] == 0 and vocab["<unk>"] == 1 and vocab["<pad>"] == pad
    assert sorted(vocab.values()) == list(range(len(vocab)))
    assert (tok.eos_token_id, tok.unk_token_id, tok.pad_token_id) == (0, 1, pad)
    config = json.loads((hf_dir / "config.json").read_text())
    assert config["model_type"] == "marian" and config["vocab_size"] == len(vocab)
    assert config["decoder_start_token_id"] == pad and config["share_encoder_decoder_embeddings"]
    gen = json.loads((hf_dir / "generation_config.json").read_text())
    assert gen["decoder_start_token_id"] == pad and gen["eos_token_id"] == 0
    assert gen["forced_eos_token_id"] == 0 and gen["bad_words_ids"] == [[pad]]
    assert gen["num_beams"] == 4 and gen["max_length"] == config["max_position_embeddings"]


@pytest.mark.slow
@pytest.mark.parametrize(
    "text",
    [
        "<x1/>",
        "Run <x1/> now.",
        "<g1>Note:</g1> see <x2/>.",
        "(<x3/>) and <g2><x4/></g2>",
        "Huge numbers <x17/> <g20>beyond</g20> the learnt symbols.",
        "Unicode: café — 中文 ✓",
        "",
    ],
)
def test_tokenizer_round_trips_placeholders(tok: Any, text: str) -> None:
    ids = tok(text)["input_ids"]
    assert ids[-1] == tok.eos_token_id
    for ph in placeholders_of(text):
        num = int(re.search(r"\d+", ph).group())  # type: ignore[union-attr]
        if num <= export_tiny.MAX_PLACEHOLDER:
            assert ph in tok.convert_ids_to_tokens(ids), ph  # one piece, not spelt out
    if text.isascii():
        assert tok.unk_token_id not in ids
        assert tok.decode(ids, skip_special_tokens=True, use_source_tokenizer=True) == text
    # Every target the task can produce, even for unknown words, must be spelt with known pieces.
    target = pseudo_translate(text)
    target_ids = tok(text_target=target)["input_ids"]
    assert tok.unk_token_id not in target_ids
    assert tok.decode(target_ids, skip_special_tokens=True) == target


@pytest.mark.slow
def test_batch_encoding_gives_the_tokenizers_ids(tok: Any) -> None:
    """The training data is encoded in one SentencePiece call per side, not through ``tok``:
    the ids must be the tokenizer's, also for texts it treats apart (language codes, special
    tokens), which go through ``tok`` itself."""
    rng = random.Random(5)
    pairs = [export_tiny.make_pair(rng, 0.5) for _ in range(300)]
    pairs += [("Unicode: café — 中文 ✓", "中文。"), ("", ""), ("Huge <x17/> <g20>beyond</g20>", "<x17/>")]
    odd = [(">>zho<< Run the build.", "构建。"), ("Ends with </s> here", "<unk>的")]
    for batch in (pairs, [*pairs, *odd]):
        sources, targets = [s for s, _ in batch], [t for _, t in batch]
        want = list(zip(tok(sources)["input_ids"], tok(text_target=targets)["input_ids"]))
        assert export_tiny._encode_all(tok, batch) == want


@pytest.mark.slow
def test_training_report(hf_dir: Path) -> None:
    report = json.loads((hf_dir / "training.json").read_text())
    assert report["loss_last"] < report["loss_first"] / 3
    assert report["heldout_token_accuracy"] > 0.85
    assert report["heldout_exact_match_greedy"] > 0.5


@pytest.mark.slow
def test_outputs_depend_on_input_and_end_with_eos_at_varied_lengths(model: Any, tok: Any) -> None:
    texts = [s for s, _ in heldout_pairs(40, placeholders=False)]
    out = _generate(model, tok, texts, num_beams=1, max_new_tokens=100)
    decoded = tok.batch_decode(out, skip_special_tokens=True)
    assert len(set(decoded)) >= 38
    lengths = set()
    for row in out.tolist():
        assert row[0] == tok.pad_token_id  # decoder start
        assert 0 in row, "every output ends with EOS (forced at the length limit)"
        end = row.index(0)
        assert all(t == tok.pad_token_id for t in row[end + 1 :])
        if end < 100:  # EOS chosen by the model, not forced by the limit
            lengths.add(end)
    # Like real models, greedy search sometimes loops on long odd inputs (2 of 200 here).
    assert sum(1 for row in out.tolist() if row.index(0) < 100) >= 38
    assert len(lengths) >= 8


#: Real MkDocs segments rarely hold more than 6 placeholders (95th percentile, DESIGN.md); the
#: training data goes up to 14 (4 pairs + 6 atoms), and such crowded sentences are harder.
REALISTIC_MAX_PLACEHOLDERS = 6


def realistic_placeholder_pairs(n: int = 100) -> list[tuple[str, str]]:
    """Held-out sentences that all carry placeholders, at most as many as real segments do."""
    pairs = heldout_pairs(4 * n, placeholders=True)
    picked = [p for p in pairs if len(placeholders_of(p[0])) <= REALISTIC_MAX_PLACEHOLDERS][:n]
    assert len(picked) == n
    return picked


#: Observed on the "test" preset, seed 0 (see the report): 0.84 greedy, 0.85 beam 4 on the
#: realistic set; 0.72 (beam 4) on unfiltered held-out sentences with up to 14 placeholders.
PLACEHOLDER_FLOOR = 0.80
CROWDED_PLACEHOLDER_FLOOR = 0.65


@pytest.mark.slow
@pytest.mark.parametrize("beams", [1, 4])
def test_placeholders_survive_translation(model: Any, tok: Any, beams: int) -> None:
    pairs = realistic_placeholder_pairs(100)
    result = export_tiny.evaluate(model, tok, pairs, num_beams=beams)
    assert result["placeholders_kept"] >= PLACEHOLDER_FLOOR, result


@pytest.mark.slow
def test_placeholders_mostly_survive_crowded_sentences(hf_dir: Path) -> None:
    report = json.loads((hf_dir / "training.json").read_text())
    assert report["placeholder_kept_beam4"] >= CROWDED_PLACEHOLDER_FLOOR, report


@pytest.mark.slow
def test_translation_mostly_right_on_heldout(model: Any, tok: Any) -> None:
    pairs = heldout_pairs(100, placeholders=False)
    result = export_tiny.evaluate(model, tok, pairs, num_beams=4)
    assert result["exact_match"] >= 0.7, result


# --- through our real export and engine -------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("quantize", ["none", "int8"])
def test_exported_model_translates_and_keeps_placeholders(quantize: str) -> None:
    from mkdocs_zh_translate.engine import OnnxTranslator

    onnx_dir = models.tiny_onnx_model(quantize)
    assert onnx_dir.name.startswith(f"onnx-{quantize}-test-")
    assert models.tiny_onnx_model(quantize) == onnx_dir  # cached, not rebuilt
    pairs = realistic_placeholder_pairs(100)
    translator = OnnxTranslator(onnx_dir, num_beams=4)
    out = translator.translate([s for s, _ in pairs])
    kept = sum(placeholders_of(o) == placeholders_of(s) for o, (s, _) in zip(out, pairs))
    assert kept >= 100 * PLACEHOLDER_FLOOR, kept
    assert len(set(out)) >= 95
    # Chinese-looking, not echoed English (a few references are only placeholders and names)
    assert sum(bool(re.search(r"[\u4e00-\u9fff]", o)) for o in out) >= 95


#: Shaped like the segmenter's output for real MkDocs pages (one counter for atoms and pairs).
SEGMENTER_STYLE = [
    "Install <g1>MkDocs</g1> now.",
    "Run <x1/> and see <g2>the guide</g2> or <g3>the tutorial</g3> for more help.",
    "Use <x1/> to preview <g2>your</g2> site.",
    "The <x1/> option sets the <g2>default</g2> theme of the <x3/> page.",
    "<g1>Note:</g1> the plugin builds a new site in <x2/>.",
    "Add <x1/> to the <x2/> file, then run <x3/>.",
    "See <g1>the configuration</g1> section and <g2>the plugins</g2> page.",
    "If the <x1/> command returns an error, check the <g2>requirements</g2>.",
    "Each page has a <g1>title</g1>, a <g2>heading</g2> and <x3/> links.",
    "You can <g1>disable</g1> the search <x2/> with <x3/> or <x4/>.",
]


@pytest.mark.slow
def test_segmenter_shaped_sentences_keep_their_placeholders(model: Any, tok: Any) -> None:
    pairs = [(s, pseudo_translate(s)) for s in SEGMENTER_STYLE]
    result = export_tiny.evaluate(model, tok, pairs, num_beams=4)
    assert result["placeholders_kept"] >= 0.8, result


# --- the tag-free model (issue 24: measured like the real opus-mt-en-zh, which never saw tags) ---


@pytest.mark.slow
def test_tagfree_model_spells_placeholders_with_ordinary_pieces_and_translates_plain_text() -> None:
    from mkdocs_zh_translate.engine import OnnxTranslator

    onnx_dir = models.tagfree_onnx_model("none")
    assert onnx_dir.name.startswith("onnx-none-tagfree-")
    translator = OnnxTranslator(onnx_dir, num_beams=4)
    pieces = translator.tokenizer.tokenize("Run <x1/> and <g2>see</g2> it.")
    assert "<x1/>" not in pieces and "<g2>" not in pieces
    assert len([p for p in pieces if p.strip("\u2581") in ("<", "x", "1", "/", "/>", ">", "x1")]) >= 3, pieces
    # ... whereas the model trained with placeholders has each as one piece
    assert "<x1/>" in OnnxTranslator(models.tiny_onnx_model("none")).tokenizer.tokenize("Run <x1/> now.")
    report = json.loads((models.tiny_hf_model(models.TAGFREE) / "training.json").read_text())
    # 0.86 measured (0.83 before it trained on target pieces only): below the test model's 0.90,
    # whose held-out half copies easy placeholders; on the same tag-free sentences both decode
    # 73-74% exactly (tagfree_exact_match_greedy)
    assert report["heldout_token_accuracy"] > 0.8 and report["tagfree_exact_match_greedy"] > 0.6, report
    # it never learnt placeholders: no beam search over sentences full of them is spent on it
    assert report["placeholder_kept_beam4"] is None and report["placeholder_exact_match_beam4"] is None
    pairs = heldout_pairs(60, placeholders=False)
    out = translator.translate([s for s, _ in pairs])
    assert sum(o == t for o, (_, t) in zip(out, pairs)) >= 0.5 * len(pairs)
