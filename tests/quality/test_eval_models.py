"""``eval --compare model=DIR model=DIR``: two exported models on the same references, as the
guide's "Choosing a model" page tells a team to compare candidates."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from tests import models

EXAMPLE_TSV = Path(__file__).resolve().parents[2] / "example_site" / "eval.tsv"


def _runs(capsys: pytest.CaptureFixture[str], *compare: str) -> list[dict[str, object]]:
    capsys.readouterr()
    rc = cli_main(["eval", "--references", str(EXAMPLE_TSV), "--limit", "12", "--json", "--compare", *compare])
    out = capsys.readouterr()
    assert rc == 0, out.err
    runs = json.loads(out.out)["runs"]
    assert isinstance(runs, list)
    return runs


def test_two_model_directories_side_by_side(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The guide's command, with a tiny MarianMT and a tiny NLLB-200 model under the names it
    uses: each column is its own model (its own directory loaded, its own scores), titled by
    the directory's name."""
    from tests.models_families import family_onnx_model

    shutil.copytree(models.tiny_onnx_model("int8"), tmp_path / "models" / "opus-mt-en-zh")
    shutil.copytree(family_onnx_model("nllb", "int8"), tmp_path / "models" / "nllb-600m")
    monkeypatch.chdir(tmp_path)
    first, second = _runs(capsys, "model=models/opus-mt-en-zh", "model=models/nllb-600m")
    assert (first["label"], second["label"]) == ("model=opus-mt-en-zh", "model=nllb-600m")
    settings = [run["settings"] for run in (first, second)]
    assert [Path(str(s["model"])).name for s in settings] == ["opus-mt-en-zh", "nllb-600m"]  # type: ignore[index]
    assert first["sentences"] == second["sentences"] == 12
    assert (first["chrf"], first["bleu"]) != (second["chrf"], second["bleu"])  # two models, two results


def test_directories_with_the_same_name_are_told_apart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``model=models/a/int8 model=models/b/int8``: titled by the settings as typed, not twice
    ``model=int8``."""
    shutil.copytree(models.tiny_onnx_model("int8"), tmp_path / "models" / "a" / "int8")
    shutil.copytree(models.tiny_onnx_model("int8"), tmp_path / "models" / "b" / "int8")
    monkeypatch.chdir(tmp_path)
    first, second = _runs(capsys, "model=models/a/int8", "model=models/b/int8")
    assert (first["label"], second["label"]) == ("model=models/a/int8", "model=models/b/int8")
