"""``export`` says what it will download, read and write before it starts (one line).

The Hub is faked at its API boundary (``HfApi.model_info`` answering with the library's own
``ModelInfo``, built from the fields the Hub's JSON has; ``snapshot_download`` recording its
call): nothing here reaches the network. Local directories are real ``save_pretrained`` outputs
of tiny random models of each family, counted with the safetensors library itself.
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from mkdocs_zh_translate.cli.app import main
from mkdocs_zh_translate.export.plan import plan_export

REPO_ID = "Helsinki-NLP/opus-mt-en-zh"
SHA = "0123456789abcdef0123456789abcdef01234567"

#: A repository like opus-mt-en-zh's: weights in four formats, a README, the tokenizer files.
SIBLINGS = {
    ".gitattributes": 1_477,
    "README.md": 2_340,
    "config.json": 1_394,
    "generation_config.json": 293,
    "metadata.json": 1_016,
    "model.safetensors": 311_000_000,
    "pytorch_model.bin": 312_000_000,
    "tf_model.h5": 312_100_000,
    "rust_model.ot": 312_200_000,
    "flax_model.msgpack": 312_300_000,
    "source.spm": 806_530,
    "target.spm": 804_677,
    "tokenizer_config.json": 44,
    "vocab.json": 1_617_902,
}
#: What the export needs of it: config, tokenizer files, weights (not TF, Rust, Flax or the README).
FETCHED = {"config.json", "generation_config.json", "metadata.json", "model.safetensors", "pytorch_model.bin",
           "source.spm", "target.spm", "tokenizer_config.json", "vocab.json"}
PARAMETERS = 77_943_296


def _model_info(siblings: dict[str, int], parameters: int | None) -> Any:
    from huggingface_hub.hf_api import ModelInfo

    data: dict[str, Any] = {"id": REPO_ID, "sha": SHA,
                            "siblings": [{"rfilename": name, "size": size} for name, size in siblings.items()]}
    if parameters is not None:
        data["safetensors"] = {"parameters": {"F32": parameters}, "total": parameters}
    return ModelInfo(**data)


@pytest.fixture
def fake_hub(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, Any]:
    """The Hub answering ``model_info`` for :data:`REPO_ID`, an empty Hugging Face cache in
    ``tmp_path``, and a ``snapshot_download`` that prints a marker, records its patterns and
    fails as without network."""
    import huggingface_hub
    from huggingface_hub import constants
    from huggingface_hub import errors as hf_errors

    state: dict[str, Any] = {"siblings": dict(SIBLINGS), "parameters": PARAMETERS, "info_calls": []}

    def model_info(self: Any, repo_id: str, **kwargs: Any) -> Any:
        state["info_calls"].append((repo_id, kwargs))
        if repo_id != REPO_ID:
            raise hf_errors.RepositoryNotFoundError(f"{repo_id} not found")
        return _model_info(state["siblings"], state["parameters"])

    def snapshot_download(repo_id: str, **kwargs: Any) -> str:
        print("DOWNLOAD STARTS", file=sys.stderr)
        state["allow_patterns"] = kwargs.get("allow_patterns")
        raise hf_errors.LocalEntryNotFoundError("no network here")

    cache = tmp_path / "hf-cache"
    cache.mkdir()
    monkeypatch.setattr(huggingface_hub.HfApi, "model_info", model_info)
    monkeypatch.setattr(huggingface_hub, "snapshot_download", snapshot_download)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(cache))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    state["cache"] = cache
    return state


def _plan_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.startswith("mkdocs-zh-translate: export: ")]
    assert len(lines) == 1, err
    return lines[0]


def test_hub_export_prints_what_it_downloads_and_writes_before_downloading(
        fake_hub: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["export", REPO_ID, "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2  # the faked download fails; the line came first
    line = _plan_line(err)
    assert err.index(line) < err.index("DOWNLOAD STARTS")
    # one call for file metadata (sizes), nothing else before the download
    assert [(repo, kw.get("files_metadata")) for repo, kw in fake_hub["info_calls"]] == [(REPO_ID, True)]
    total = sum(size for name, size in SIBLINGS.items() if name in FETCHED)
    assert f"downloads {total / 1e6:.1f} MB" in line
    assert "model.safetensors 311.0 MB" in line and "pytorch_model.bin 312.0 MB" in line
    assert "tf_model.h5" not in line and "rust_model" not in line and "flax" not in line
    assert f"{len(FETCHED) - 2} other files" in line
    assert f"{PARAMETERS / 1e6:.1f} million parameters" in line and "about" not in line.split("parameters")[0]
    chosen = re.search(r"writes about ([\d.]+) MB as (int8) \(", line)
    assert chosen, line  # the chosen quantisation first, the others in brackets
    sizes = {q: float(v) for q, v in re.findall(r"(fp16|fp32) ([\d.]+) MB", line.split("parameters")[1])}
    sizes["int8"] = float(chosen.group(1))
    assert set(sizes) == {"int8", "fp16", "fp32"}, line
    # an int8 export is smaller than the download; fp16 between; fp32 about twice the weights
    assert sizes["int8"] < sizes["fp16"] < sizes["fp32"]
    assert 1.7 * PARAMETERS * 4 / 1e6 < sizes["fp32"] < 2.5 * PARAMETERS * 4 / 1e6
    assert 1.7 * PARAMETERS / 1e6 < sizes["int8"] < 2.5 * PARAMETERS / 1e6


def test_the_listed_files_are_the_ones_the_download_fetches(
        fake_hub: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from huggingface_hub.utils import filter_repo_objects

    main(["export", REPO_ID, "--out", str(tmp_path / "out")])
    line = _plan_line(capsys.readouterr().err)
    fetched = set(filter_repo_objects(list(SIBLINGS), allow_patterns=fake_hub["allow_patterns"]))
    assert fetched == FETCHED
    assert f"downloads {sum(SIBLINGS[n] for n in fetched) / 1e6:.1f} MB" in line


def test_files_already_in_the_hugging_face_cache_are_not_counted_as_downloads(
        fake_hub: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    snapshot = fake_hub["cache"] / "models--Helsinki-NLP--opus-mt-en-zh" / "snapshots" / SHA
    snapshot.mkdir(parents=True)
    (snapshot / "model.safetensors").write_bytes(b"cached")
    main(["export", REPO_ID, "--out", str(tmp_path / "out")])
    line = _plan_line(capsys.readouterr().err)
    total = sum(size for name, size in SIBLINGS.items() if name in FETCHED)
    assert f"downloads {(total - SIBLINGS['model.safetensors']) / 1e6:.1f} MB" in line
    assert "311.0 MB of it already in the Hugging Face cache" in line


def test_without_safetensors_metadata_parameters_are_estimated_from_the_weights(
        fake_hub: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fake_hub["siblings"].pop("model.safetensors")
    fake_hub["parameters"] = None
    main(["export", REPO_ID, "--out", str(tmp_path / "out")])
    line = _plan_line(capsys.readouterr().err)
    assert f"about {SIBLINGS['pytorch_model.bin'] / 4 / 1e6:.1f} million parameters" in line
    assert "model.safetensors" not in line


def test_file_names_from_the_hub_reach_the_terminal_escaped(
        fake_hub: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fake_hub["siblings"]["evil\x1b[2J\u202e.safetensors"] = 5_000_000
    main(["export", REPO_ID, "--out", str(tmp_path / "out")])
    line = _plan_line(capsys.readouterr().err)
    assert "\x1b" not in line and "\u202e" not in line
    assert "evil\\x1b[2J\\u202e.safetensors" in line


def test_an_unknown_id_prints_no_plan_and_the_export_error(
        fake_hub: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["export", "nobody-here/no-such-model", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and "export: " not in err.split("error:")[0]
    assert err.count("\n") == 2 and "DOWNLOAD STARTS" in err  # the export's own one-line error follows


# --- local directories: real save_pretrained outputs of each family ------------------------------
def _tiny_checkpoint(family: str, out: Path, *, safetensors: bool = True) -> Path:
    """A random tiny model of ``family``'s architecture, saved as transformers saves it."""
    import torch
    from transformers import M2M100Config, M2M100ForConditionalGeneration, MarianConfig, MarianMTModel

    torch.manual_seed(0)
    shape = dict(d_model=32, encoder_layers=2, decoder_layers=2, encoder_attention_heads=2,
                 decoder_attention_heads=2, encoder_ffn_dim=64, decoder_ffn_dim=64, max_position_embeddings=64)
    model: Any
    if family == "marian":
        model = MarianMTModel(MarianConfig(vocab_size=301, pad_token_id=300, decoder_start_token_id=300, **shape))
    else:
        model = M2M100ForConditionalGeneration(M2M100Config(vocab_size=517 if family == "nllb" else 333, **shape))
    model.save_pretrained(out, safe_serialization=safetensors)
    (out / "vocab.json").write_text(json.dumps({"a": 0}))
    (out / "notes.md").write_text("not read by the export")
    return out


