"""Tiny decoder-only translators (Qwen2 shape), trained on the synthetic task in the prompt form.

The seq2seq test models (``tests/models.py``, ``tools/export_tiny.py``) learn English -> the
invented "Chinese" of ``pseudo_translate``; these learn the same task the way a decoder-only
translator is asked: a chat turn holding the qwen family's instruction (``families.PROMPT_FORMS``,
rendered by the engine's own ``engine.prompt.Prompt``), sometimes with glossary terms in it and
sometimes with context before it, answered by the translation and ``<|im_end|>``. A third of
the examples carry terms whose rendering is an invented word the task would never produce, so
the model can only get them right by copying from the prompt: what the terms-in-prompt figure
measures. The tokenizer is a byte-level BPE (as Qwen's) with the placeholders as whole tokens,
saved with a ChatML chat template; ``export`` renders its framing from that template.

Built once per builder source and library versions and cached beside the Marian models
(``tests.models._cached_dir``: lock, atomic rename); the export goes through the real
``export`` path (GenAI's model builder).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mkdocs_zh_translate.engine.prompt import Prompt
from mkdocs_zh_translate.families import PROMPT_FORMS, SIMPLIFIED
from tests.models import PACKAGE, _cached_dir, _hash_files, _versions
from tools.export_tiny import CJK_POOL, MAX_PLACEHOLDER, NOUNS, make_pair, pseudo_translate, word_chunk

BUILDER = Path(__file__).resolve()
CHATML_BEFORE = "<|im_start|>user\n"
CHATML_AFTER = "<|im_end|>\n<|im_start|>assistant\n"
CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
SPECIALS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
GENAI_LIBRARIES = ("torch", "transformers", "tokenizers", "onnxruntime", "onnxruntime-genai", "onnx-ir")

#: Training recipe: fixed steps (not a time budget) so builds are reproducible.
#: GenAI's GroupQueryAttention kernel takes head sizes that are multiples of 16 (96 / 6 = 16).
#: Two layers at 2200 steps learnt the task (loss 0.89) but never copied a term from the prompt
#: (0 of 40): copying needs an induction circuit, so three layers and half the examples with terms.
RECIPE = {"hidden": 96, "layers": 3, "heads": 6, "kv_heads": 2, "ffn": 256, "vocab": 1400, "pairs": 24000,
          "steps": 2600, "batch": 32, "lr": 3e-3, "term_rate": 0.5, "context_rate": 0.15}


def prompt_form() -> Prompt:
    """The qwen family's prompt framed by the tiny models' ChatML template (what export writes)."""
    form = PROMPT_FORMS["qwen"]
    return Prompt(form.instruction, form.with_terms, form.term_line, form.context_block,
                  form.target_names[SIMPLIFIED], CHATML_BEFORE, CHATML_AFTER, form.preambles)


def invented_term(rng: random.Random, avoid: str) -> str:
    """A 2-3 character rendering the task never gives a word (not its ``word_chunk``)."""
    while True:
        term = "".join(rng.choice(CJK_POOL) for _ in range(rng.choice((2, 3))))
        if term != avoid:
            return term


def term_example(rng: random.Random, source: str) -> tuple[list[tuple[str, str]], str] | None:
    """Terms for ``source`` and the reference with them: one or two nouns of the sentence
    (each once in it, its rendering once in the reference) get an invented rendering."""
    target = pseudo_translate(source)
    words = [w for w in set(source.replace(",", " ").replace(".", " ").split()) if w.lower() in NOUNS_SET]
    rng.shuffle(words)
    pairs: list[tuple[str, str]] = []
    for word in words[: rng.choice((1, 1, 2))]:
        chunk = word_chunk(word.lower())
        if source.split().count(word) != 1 or target.count(chunk) != 1:
            continue
        term = invented_term(rng, chunk)
        target = target.replace(chunk, term)
        pairs.append((word, term))
    return (pairs, target) if pairs else None


NOUNS_SET = set(NOUNS)


def training_example(rng: random.Random, prompt: Prompt) -> tuple[str, str]:
    """(prompt, answer) of one example: plain, with terms, and/or with context."""
    source, target = make_pair(rng, placeholder_rate=0.3)
    pairs: list[tuple[str, str]] = []
    if rng.random() < RECIPE["term_rate"]:
        found = term_example(rng, source)
        if found is not None:
            pairs, target = found
    context = make_pair(rng, placeholder_rate=0.0)[0] if rng.random() < RECIPE["context_rate"] else ""
    return prompt.render(source, pairs, context), target


def _tokenizer(texts: Sequence[str], out: Path) -> Any:
    """Byte-level BPE with the placeholders as whole tokens, saved as a fast tokenizer."""
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=RECIPE["vocab"], special_tokens=list(SPECIALS), show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator([*texts, CJK_POOL], trainer)
    marks = [f"<x{i}/>" for i in range(1, MAX_PLACEHOLDER + 1)]
    marks += [f"<g{i}>" for i in range(1, MAX_PLACEHOLDER + 1)] + [f"</g{i}>" for i in range(1, MAX_PLACEHOLDER + 1)]
    tok.add_tokens([AddedToken(m, normalized=False) for m in marks])
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    fast.chat_template = CHAT_TEMPLATE
    fast.save_pretrained(str(out))
    config_path = out / "tokenizer_config.json"
    config = json.loads(config_path.read_text(encoding="utf-8"))
    config["tokenizer_class"] = "Qwen2Tokenizer"  # what Qwen checkpoints say; GenAI's tokenizer reads it
    config_path.write_text(json.dumps(config, indent=1, ensure_ascii=False), encoding="utf-8")
    return fast


def _lr(step: int, total: int, peak: float) -> float:
    warm = max(1, total // 20)
    if step < warm:
        return peak * (step + 1) / warm
    return peak * (0.05 + 0.95 * 0.5 * (1 + math.cos(math.pi * (step - warm) / max(1, total - warm))))


def build_tiny_decoder(out: Path, seed: int = 0, steps: int | None = None) -> Path:
    """Train the tiny Qwen2 translator into ``out`` (a ``save_pretrained`` directory)."""
    import torch
    from transformers import GenerationConfig, Qwen2Config, Qwen2ForCausalLM

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    rng = random.Random(seed)
    prompt = prompt_form()
    examples = [training_example(rng, prompt) for _ in range(RECIPE["pairs"])]
    out.mkdir(parents=True, exist_ok=True)
    tok = _tokenizer([p + a for p, a in examples], out)
    end = tok.convert_tokens_to_ids("<|im_end|>")
    pad = tok.convert_tokens_to_ids("<|endoftext|>")
    data = []
    for p, a in examples:
        ids_p = tok(p, add_special_tokens=False)["input_ids"]
        ids_a = tok(a, add_special_tokens=False)["input_ids"] + [end]
        data.append((ids_p, ids_a))
    config = Qwen2Config(vocab_size=len(tok), hidden_size=RECIPE["hidden"], intermediate_size=RECIPE["ffn"],
                         num_hidden_layers=RECIPE["layers"], num_attention_heads=RECIPE["heads"],
                         num_key_value_heads=RECIPE["kv_heads"], max_position_embeddings=512,
                         bos_token_id=None, eos_token_id=end, pad_token_id=pad, tie_word_embeddings=True)
    model = Qwen2ForCausalLM(config)
    optim = torch.optim.AdamW(model.parameters(), lr=RECIPE["lr"], weight_decay=0.01)
    total = steps or RECIPE["steps"]
    model.train()
    for step in range(total):
        if step % 200 == 0:
            print(f"step {step}/{total}", flush=True)
        idx = [rng.randrange(len(data)) for _ in range(RECIPE["batch"])]
        width = max(len(data[i][0]) + len(data[i][1]) for i in idx)
        inputs = torch.full((len(idx), width), pad, dtype=torch.long)
        labels = torch.full((len(idx), width), -100, dtype=torch.long)
        mask = torch.zeros((len(idx), width), dtype=torch.long)
        for row, i in enumerate(idx):
            seq = data[i][0] + data[i][1]
            inputs[row, : len(seq)] = torch.tensor(seq)
            labels[row, len(data[i][0]): len(seq)] = torch.tensor(data[i][1])
            mask[row, : len(seq)] = 1
        for group in optim.param_groups:
            group["lr"] = _lr(step, total, RECIPE["lr"])
        loss = model(input_ids=inputs, attention_mask=mask, labels=labels).loss
        optim.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optim.step()
    model.eval()
    model.generation_config = GenerationConfig(eos_token_id=end, pad_token_id=pad, do_sample=False)
    model.save_pretrained(str(out))
    (out / "training.json").write_text(json.dumps({**RECIPE, "steps": total, "final_loss": loss.item()}) + "\n",
                                       encoding="utf-8")
    return out


def tiny_decoder_hf(seed: int = 0) -> Path:
    """The trained tiny decoder-only checkpoint, cached."""
    # The prompt as rendered, not the files it comes from: an unrelated edit of families.py
    # (another family's entry) must not retrain the model.
    sample = prompt_form().render("S {source}", [("a", "b")], "C")
    key = _hash_files([BUILDER], sample, str(seed), _versions(("torch", "transformers", "tokenizers")))
    return _cached_dir(f"qwen-tiny-s{seed}-{key}", lambda tmp: build_tiny_decoder(tmp, seed))


def tiny_decoder_onnx(quantize: str = "none", seed: int = 0) -> Path:
    """The tiny checkpoint exported by the real ``export`` path (GenAI's builder), cached."""
    from mkdocs_zh_translate.export import export_any

    hf = tiny_decoder_hf(seed)
    exporters = sorted((PACKAGE / "export").glob("*.py"))
    key = _hash_files(exporters, hf.name, quantize, _versions(GENAI_LIBRARIES))
    return _cached_dir(f"genai-{quantize}-s{seed}-{key}", lambda tmp: export_any(str(hf), tmp, quantize=quantize))


def heldout(n: int, seed: int = 12345) -> list[tuple[str, str]]:
    """``n`` (English, reference) pairs from another seed than training's."""
    rng = random.Random(seed)
    return [make_pair(rng, placeholder_rate=0.3) for _ in range(n)]


if __name__ == "__main__":
    import sys
    import time

    started = time.perf_counter()
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else None
    print(build_tiny_decoder(Path(sys.argv[1]), steps=steps), f"{time.perf_counter() - started:.0f} s")
