"""The torch side of tuning: load the original checkpoint, translate with it, fine-tune it.

Written on transformers' Auto classes (``AutoModelForSeq2SeqLM`` and the checkpoint's own
tokenizer), so any encoder-decoder family the export supports tunes the same way; how the model
is told to write Chinese is read from the base export's ``generation.json`` (a target prefix in
the source, or a forced first token), never from the family's name.

Scores here are of the torch model in float32 with greedy search: the base and the tuned model
are measured the same way, so their difference is the tuning's; the exported int8 model is
measured by ``eval`` afterwards (``eval --compare``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .data import Pair
from .errors import TuneError

#: Sentences translated at a time when measuring (greedy search).
EVAL_BATCH = 32


@dataclass(frozen=True)
class Settings:
    """What a run is tuned with; recorded in the tuned model's record."""

    steps: int = 300  # the most optimiser steps (early stopping usually ends sooner)
    batch: int = 16
    lr: float = 5e-5
    eval_every: int = 0  # steps between validations; 0: once per pass over the training pairs
    patience: int = 3  # validations without a better chrF before stopping
    seed: int = 0
    device: str = "auto"  # auto: CUDA through torch when present, else the CPU
    threads: int | None = None  # CPU threads (None: torch's default)
    max_length: int = 256  # tokens per side; longer pairs are cut
    #: Weight of the pull back to the base weights (L2-SP: the squared distance of every weight
    #: from its starting value, summed): what keeps a small model from forgetting its general
    #: translations while it learns the team's forms. 0: plain fine-tuning.
    anchor: float = 0.01

    def as_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


@dataclass
class Loaded:
    """A checkpoint ready to translate and train, and how it is told to write Chinese."""

    model: Any
    tokenizer: Any
    device: str
    prefix: str | None = None  # a target-language token put before every source (multi-target opus-mt)
    forced_bos: int | None = None  # a first target token every output starts with (M2M100, NLLB)


@dataclass
class Trained:
    """What training found: the best validation chrF and its step (0: the base was best)."""

    best_chrf: float
    best_step: int
    steps: int
    seconds_per_step: float
    curve: list[tuple[int, float]] = field(default_factory=list)  # (step, validation chrF)
    best_state: dict[str, Any] | None = None  # None: no step beat the base


#: ``(step, total, loss, seconds per step)`` after each step; ``(step, chrf)`` after each validation.
OnStep = Callable[[int, int, float, float], None]
OnEval = Callable[[int, float], None]


def _device(wanted: str) -> str:
    import torch

    if wanted == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if wanted.startswith("cuda") and not torch.cuda.is_available():
        raise TuneError(f"--device {wanted}: torch sees no CUDA device")
    return wanted


def load(source: Path, generation: dict[str, Any], settings: Settings) -> Loaded:
    """The checkpoint at ``source`` with its tokenizer, checked against the export it must be
    the original of (``generation``: its ``generation.json``): same type and shape."""
    import torch
    from transformers import AutoConfig, AutoModelForSeq2SeqLM, AutoTokenizer

    torch.manual_seed(settings.seed)
    if settings.threads:
        torch.set_num_threads(settings.threads)
    try:
        config = AutoConfig.from_pretrained(source)
    except (OSError, ValueError) as exc:
        raise TuneError(f"{source}: cannot read the model config: {exc}".splitlines()[0]) from None
    for name in ("vocab_size", "d_model", "decoder_layers"):
        ours, theirs = getattr(config, name, None), generation.get(name)
        if theirs is not None and ours != theirs:
            raise TuneError(f"{source}: not the checkpoint the model was exported from ({name} {ours}, "
                            f"the export has {theirs}); give --source the original model")
    try:
        tokenizer = AutoTokenizer.from_pretrained(source)
        model = AutoModelForSeq2SeqLM.from_pretrained(source)
    except (OSError, ValueError, KeyError) as exc:
        raise TuneError(f"{source}: cannot load the checkpoint: {exc}".splitlines()[0]) from None
    device = _device(settings.device)
    model.to(device)
    words = generation.get("tokenizer", {})
    forced = generation.get("forced_bos_token_id")
    return Loaded(model, tokenizer, device, words.get("target_prefix") or None,
                  int(forced) if isinstance(forced, int) else None)


def _sources(loaded: Loaded, texts: Sequence[str]) -> list[str]:
    return [f"{loaded.prefix} {t}" for t in texts] if loaded.prefix else list(texts)


def translate(loaded: Loaded, texts: Sequence[str], max_length: int = 256) -> list[str]:
    """Greedy translations of ``texts``, in order (batched by length)."""
    import torch

    model, tok = loaded.model, loaded.tokenizer
    model.eval()
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    out: dict[int, str] = {}
    extra = {"forced_bos_token_id": loaded.forced_bos} if loaded.forced_bos is not None else {}
    with torch.no_grad():
        for start in range(0, len(order), EVAL_BATCH):
            idx = order[start : start + EVAL_BATCH]
            enc = tok(_sources(loaded, [texts[i] for i in idx]), return_tensors="pt", padding=True,
                      truncation=True, max_length=max_length).to(loaded.device)
            ids = model.generate(**enc, num_beams=1, do_sample=False, max_new_tokens=max_length, **extra)
            for i, text in zip(idx, tok.batch_decode(ids, skip_special_tokens=True)):
                out[i] = text.strip()
    return [out[i] for i in range(len(texts))]