@pytest.mark.parametrize("family", ["marian", "m2m100", "nllb"])
def test_a_local_directory_prints_what_it_reads_and_the_parameters(
        family: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from safetensors import safe_open

    import mkdocs_zh_translate.export as export_pkg

    src = _tiny_checkpoint(family, tmp_path / family)
    calls: list[str] = []

    def export_model(model: str, out: Path, quantize: str = "int8") -> Path:
        calls.append(capsys.readouterr().err)  # what was printed before the export began
        return out

    monkeypatch.setattr(export_pkg.dispatch, "export_model", export_model)  # what `export` calls (seq2seq)
    assert main(["export", str(src), "--out", str(tmp_path / "out"), "--quantize", "none"]) == 0
    line = _plan_line(calls[0])
    read = [p for p in src.iterdir() if p.name != "notes.md"]
    assert f"reads {sum(p.stat().st_size for p in read) / 1e3:.1f} kB" in line
    assert f"{len(read) - 1} other files" in line
    with safe_open(src / "model.safetensors", "np") as handle:
        count = sum(math.prod(handle.get_slice(k).get_shape()) for k in handle.keys())  # noqa: SIM118 - not a dict
    assert f"{count / 1e6:.1f} million parameters" in line or f"{count:,} parameters" in line
    assert "as fp32" in line


def test_a_pytorch_bin_directory_estimates_parameters_from_its_size(tmp_path: Path) -> None:
    src = _tiny_checkpoint("m2m100", tmp_path / "bin", safetensors=False)
    plan = plan_export(str(src))
    assert plan is not None and not plan.exact and plan.parameters is not None
    import torch

    state = torch.load(src / "pytorch_model.bin", map_location="cpu", weights_only=True)
    unique = {t.data_ptr(): t.numel() for t in state.values()}
    assert abs(plan.parameters - sum(unique.values())) / sum(unique.values()) < 0.02
    assert "about " in plan.line("int8")


def test_the_plan_is_offline_from_the_hugging_face_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from huggingface_hub import constants

    cache = tmp_path / "hf-cache"
    repo = cache / "models--someone--tiny-m2m100"
    _tiny_checkpoint("m2m100", repo / "snapshots" / SHA)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(SHA)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(cache))
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    plan = plan_export("someone/tiny-m2m100")
    assert plan is not None and not plan.local and plan.cached == plan.total > 0
    assert "all of it already in the Hugging Face cache" in plan.line("int8")


@pytest.mark.parametrize("family", ["marian", "m2m100", "nllb"])
def test_estimates_match_the_real_exports_of_the_tiny_models(family: str) -> None:
    """The output estimate against what ``export`` wrote for each family's tiny test model: fp32
    within 15% (int8 within 25% for Marian; at this tiny shape the int8 graphs' unquantised
    small tensors weigh more than at the real shapes, where int8 is within 10%, see the guide)."""
    from tests.models import tiny_hf_model, tiny_onnx_model
    from tests.models_families import family_hf_model, family_onnx_model

    hf = tiny_hf_model() if family == "marian" else family_hf_model(family)
    plan = plan_export(str(hf))
    assert plan is not None
    checks = {"none": 0.15, "int8": 0.25} if family == "marian" else {"none": 0.15}
    for quantize, tolerance in checks.items():
        out = tiny_onnx_model(quantize) if family == "marian" else family_onnx_model(family, quantize)
        written = sum(p.stat().st_size for p in out.iterdir() if p.name != "manifest.json")
        estimate = plan.output_bytes(quantize)
        assert estimate is not None and abs(estimate - written) / written < tolerance, (quantize, estimate, written)
