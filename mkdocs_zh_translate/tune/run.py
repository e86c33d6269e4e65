"""One tuning run: data, base scores, training, the guards, the export, the record.

Nothing is written to the output directory before both guards pass: the held-out reviews'
chrF must beat the base model's by ``min_gain``, and the general set's must not drop by more
than ``margin`` (the forgetting guard). A refusal is :class:`TuneRefused` with both numbers.
The tuned checkpoint goes through ``export.export_model`` (the very path ``export`` takes, int8
by default) into ``out``, then ``tune.json`` is added and the manifest rewritten over every
file, naming the original checkpoint as the source: the next round tunes from it again.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..model_format import GENERAL_FILE, GENERATION_FILE
from ..owned import scratch_dir
from ..quality.references import Reference
from . import data as tdata
from .errors import TuneError, TuneRefused
from .record import base_of, read_json, write_record
from .train import Settings

#: A tuned model's held-out chrF must beat the base's by at least this much by default.
MIN_GAIN = 0.5
#: The general set's chrF may drop by at most this much by default (the forgetting guard).
MARGIN = 1.0


@dataclass
class Request:
    """What to tune, on what, into where, and how strictly to judge it."""

    model_dir: Path  # the export the site uses
    out: Path
    references: Sequence[Reference]
    terms: Sequence[tuple[str, str | None]] = ()  # the glossary's (English, Chinese)
    source: str | None = None  # the original checkpoint (default: the base manifest's source)
    general: Path | None = None  # english<TAB>reference lines (default: the model's general.tsv)
    forgetting_guard: bool = True
    margin: float = MARGIN
    min_gain: float = MIN_GAIN
    held_out: float = tdata.HELD_OUT
    quantize: str = "int8"
    settings: Settings = field(default_factory=Settings)
    replay: Sequence[str] = ()  # the site's other English (not reviewed), for replay
    replay_ratio: float = tdata.REPLAY


@dataclass
class Scores:
    """One guard's two numbers."""

    base: float
    tuned: float

    @property
    def gain(self) -> float:
        return self.tuned - self.base

    def as_json(self) -> dict[str, float]:
        return {"base": round(self.base, 2), "tuned": round(self.tuned, 2), "gain": round(self.gain, 2)}


@dataclass
class Outcome:
    """A finished (accepted) run."""

    out: Path
    split: tdata.Split
    held_out: Scores
    general: Scores | None
    steps: int
    best_step: int
    seconds_per_step: float
    record: dict[str, Any]


Say = Callable[[str], None]


def _general(request: Request) -> tuple[list[tdata.Pair], str | None]:
    from ..quality.references import read_tsv

    path = request.general
    if path is None and (request.model_dir / GENERAL_FILE).is_file():
        path = request.model_dir / GENERAL_FILE
    if not request.forgetting_guard:
        return [], None
    if path is None:
        raise TuneError(f"{request.model_dir}: no general set for the forgetting guard: give --general FILE.tsv "
                        f"(english<TAB>reference lines from the model's own domain), put one in the model "
                        f"directory as {GENERAL_FILE}, or pass --no-forgetting-guard")
    pairs = tdata.pairs_of(read_tsv(path).references)
    if len(pairs) < tdata.MIN_HELD_OUT:
        raise TuneError(f"{path}: {len(pairs)} general sentences; the forgetting guard needs "
                        f"{tdata.MIN_HELD_OUT} or more")
    return pairs, str(path)


def _split(request: Request) -> tdata.Split:
    pairs = tdata.pairs_of(request.references)
    split = tdata.split(pairs, tdata.glossary_pairs(request.terms), held_out=request.held_out,
                        seed=request.settings.seed)
    if len(split.held_out) < tdata.MIN_HELD_OUT:
        raise TuneError(f"{len(split.held_out)} held-out reviewed entries (of {len(pairs)}); tuning needs "
                        f"{tdata.MIN_HELD_OUT} or more to measure a gain: review more, or raise --held-out")
    if len(split.train) < tdata.MIN_TRAIN:
        raise TuneError(f"{len(split.train)} training pairs (of {len(pairs)} reviewed entries); tuning needs "
                        f"{tdata.MIN_TRAIN} or more")
    return split


def _checkpoint_hash(src: Path) -> str | None:
    for name in ("model.safetensors", "pytorch_model.bin"):
        if (src / name).is_file():
            digest = hashlib.sha256()
            with (src / name).open("rb") as fh:
                while chunk := fh.read(1 << 20):
                    digest.update(chunk)
            return digest.hexdigest()
    return None


