"""A model directory is trusted only for the files its manifest lists, and only for values the
engine can use: every file the engine opens is a listed, verified, regular file inside the
directory; every value it reads from the JSON files has the right type and a sane range, and a
wrong one is one line naming the file and the key (exit 2, never a traceback).

Most cases use a hand-made directory that passes every check up to loading its (fake) graphs,
with the manifest re-written by the exporter's own ``write_manifest``: what a user meets after
the manifest check. The tiny exported model (slow) shows the shared-weight cases end to end.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest

from mkdocs_zh_translate.cli.app import main
from mkdocs_zh_translate.export import write_manifest
from mkdocs_zh_translate.model_format import FORMAT_VERSION
from mkdocs_zh_translate.model_integrity import ModelIntegrityError, verify_model

VOCAB = {"<pad>": 0, "</s>": 1, "<unk>": 2, "\u2581hello": 3, "\u2581world": 4, "\u2581the": 5}
DATA = bytes(range(256)) * 4  # the shared weight: 6 rows x 16 int8 ... and some spare bytes


def _settings() -> dict[str, Any]:
    """A generation.json of the exporter's shape for a 6-token model."""
    return {
        "format": FORMAT_VERSION, "model_type": "marian", "vocab_size": 6, "max_position_embeddings": 64,
        "d_model": 16, "decoder_layers": 1, "decoder_attention_heads": 2, "head_dim": 8,
        "decoder_start_token_id": 0, "eos_token_id": 1, "pad_token_id": 0, "forced_eos_token_id": 1,
        "bad_words_ids": [[0]], "max_length": 64, "min_length": 0, "num_beams": 2, "length_penalty": 1.0,
        "early_stopping": False, "renormalize_logits": False, "max_topk": 6, "quantize": "none",
        "tokenizer": {
            "unk_token": "<unk>", "eos_token": "</s>", "pad_token": "<pad>",
            "all_special_tokens": ["</s>", "<unk>", "<pad>"],
            "added_tokens": {"0": {"content": "<pad>", "lstrip": False, "rstrip": False, "single_word": False}},
            "separate_vocabs": False, "clean_up_tokenization_spaces": False,
            "language_codes": [], "target_prefix": None,
        },
        "shared_initializers": [{"name": "embed", "file": "encoder.onnx.data", "offset": 16, "length": 96,
                                 "dtype": "int8", "shape": [6, 16]}],
    }


def _model(root: Path, settings: dict[str, Any] | None = None, vocab: Any = None) -> Path:
    """A model directory whose manifest matches its files; graphs and SentencePiece models are
    stand-ins (the first thing the engine cannot load), everything else is real."""
    model = root / "model"
    model.mkdir(exist_ok=True)
    files = {
        "encoder.onnx": b"not a graph", "decoder.onnx": b"not a graph either",
        "encoder.onnx.data": DATA, "decoder.onnx.data": DATA[:100],
        "source.spm": b"spm", "target.spm": b"spm",
    }
    for name, data in files.items():
        (model / name).write_bytes(data)
    (model / "vocab.json").write_text(json.dumps(VOCAB if vocab is None else vocab), encoding="utf-8")
    _rewrite(model, settings or _settings())
    return model


def _rewrite(model: Path, settings: dict[str, Any]) -> None:
    """Write generation.json and re-manifest the directory, as if exported so."""
    (model / "generation.json").write_text(json.dumps(settings), encoding="utf-8")
    write_manifest(model, source="test", quantize="none")


def _error_of(argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO("Hello world.\n"))
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    return lines[0]


