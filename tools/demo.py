"""``python -m tools.demo site``: build the example site on a machine with no internet.

A development tool (``make site``), not part of the wheel: it lives beside the repository's
``example_site/`` and ``.cache/`` and finds them through its own location.

The real opus-mt-en-zh cannot be downloaded everywhere, so by default the demo trains and
exports the project's own tiny MarianMT model (minutes, once, cached in ``.cache/``) and builds
``example_site/`` with it. Its "Chinese" is not a translation; the output and every page's
banner say so, and the command that exports the real model is printed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from mkdocs_zh_translate.model_format import FORMAT_VERSION, MANIFEST_FILE

REPO = Path(__file__).resolve().parent.parent
EXAMPLE_SITE = REPO / "example_site"
CACHE = REPO / ".cache"
DEMO_MODEL = CACHE / "demo-model"
REAL_MODEL_COMMAND = (
    "mkdocs-zh-translate export Helsinki-NLP/opus-mt-en-zh --out models/opus-mt-en-zh && "
    "python -m tools.demo site --model models/opus-mt-en-zh"
)
DEMO_BANNER = (
    "本页由演示模型机器翻译：演示模型是本项目自己训练的微型模型，译文不是真正的中文"
    "（DEMO model, not a real translation）。"
)


class DemoError(Exception):
    """A failure to report as one line."""


def _export_format(model_dir: Path) -> object:
    """The format version of an exported model directory, or None when there is none."""
    try:
        return json.loads((model_dir / MANIFEST_FILE).read_text(encoding="utf-8")).get("format")
    except (OSError, ValueError, AttributeError):
        return None


def _cores() -> int:
    """CPU cores this process may run on: the demo trains with all of them."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _quiet_log(message: str) -> None:
    """Pass the trainer's progress lines through, one line each."""
    print(f"demo: {message}", flush=True)


def _quality(hf_dir: Path) -> str:
    """One line saying how well the demo model learnt its synthetic task, from training.json.

    The numbers are measured on held-out sentences of the invented English -> pseudo-Chinese
    task, not on real Chinese: say so, so nobody reads them as translation quality.
    """
    try:
        report = json.loads((hf_dir / "training.json").read_text(encoding="utf-8"))
        return (
            f"trained in {report['seconds']:.0f} s ({report['steps']} steps, {report['threads']} threads); "
            f"on held-out sentences of its synthetic task (not real Chinese): "
            f"token accuracy {report['heldout_token_accuracy']:.2f}; whole sentences right "
            f"{report['heldout_exact_match_greedy']:.0%} (greedy, half of them with placeholders), "
            f"{report['placeholder_exact_match_beam4']:.0%} (beam 4, all with placeholders); "
            f"placeholders kept {report['heldout_placeholders_kept_greedy']:.0%} (greedy), "
            f"{report['placeholder_kept_beam4']:.0%} (beam 4)"
        )
    except (OSError, ValueError, KeyError, TypeError):
        return "trained (no training.json with its quality numbers)"


def ensure_demo_model(target: Path = DEMO_MODEL) -> Path:
    """The exported demo model, trained and exported first if it is not there yet."""
    if _export_format(target) == FORMAT_VERSION:
        return target
    try:
        from mkdocs_zh_translate.export import ExportError, export_model

        from .export_tiny import build_tiny_marian
    except ImportError as exc:
        raise DemoError(
            f"building the demo model needs the export extra (pip install -e '.[export]'): {exc}"
        ) from None
    started = time.perf_counter()
    hf_dir = CACHE / "demo-hf"
    if (hf_dir / "config.json").is_file():
        # Trained before, exported in an older format: re-export only, no retraining.
        print("demo: re-exporting the demo model for this engine version ...", flush=True)
        shutil.rmtree(target, ignore_errors=True)
    else:
        threads = _cores()
        print(f"demo: training the tiny demo model on up to {threads} CPU threads (once, kept in .cache/; "
              "about 2 minutes on an idle 2-core machine) ...", flush=True)
        hf_dir = build_tiny_marian(hf_dir, preset="demo", threads=threads, log=_quiet_log)
        print(f"demo: {_quality(hf_dir)}", flush=True)
    try:
        export_model(str(hf_dir), target, quantize="int8")
    except ExportError as exc:
        raise DemoError(str(exc)) from None
    print(f"demo: demo model ready in {target} ({time.perf_counter() - started:.0f} s)", flush=True)
    return target


def build_site(*, backend: str, model: Path | None, banner: str | bool, site_dir: Path | None = None) -> Path:
    """Build example_site in this process with the given translator; return the site dir."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    overrides = {"site_dir": str(site_dir)} if site_dir else {}
    config = load_config(config_file=str(EXAMPLE_SITE / "mkdocs.yml"), **overrides)
    plugin = config.plugins["zh-translate"]
    plugin.config.backend = backend
    plugin.config.model = str(model) if model else plugin.config.model
    plugin.config.banner = banner
    config.plugins.on_startup(command="build", dirty=False)
    try:
        build(config)
    finally:
        config.plugins.on_shutdown()
    return Path(config.site_dir)


def _show_mkdocs_log() -> None:
    """Print MkDocs' INFO lines (the translation summary among them) as `mkdocs build` does."""
    import logging

    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    logger = logging.getLogger("mkdocs")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False  # the model builder configures the root logger: print once


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.demo")
    sub = parser.add_subparsers(dest="command", required=True)
    site = sub.add_parser("site", help="build example_site in English and Chinese")
    group = site.add_mutually_exclusive_group()
    group.add_argument("--pseudo", action="store_true", help="use the pseudo backend (no model at all)")
    group.add_argument("--model", metavar="DIR", help="an exported model, e.g. the real opus-mt-en-zh")
    site.add_argument("--site-dir", metavar="DIR", help="build here instead of example_site/site")
    args = parser.parse_args(argv)
    _show_mkdocs_log()
    site_dir_arg = Path(args.site_dir).resolve() if args.site_dir else None
    model_arg = Path(args.model).resolve() if args.model else None
    os.chdir(REPO)  # example_site/mkdocs.yml names its snippets relative to the repository

    try:
        if args.pseudo:
            backend, model, banner, label = "pseudo", None, True, "the pseudo backend (「」 marks, no model)"
        elif model_arg:
            backend, model, banner, label = "onnx", model_arg, True, f"the model in {args.model}"
            if not model.is_dir():
                export = REAL_MODEL_COMMAND.split(" && ")[0]
                raise DemoError(f"{args.model}: no such model directory; create it with {export}")
        else:
            backend, model, banner = "onnx", ensure_demo_model(), DEMO_BANNER
            label = "the self-built DEMO model (tiny, trained here: its Chinese is not a real translation)"
        site_dir = build_site(
            backend=backend, model=model, banner=banner, site_dir=site_dir_arg
        )
    except DemoError as exc:
        print(f"demo: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("demo: interrupted (finished translations are cached)", file=sys.stderr)
        return 130
    except Exception as exc:  # MkDocs' own errors (Abort, ConfigurationError) are one line too
        if type(exc).__module__.startswith("mkdocs"):
            print(f"demo: error: {exc}", file=sys.stderr)
            return 1
        raise

    print(f"demo: built with {label}")
    print(f"demo: English site: {site_dir / 'index.html'}")
    print(f"demo: Chinese site: {site_dir / 'zh' / 'index.html'}")
    if backend == "onnx" and not args.model:
        print("demo: for real Chinese, where the internet is available, run once:")
        print(f"      {REAL_MODEL_COMMAND}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
