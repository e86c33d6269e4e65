"""``eval`` with the tiny model on the example TSV (the synthetic task's known right answers)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from tests import models

EXAMPLE_TSV = Path(__file__).resolve().parents[2] / "example_site" / "eval.tsv"


def test_the_example_tsv_is_what_the_generator_makes() -> None:
    """The references are the synthetic task's right answers only while the trainer's task is
    the one they were made from: a change to it must regenerate the file."""
    from tools.eval_set import rows

    lines = [line for line in EXAMPLE_TSV.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    assert lines == [f"{english}\t{reference}" for english, reference in rows(len(lines))]


@pytest.mark.slow
def test_the_tiny_model_scores_the_example_tsv_and_compares_strategies(capsys: pytest.CaptureFixture[str]) -> None:
    model = models.tiny_onnx_model("int8")
    capsys.readouterr()
    rc = cli_main(["eval", "--references", str(EXAMPLE_TSV), "--model", str(model), "--limit", "40", "--json",
                   "--compare", "markup=tags", "markup=project"])
    out = capsys.readouterr().out
    assert rc == 0
    tags, project = json.loads(out)["runs"]
    assert tags["sentences"] == project["sentences"] == 40
    # a model that learnt the task: far above a wrong translation, and the strategy without
    # placeholders in the model's input translates every sentence whole
    assert tags["chrf"] > 60 and project["chrf"] > 60
    assert project["pieces"] == 0 and project["placeholder_errors"] == 0
    assert tags["whole"] + tags["pieces"] + tags["english"] == 40