def _set(settings: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """``settings`` with the dotted ``key`` set (``None`` value: removed)."""
    *path, last = key.split(".")
    node: Any = settings
    for part in path:
        node = node[int(part)] if isinstance(node, list) else node[part]
    if value is None:
        del node[last]
    else:
        node[last] = value
    return settings


def test_the_hand_made_model_passes_every_check_up_to_its_graphs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The baseline of every case below: only the stand-in SentencePiece model is refused."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    model = _model(tmp_path)
    line = _error_of(["translate", "--model", str(model)], capsys, monkeypatch)
    assert "cannot load the SentencePiece models" in line  # the tokenizer loads first


# The projection of a shortlist export, located in decoder.onnx.data (100 bytes).
_WEIGHT = {"name": "w", "file": "decoder.onnx.data", "offset": 0, "length": 96, "dtype": "int8", "shape": [16, 6]}
_BIAS = {"name": "b", "file": "decoder.onnx.data", "offset": 0, "length": 24, "dtype": "float32", "shape": [6]}

SETTINGS_CASES = [
    ("max_length", 1e9, "max_length must be an integer from 1 to 65536, got 1000000000.0"),
    ("max_length", 10**9, "max_length must be an integer from 1 to 65536"),
    ("vocab_size", -1, "vocab_size must be an integer from 1 to"),
    ("vocab_size", None, "vocab_size is missing"),
    ("max_position_embeddings", 1e9, "max_position_embeddings must be an integer"),
    ("eos_token_id", 1.0, "eos_token_id must be an integer from 0 to 5, got 1.0"),
    ("pad_token_id", 6, "pad_token_id must be an integer from 0 to 5, got 6"),
    ("forced_eos_token_id", "1", "forced_eos_token_id must be an integer"),
    ("num_beams", True, "num_beams must be an integer from 1 to 256, got true"),
    ("min_length", -1, "min_length must be an integer from 0 to 64"),
    ("decoder_layers", 0, "decoder_layers must be an integer from 1"),
    ("head_dim", 2.5, "head_dim must be an integer"),
    ("max_topk", 7, "max_topk must be an integer from 1 to 6"),
    ("length_penalty", "1", "length_penalty must be a number"),
    ("length_penalty", 1e300, "length_penalty must be a number from -100 to 100"),
    ("early_stopping", "sometimes", 'early_stopping must be true, false or "never"'),
    ("renormalize_logits", 1, "renormalize_logits must be true or false, got 1"),
    ("bad_words_ids", [[-1]], r"bad_words_ids[0][0] must be an integer from 0 to 5"),
    ("bad_words_ids", {"a": 1}, "bad_words_ids must be a list"),
    ("tokenizer", [], "tokenizer must be an object"),
    ("tokenizer.unk_token", 5, "tokenizer.unk_token must be a non-empty string, got 5"),
    ("tokenizer.all_special_tokens", "</s>", "tokenizer.all_special_tokens must be a list"),
    ("tokenizer.separate_vocabs", True, "tokenizer.separate_vocabs must be false when manifest.json lists no"),
    ("tokenizer.added_tokens.0.lstrip", "no", 'tokenizer.added_tokens."0".lstrip must be true or false'),
    ("shared_initializers", "encoder.onnx.data", "shared_initializers must be a list"),
    ("shared_initializers.0.offset", -1, "shared_initializers[0].offset must be an integer from 0 to 1024"),
    ("shared_initializers.0.offset", 1000, "shared_initializers[0].length must be an integer from 0 to 24"),
    ("shared_initializers.0.length", 95, "shared_initializers[0].length must be 96 (the shape's size in bytes)"),
    ("shared_initializers.0.shape", [6, -16], r"shared_initializers[0].shape[1] must be an integer from 1"),
    ("shared_initializers.0.dtype", "object", "shared_initializers[0].dtype must be one of float32"),
    ("shortlist", [], "shortlist must be an object"),
    ("shortlist", {"bias": _BIAS}, 'shortlist must be weight, maybe bias (and scale and zero_point for int8), got ["bias"]'),
    ("shortlist", {"weight": _WEIGHT, "scale": _BIAS},
     'shortlist must be weight, maybe bias (and scale and zero_point for int8), got ["scale", "weight"]'),
    ("shortlist", {"weight": dict(_WEIGHT, shape=[6, 16]), "bias": _BIAS}, "shortlist.weight.shape must be [d_model, 6]"),
    ("shortlist", {"weight": _WEIGHT, "bias": dict(_BIAS, offset=90)}, "shortlist.bias.length must be an integer from 0 to 10"),
]


@pytest.mark.parametrize(("key", "value", "message"), SETTINGS_CASES, ids=[f"{k}={v!r}" for k, v, _ in SETTINGS_CASES])
def test_a_wrong_setting_is_one_line_naming_the_file_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    key: str, value: Any, message: str,
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    model = _model(tmp_path, _set(_settings(), key, value))
    for argv in (["translate", "--model", str(model)], ["md", str(model / "vocab.json"), "--model", str(model)]):
        line = _error_of(argv, capsys, monkeypatch)
        assert f"{model / 'generation.json'}: {message}" in line, line
        assert "re-create" in line


def test_an_edit_without_a_new_manifest_meets_the_manifest_check_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Edited but not re-manifested: the manifest check comes first, as a user meets it."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    model = _model(tmp_path)
    (model / "generation.json").write_text(json.dumps(_set(_settings(), "max_length", 1e9)), encoding="utf-8")
    line = _error_of(["translate", "--model", str(model)], capsys, monkeypatch)
    assert "generation.json: changed since export" in line


VOCAB_CASES = [
    (["<pad>", "</s>", "<unk>"], "the top level must be an object, got [\"<pad>\""),
    (dict(VOCAB, **{"\u2581the": -1}), 'the id of "\\u2581the" must be an integer from 0 to 5, got -1'),
    (dict(VOCAB, **{"\u2581the": 6}), 'the id of "\\u2581the" must be an integer from 0 to 5, got 6'),
    (dict(VOCAB, **{"\u2581the": 5.0}), 'the id of "\\u2581the" must be an integer from 0 to 5, got 5.0'),
    ({k: v for k, v in VOCAB.items() if k != "</s>"}, "has no '</s>' entry"),
]


@pytest.mark.parametrize(("vocab", "message"), VOCAB_CASES, ids=["list", "negative", "too-large", "float", "no-eos"])
def test_a_wrong_vocab_json_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, vocab: Any, message: str
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    model = _model(tmp_path, vocab=vocab)
    line = _error_of(["translate", "--model", str(model)], capsys, monkeypatch)
    assert f"{model / 'vocab.json'}: {message}" in line, line


def test_a_build_names_the_wrong_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          caplog: pytest.LogCaptureFixture) -> None:
    from mkdocs.exceptions import Abort

    from tests.plugin_sites import build_in_process, write_site

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    model = _model(tmp_path, _set(_settings(), "max_length", 1e9))
    config = write_site(tmp_path / "site", plugin={"backend": "onnx", "model": str(model)})
    with caplog.at_level("WARNING"), pytest.raises(Abort):
        build_in_process(config)
    said = [r.getMessage() for r in caplog.records if "generation.json" in r.getMessage()]
    assert said and all("max_length must be an integer from 1 to 65536, got 1000000000.0" in m for m in said)
    assert all("\n" not in m for m in said)


