"""Tuning on reviews, measured on the tiny model's task with a synthetic domain shift.

The team's reviewers spell five terms and one phrasing their own way (``tests/tune/domain.py``)
in 200 reviewed entries over 10 PO files. ``tune`` (the real ``tune.run.tune``: split by PO file,
replay of the base's translations of 960 other sentences of the site, early stopping on the
held-out chrF, the guards, the int8 export) tunes the tiny test model on them; then the base and
the tuned *exports* are measured through the engine (beam search, the build's path, no cache):

* ``terms``: of the term and phrasing occurrences in the held-out reviewed sentences, the share
  written the reviewers' way;
* ``chrF held-out reviews``: sacrebleu chrF on the held-out reviewed entries (never trained on);
* ``chrF general``: on the task's own held-out sentences without the team's terms (the base
  model's domain; its references are the task's, so a forgotten word costs chrF there).

Then the same run on shuffled references (every reviewed English paired with another entry's
Chinese: data that cannot help), which the guard must refuse; and ``--step-time``: seconds per
training step of a random-weight model of opus-mt-en-zh's real shape (65001 pieces, d_model 512,
6+6 layers, 8 heads, ffn 2048), batch 16, ~32 source / ~40 target tokens, on the CPU::

    export PYTHONPATH=$PWD
    python benchmarks/tune.py --out /tmp/tuned
    python benchmarks/tune.py --step-time
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

from mkdocs_zh_translate.pipeline.backends import load_translator
from mkdocs_zh_translate.pipeline.build import GIVEN_TRANSLATOR, SiteInputs, build_pipeline
from mkdocs_zh_translate.pipeline.service import Requests
from mkdocs_zh_translate.quality.metrics import corpus_scores, plain
from mkdocs_zh_translate.tune import TuneRefused
from mkdocs_zh_translate.tune import data as tdata
from mkdocs_zh_translate.tune.run import Request, tune
from mkdocs_zh_translate.tune.train import Settings
from tests.models import tiny_hf_model, tiny_onnx_model
from tests.tune import domain

#: The settings of the measured run (the tiny model learns at a higher rate than a real one).
SETTINGS = Settings(steps=600, batch=32, lr=5e-4, eval_every=100, patience=3, threads=1, anchor=0.01)
REPLAY = 960
#: Replay pairs per training pair (6: all 960 other sentences, less those holding a replaced form).
REPLAY_RATIO = 6.0


def translate(model: Path, texts: list[str]) -> list[str]:
    """The export's translations through the build's pipeline (engine defaults, no cache)."""
    translator = load_translator("onnx", str(model), threads=1)
    service = build_pipeline(GIVEN_TRANSLATOR, SiteInputs(), load=lambda _spec: translator).service
    requests = Requests()
    for text in texts:
        requests.add(text)
    hits = service.translate(requests)
    return [plain(hits[t].text) for t in texts]


def measure(model: Path, held: list[tdata.Pair], general: list[tdata.Pair]) -> dict[str, float]:
    outs = translate(model, [p.source for p in held])
    found, wanted = domain.term_hits([p.source for p in held], outs)
    general_outs = translate(model, [p.source for p in general])
    return {
        "terms": 100.0 * found / wanted,
        "held": corpus_scores(outs, [p.target for p in held]).chrf,
        "general": corpus_scores(general_outs, [p.target for p in general]).chrf,
        "wanted": wanted,
    }


def general_set(path: Path) -> list[tdata.Pair]:
    """The task's held-out sentences holding none of the team's terms, as a TSV for ``--general``."""
    pairs = [(s, t) for s, t in domain.general_pairs(120)
             if not any(w in s.lower() for w in domain.TERMS) and "make sure" not in s.lower()]
    path.write_text("".join(f"{s}\t{t}\n" for s, t in pairs), encoding="utf-8")
    return [tdata.Pair("general", s, t) for s, t in pairs]


def replay_english(n: int) -> list[str]:
    """The site's other English: more sentences of the same task, terms at their natural rate."""
    from tools.export_tiny import make_pair

    rng = random.Random("site-other-pages")
    return [make_pair(rng, 0.0)[0] for _ in range(n)]