def chrf(loaded: Loaded, pairs: Sequence[Pair], max_length: int = 256) -> float:
    """Corpus chrF of the model's greedy translations of ``pairs``."""
    from ..quality.metrics import corpus_scores, plain

    if not pairs:
        return 0.0
    candidates = translate(loaded, [p.source for p in pairs], max_length)
    return corpus_scores([plain(c) for c in candidates], [p.target for p in pairs]).chrf


def _batches(pairs: Sequence[Pair], size: int, rng: random.Random) -> list[list[Pair]]:
    """One pass over ``pairs`` in batches of similar length, in a seeded order."""
    order = list(pairs)
    rng.shuffle(order)
    chunk = size * 8
    batches: list[list[Pair]] = []
    for c in range(0, len(order), chunk):
        part = sorted(order[c : c + chunk], key=lambda p: len(p.source) + len(p.target))
        batches += [part[b : b + size] for b in range(0, len(part), size)]
    rng.shuffle(batches)
    return batches


def step_loss(loaded: Loaded, batch: Sequence[Pair], max_length: int) -> Any:
    """The cross-entropy of one batch (padding ignored)."""
    tok = loaded.tokenizer
    enc = tok(_sources(loaded, [p.source for p in batch]), text_target=[p.target for p in batch],
              return_tensors="pt", padding=True, truncation=True, max_length=max_length)
    labels = enc["labels"]
    labels[labels == tok.pad_token_id] = -100
    enc = enc.to(loaded.device)
    return loaded.model(**enc).loss


def train(loaded: Loaded, pairs: Sequence[Pair], held_out: Sequence[Pair], base_chrf: float, settings: Settings,
          on_step: OnStep | None = None, on_eval: OnEval | None = None) -> Trained:
    """Fine-tune ``loaded.model`` in place on ``pairs``, validating on ``held_out`` every
    ``eval_every`` steps; stop after ``patience`` validations without a gain or at ``steps``.
    Keeps (a CPU copy of) the state of the best validation: what is exported."""
    import torch

    if not pairs:
        raise TuneError("no training pairs")
    rng = random.Random(settings.seed)
    torch.manual_seed(settings.seed)
    model = loaded.model
    optimiser = torch.optim.AdamW(model.parameters(), lr=settings.lr, weight_decay=0.0)
    # Warm up over the first twentieth, then decay linearly to a tenth: at a constant rate a
    # small model swings between learning the team's forms and losing them (the validation
    # chrF of the tiny test model moved by 10 points from one check to the next).
    warm = max(1, settings.steps // 20)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimiser, lambda s: min(
        (s + 1) / warm, 1.0 - 0.9 * max(0, s - warm) / max(1, settings.steps - warm)))
    every = settings.eval_every or max(1, math.ceil(len(pairs) / settings.batch))
    anchor = ([(p, p.detach().clone()) for p in model.parameters() if p.requires_grad]
              if settings.anchor else [])
    result = Trained(base_chrf, 0, 0, 0.0, [(0, base_chrf)])
    waited, spent, step = 0, 0.0, 0
    while step < settings.steps and waited < settings.patience:
        for batch in _batches(pairs, settings.batch, rng):
            model.train()
            started = time.perf_counter()
            loss = step_loss(loaded, batch, settings.max_length)
            if anchor:
                loss = loss + settings.anchor * sum(((p - p0) ** 2).sum() for p, p0 in anchor)
            optimiser.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimiser.step()
            schedule.step()
            step += 1
            spent += time.perf_counter() - started
            if on_step is not None:
                on_step(step, settings.steps, float(loss.item()), spent / step)
            if step % every == 0 or step == settings.steps:
                score = chrf(loaded, held_out, settings.max_length)
                result.curve.append((step, score))
                if on_eval is not None:
                    on_eval(step, score)
                if score > result.best_chrf:
                    result.best_chrf, result.best_step, waited = score, step, 0
                    result.best_state = {k: v.detach().to("cpu", copy=True) for k, v in model.state_dict().items()}
                else:
                    waited += 1
            if step >= settings.steps or waited >= settings.patience:
                break
    result.steps = step
    result.seconds_per_step = spent / step if step else 0.0
    return result


def restore(loaded: Loaded, state: dict[str, Any]) -> None:
    """Put the best state back into the model (before measuring and exporting it)."""
    loaded.model.load_state_dict(state)


def save(loaded: Loaded, out: Path) -> None:
    """The tuned checkpoint as ``save_pretrained`` lays it out: what ``export_model`` reads."""
    loaded.model.to("cpu").save_pretrained(out)
    loaded.tokenizer.save_pretrained(out)