# --- item: only listed files, only inside the directory -----------------------------------------

SHARED_FILES = ["/dev/zero", "../../outside.data", "copy.data", "encoder.onnx.data/../decoder.onnx.data", 7]


@pytest.mark.parametrize("name", SHARED_FILES, ids=["dev-zero", "parent", "unlisted-copy", "dotdot", "number"])
def test_a_shared_weight_may_only_come_from_a_listed_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: Any
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    (tmp_path / "outside.data").write_bytes(DATA)
    model = _model(tmp_path)
    (model / "copy.data").write_bytes(DATA)  # in the directory, but not in the manifest
    settings = _set(_settings(), "shared_initializers.0.file", name)
    (model / "generation.json").write_text(json.dumps(settings), encoding="utf-8")
    manifest = json.loads((model / "manifest.json").read_text(encoding="utf-8"))
    data = (model / "generation.json").read_bytes()  # re-hash only the edit: copy.data stays unlisted
    manifest["files"]["generation.json"] = {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
    (model / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    line = _error_of(["translate", "--model", str(model)], capsys, monkeypatch)
    assert f"generation.json: shared_initializers[0].file must be a file that manifest.json lists, got {json.dumps(name)}" \
        in line, line


def test_a_listed_file_linked_to_an_outside_copy_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Same bytes, so the hash matches: but the outside copy can change behind the key."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    model = _model(tmp_path)
    outside = tmp_path / "elsewhere" / "vocab.json"
    outside.parent.mkdir()
    shutil.copyfile(model / "vocab.json", outside)
    (model / "vocab.json").unlink()
    (model / "vocab.json").symlink_to(outside)
    write_manifest(model, source="test", quantize="none")  # lists the link with the copy's hash
    manifest = json.loads((model / "manifest.json").read_text(encoding="utf-8"))
    with pytest.raises(ModelIntegrityError, match=r"vocab\.json: a symbolic link to outside the model directory"):
        verify_model(model, manifest)
    # A link that stays inside the directory is the same file as its target: accepted.
    (model / "vocab.json").unlink()
    shutil.copyfile(outside, model / "vocab-real.json")
    (model / "vocab.json").symlink_to("vocab-real.json")
    write_manifest(model, source="test", quantize="none")
    verify_model(model, json.loads((model / "manifest.json").read_text(encoding="utf-8")))


def test_a_listed_device_or_pipe_is_refused_without_reading_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """/dev/zero (size 0, like the empty file it claims to be) was read forever; a FIFO blocked
    the open. Both must be refused at once."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    model = _model(tmp_path)
    (model / "empty.txt").write_bytes(b"")
    write_manifest(model, source="test", quantize="none")
    manifest = json.loads((model / "manifest.json").read_text(encoding="utf-8"))
    (model / "empty.txt").unlink()
    os.mkfifo(model / "empty.txt")
    outcome: list[BaseException | None] = []

    def check() -> None:
        try:
            verify_model(model, manifest)
            outcome.append(None)
        except BaseException as exc:
            outcome.append(exc)

    thread = threading.Thread(target=check, daemon=True)
    thread.start()
    thread.join(10)
    try:
        assert outcome, "verify_model blocked on a FIFO"
        assert isinstance(outcome[0], ModelIntegrityError) and "empty.txt: not a regular file" in str(outcome[0])
    finally:
        if thread.is_alive():  # unblock the open on the old code: a writer arrives and leaves
            os.close(os.open(model / "empty.txt", os.O_WRONLY | os.O_NONBLOCK))
            thread.join(10)


def test_the_graphs_data_files_must_be_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """ONNX Runtime opens ``<graph>.data``: a manifest without it leaves the weights unverified."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    model = _model(tmp_path, _set(_settings(), "shared_initializers", []))
    manifest = json.loads((model / "manifest.json").read_text(encoding="utf-8"))
    del manifest["files"]["decoder.onnx.data"]
    (model / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    line = _error_of(["translate", "--model", str(model)], capsys, monkeypatch)
    assert "manifest.json: does not cover decoder.onnx.data" in line, line


# --- the real exported model ---------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("where", ["/dev/zero", "outside", "symlink"])
def test_the_exported_model_maps_no_file_outside_its_manifest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """The issue's cases on the tiny int8 export: each was mapped and used, the manifest check
    passed and the cache key stayed the same."""
    from mkdocs_zh_translate.engine import EngineError, OnnxTranslator
    from tests.models import tiny_onnx_model

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    model = tmp_path / "m"
    shutil.copytree(tiny_onnx_model("int8"), model)
    settings = json.loads((model / "generation.json").read_text(encoding="utf-8"))
    entry = settings["shared_initializers"][0]
    shutil.copyfile(model / entry["file"], tmp_path / "outside.data")
    if where == "symlink":  # vocab.json becomes a link to an outside copy (ONNX Runtime itself
        shutil.copyfile(model / "vocab.json", tmp_path / "vocab.json")  # refuses such a link
        (model / "vocab.json").unlink()  # for a graph's data file, the tokenizer did not)
        (model / "vocab.json").symlink_to(tmp_path / "vocab.json")
        match = r"vocab\.json: a symbolic link to outside the model directory"
    else:
        entry["file"] = "/dev/zero" if where == "/dev/zero" else "../outside.data"
        match = r"generation\.json: shared_initializers\[0\]\.file must be a file that manifest\.json lists"
    _rewrite(model, settings)  # re-manifested: every listed file matches its hash
    with pytest.raises(EngineError, match=match):
        OnnxTranslator(model)