def tune(request: Request, say: Say, on_step: Any = None, on_eval: Any = None) -> Outcome:
    """Run ``request`` (see the module docstring); raise TuneRefused or TuneError."""
    from ..export.source import require_export_deps, resolve_source
    from . import train as ttrain

    require_export_deps()
    if request.out.resolve() == request.model_dir.resolve():
        raise TuneError(f"--out {request.out}: the model being tuned; give a new directory")
    base = base_of(request.model_dir)
    generation = read_json(request.model_dir / GENERATION_FILE, "generation settings")
    source = request.source or base["source"]
    if not isinstance(source, str) or not source or not source.isprintable():
        # printed on the terminal below: a source with a control character is none
        raise TuneError(f"{request.model_dir}: its manifest names no usable source checkpoint; give --source")
    split = _split(request)
    general, general_origin = _general(request)
    src = resolve_source(source)
    settings = request.settings
    say(f"tune: {len(split.train)} training pairs ({split.terms} glossary terms), {len(split.held_out)} held out "
        f"by {split.by}; general set: {len(general) if general else 'none'}")
    loaded = ttrain.load(src, generation, settings)
    say(f"tune: base model {source} on {loaded.device}; measuring it")
    base_val = ttrain.chrf(loaded, split.held_out, settings.max_length)
    base_gen = ttrain.chrf(loaded, general, settings.max_length) if general else None
    replay = _replay(loaded, request, split)
    general_line = f", general set {base_gen:.1f}" if base_gen is not None else ""
    say(f"tune: {len(replay)} replay pairs (the base's own translations of the site's other English); "
        f"base chrF: held-out reviews {base_val:.1f}{general_line}")
    started = time.perf_counter()
    trained = ttrain.train(loaded, [*split.train, *replay], split.held_out, base_val, settings, on_step, on_eval)
    if trained.best_state is not None:
        ttrain.restore(loaded, trained.best_state)
    held = Scores(base_val, trained.best_chrf if trained.best_state is not None else trained.curve[-1][1])
    gen = Scores(base_gen, ttrain.chrf(loaded, general, settings.max_length)) if base_gen is not None else None
    verdict = _verdict(held, gen, request)
    if verdict:
        raise TuneRefused(verdict)
    record = {
        "base": {"model": base["model"], "fingerprint": base["fingerprint"], "source": source,
                 "checkpoint_sha256": _checkpoint_hash(src)},
        "lineage": base["lineage"],
        "entries": {
            "train": len(split.train) - split.terms, "terms": split.terms, "held_out": len(split.held_out),
            "held_out_by": split.by, "dropped_as_duplicates": split.dropped, "replay": len(replay),
            "sha256": tdata.entries_digest([*split.train, *split.held_out]),
            "trained_on": sorted({p.where for p in split.train}),
            "held_out_sources": sorted(p.digest for p in split.held_out),
        },
        "settings": {**settings.as_json(), "quantize": request.quantize, "held_out_share": request.held_out,
                     "replay_ratio": request.replay_ratio,
                     "min_gain": request.min_gain, "margin": request.margin, "device": loaded.device},
        "scores": {"held_out_chrf": held.as_json(),
                   "general_chrf": {**gen.as_json(), "origin": general_origin} if gen else None},
        "steps": trained.steps, "best_step": trained.best_step,
        "seconds_per_step": round(trained.seconds_per_step, 4),
        "curve": [[s, round(c, 2)] for s, c in trained.curve],
        "seconds": round(time.perf_counter() - started, 1),
    }
    _export(loaded, request, source, general_origin, record)
    return Outcome(request.out, split, held, gen, trained.steps, trained.best_step, trained.seconds_per_step, record)


def _replay(loaded: Any, request: Request, split: tdata.Split) -> list[tdata.Pair]:
    """Replay pairs (``data.replay_pairs``): the base's translations of the site's other
    English, without the forms the reviewers replaced in the training pairs."""
    from . import train as ttrain

    wanted = int(request.replay_ratio * len(split.train))
    sources = tdata.replay_sources(request.replay, split, wanted, seed=request.settings.seed) if wanted else []
    if not sources:
        return []
    reviewed = [p for p in split.train if p.where != tdata.GLOSSARY]
    base = ttrain.translate(loaded, [p.source for p in reviewed], request.settings.max_length)
    forms = tdata.rejected_forms(base, [p.target for p in reviewed])
    return tdata.replay_pairs(sources, ttrain.translate(loaded, sources, request.settings.max_length), forms)


def _verdict(held: Scores, gen: Scores | None, request: Request) -> str | None:
    """Why the tuned model is refused (None: it is not)."""
    numbers = f"held-out reviews chrF {held.base:.1f} -> {held.tuned:.1f}"
    numbers += f"; general set chrF {gen.base:.1f} -> {gen.tuned:.1f}" if gen else "; no general set"
    if held.gain < request.min_gain:
        return (f"refused: the tuned model does not beat the base on the held-out reviews by {request.min_gain:g} "
                f"chrF ({numbers}); nothing written")
    if gen is not None and -gen.gain > request.margin:
        return (f"refused: the general set dropped by {-gen.gain:.1f} chrF, more than the margin "
                f"{request.margin:g} ({numbers}); nothing written")
    return None


def _export(loaded: Any, request: Request, source: str, general_origin: str | None, record: dict[str, Any]) -> None:
    """The tuned checkpoint through the export path into ``request.out``, with its record."""
    from ..export import write_manifest
    from ..export.convert import export_model
    from . import train as ttrain

    with scratch_dir(".tune-") as tmp:
        ttrain.save(loaded, tmp / "checkpoint")
        export_model(str(tmp / "checkpoint"), request.out, quantize=request.quantize)
    if general_origin is not None:
        shutil.copyfile(general_origin, request.out / GENERAL_FILE)
    write_record(request.out, record)
    write_manifest(request.out, source=source, quantize=request.quantize)


def summary(outcome: Outcome) -> str:
    """The one line an accepted run ends with."""
    gen = outcome.general
    general = f"general set chrF {gen.base:.1f} -> {gen.tuned:.1f}" if gen else "no general set (guard off)"
    return (f"tune: wrote {outcome.out}: held-out reviews chrF {outcome.held_out.base:.1f} -> "
            f"{outcome.held_out.tuned:.1f}; {general}; best at step {outcome.best_step} of {outcome.steps}")


def dumps(outcome: Outcome) -> str:
    return json.dumps(outcome.record, indent=2, ensure_ascii=False) + "\n"