def run(out: Path) -> int:
    base = tiny_onnx_model("int8")
    hf = tiny_hf_model()
    with tempfile.TemporaryDirectory() as tmp:
        general_tsv = Path(tmp) / "general.tsv"
        general = general_set(general_tsv)
        refs = domain.references(domain.reviewed_entries(200))
        request = Request(base, out, refs, source=str(hf), general=general_tsv, settings=SETTINGS,
                          replay=replay_english(REPLAY), replay_ratio=REPLAY_RATIO)
        started = time.perf_counter()
        outcome = tune(request, lambda line: print(line, file=sys.stderr),
                       on_eval=lambda step, chrf: print(f"  step {step}: held-out chrF {chrf:.2f}", file=sys.stderr))
        took = time.perf_counter() - started
        held = outcome.split.held_out
        before, after = measure(base, held, general), measure(out, held, general)
        print(f"tuned in {took:.0f}s: {outcome.steps} steps ({outcome.seconds_per_step:.3f} s/step), best at "
              f"{outcome.best_step}; {len(outcome.split.train)} training pairs, {len(held)} held out by "
              f"{outcome.split.by}, {outcome.record['entries']['replay']} replay; {len(general)} general sentences")
        print(f"guard (torch, greedy): held-out {outcome.held_out.base:.2f} -> {outcome.held_out.tuned:.2f}; "
              f"general {outcome.general.base:.2f} -> {outcome.general.tuned:.2f}" if outcome.general else "")
        print(f"| engine int8, beam search | terms ({int(before['wanted'])} in held-out) | chrF held-out reviews "
              "| chrF general |")
        print("|---|---:|---:|---:|")
        for name, row in (("base", before), ("tuned", after)):
            print(f"| {name} | {row['terms']:.0f}% | {row['held']:.2f} | {row['general']:.2f} |")

        shuffled = domain.references(domain.reviewed_entries(200, shuffled=True))
        try:
            refused = Request(base, Path(tmp) / "refused", shuffled, source=str(hf), general=general_tsv,
                              settings=SETTINGS, replay=replay_english(REPLAY), replay_ratio=REPLAY_RATIO)
            tune(refused, lambda line: None)
            print("shuffled references: NOT refused", file=sys.stderr)
            return 1
        except TuneRefused as exc:
            print(f"shuffled references: {exc}")
            assert not (Path(tmp) / "refused").exists()
    return 0


def step_time(steps: int, threads: int | None, freeze_embeddings: bool = False) -> None:
    """Seconds per step of a random-weight opus-mt-en-zh-shaped model (see the docstring)."""
    import torch
    from transformers import MarianConfig, MarianMTModel

    if threads:
        torch.set_num_threads(threads)
    torch.manual_seed(0)
    config = MarianConfig(vocab_size=65001, decoder_vocab_size=65001, d_model=512, encoder_layers=6,
                          decoder_layers=6, encoder_attention_heads=8, decoder_attention_heads=8,
                          encoder_ffn_dim=2048, decoder_ffn_dim=2048, max_position_embeddings=512,
                          pad_token_id=65000, decoder_start_token_id=65000, eos_token_id=0, scale_embedding=True,
                          share_encoder_decoder_embeddings=True)
    model = MarianMTModel(config)
    if freeze_embeddings:  # the tied 65001x512 table: a third of the weights, no gradient to compute
        model.get_input_embeddings().weight.requires_grad_(False)
    optimiser = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=5e-5)
    params = sum(p.numel() for p in model.parameters())

    cpu: list[float] = []

    def one() -> float:
        batch = {"input_ids": torch.randint(1, 64999, (16, 32)), "attention_mask": torch.ones(16, 32, dtype=torch.long),
                 "labels": torch.randint(1, 64999, (16, 40))}
        started, cpu_started = time.perf_counter(), time.process_time()
        loss = model(**batch).loss
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        cpu.append(time.process_time() - cpu_started)
        return time.perf_counter() - started

    one()  # warm-up
    times = [one() for _ in range(steps)]
    cpu = cpu[1:]
    print(f"opus-mt-en-zh shape ({params / 1e6:.1f}M parameters), batch 16x32->40 tokens, "
          f"{torch.get_num_threads()} threads{', embeddings frozen' if freeze_embeddings else ''}: "
          f"{sum(times) / len(times):.2f} s/step "
          f"(min {min(times):.2f}, max {max(times):.2f}, {steps} steps); CPU time {sum(cpu) / len(cpu):.2f} s/step "
          f"(what the step costs an idle machine's cores together)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="where the tuned model goes")
    parser.add_argument("--step-time", action="store_true")
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--threads", type=int)
    parser.add_argument("--freeze-embeddings", action="store_true")
    args = parser.parse_args()
    if args.step_time:
        step_time(args.steps, args.threads, args.freeze_embeddings)
        return 0
    if args.out is None:
        parser.error("--out DIR (or --step-time)")
    return run(args.out)


if __name__ == "__main__":
    raise SystemExit(main())
