"""A multimodal checkpoint (TranslateGemma's ``Gemma3ForConditionalGeneration``) exports its text decoder.

GenAI's builder gives that class a decoder fed with embeddings and no embedding model, which the
genai backend cannot load; ``export`` must build the text part alone (as ``Gemma3ForCausalLM``)
and the result must compute what the conditional model's text path computes. The checkpoint is
a tiny random one (head size 16, what GenAI's attention kernel takes) with the tiny decoders'
tokenizer, saved by transformers itself, so the tensor names are the ones transformers writes.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("onnxruntime_genai")
pytest.importorskip("onnx_ir")

from mkdocs_zh_translate.export.plan import local_plan
from tests.genai_models import _tokenizer, heldout, prompt_form, training_example

NEW_TOKENS = 12


def _conditional_checkpoint(out: Path) -> Path:
    import torch
    from transformers import Gemma3Config, Gemma3ForConditionalGeneration

    rng = random.Random(0)
    tok = _tokenizer(["".join(training_example(rng, prompt_form())) for _ in range(300)], out)
    vocab = len(tok)
    text = {"hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4,
            "num_key_value_heads": 2, "head_dim": 16, "vocab_size": vocab + 3, "sliding_window": 512,
            "query_pre_attn_scalar": 16, "max_position_embeddings": 512}
    vision = {"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 1, "num_attention_heads": 2,
              "image_size": 28, "patch_size": 14}
    end = tok.convert_tokens_to_ids("<|im_end|>")
    pad = tok.convert_tokens_to_ids("<|endoftext|>")
    config = Gemma3Config(text_config=text, vision_config=vision, mm_tokens_per_image=4, image_token_index=vocab,
                          boi_token_index=vocab + 1, eoi_token_index=vocab + 2, eos_token_id=end, pad_token_id=pad,
                          bos_token_id=pad)
    torch.manual_seed(0)
    model = Gemma3ForConditionalGeneration(config).eval()
    # Gemma's norms start at zero (a scale of one): random ones make a misplaced norm visible,
    # and with them the random model's greedy answers vary instead of repeating one token.
    with torch.no_grad():
        for name, weight in model.named_parameters():
            if name.startswith(("language_model.", "model.language_model.")):
                weight.normal_(0.0, 0.5 if "norm" in name else 0.02)
    model.save_pretrained(out)
    return out


@pytest.fixture(scope="module")
def conditional(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _conditional_checkpoint(tmp_path_factory.mktemp("gemma3") / "hf")


def test_the_plan_counts_the_text_decoder_only(conditional: Path) -> None:
    from safetensors import safe_open

    with safe_open(str(conditional / "model.safetensors"), "pt") as weights:
        shapes = {name: weights.get_slice(name).get_shape() for name in weights.keys()}  # noqa: SIM118
    text = sum(int(np.prod(s)) for name, s in shapes.items() if name.startswith("language_model."))
    assert text < sum(int(np.prod(s)) for s in shapes.values())  # the vision tower is left out
    plan = local_plan(str(conditional), conditional)
    assert plan.parameters == text
    # the line export prints: the text decoder's count, no int8 estimate (the export is int4)
    assert plan.line(None).endswith(f"; {text:,} parameters")


def test_a_conditional_gemma3_checkpoint_exports_its_text_decoder(conditional: Path, tmp_path: Path) -> None:
    import onnxruntime_genai as og
    import torch
    from transformers import AutoTokenizer, Gemma3ForConditionalGeneration

    from mkdocs_zh_translate.engine.genai import GenaiTranslator
    from mkdocs_zh_translate.export import export_any

    out = export_any(str(conditional), tmp_path / "onnx", quantize="none")
    settings = json.loads((out / "generation.json").read_text(encoding="utf-8"))
    assert settings["family"] == "translategemma"
    GenaiTranslator(out, threads=1)  # the backend loads it (the manifest holds)

    tok = AutoTokenizer.from_pretrained(conditional)
    form = prompt_form()
    prompts = [tok(form.render(src, [], ""), add_special_tokens=False)["input_ids"] for src, _ in heldout(4)]
    model = Gemma3ForConditionalGeneration.from_pretrained(conditional).eval()
    genai = og.Model(str(out))
    answers: list[list[int]] = []
    for ids in prompts:
        with torch.no_grad():
            expected = model.generate(input_ids=torch.tensor([ids]), max_new_tokens=NEW_TOKENS,
                                      min_new_tokens=NEW_TOKENS, do_sample=False)[0, len(ids):].tolist()
        params = og.GeneratorParams(genai)
        params.set_search_options(max_length=len(ids) + NEW_TOKENS, min_length=len(ids) + NEW_TOKENS,
                                  do_sample=False)
        generator = og.Generator(genai, params)
        generator.append_tokens(np.array([ids], dtype=np.int32))
        while not generator.is_done():
            generator.generate_next_token()
        assert [int(t) for t in generator.get_sequence(0)][len(ids):] == expected
        answers.append(expected)
    assert len({token for answer in answers for token in answer}) > NEW_TOKENS  # not one token repeated


def test_the_hub_plan_counts_the_text_decoder_from_the_shard_headers(
        conditional: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """From the Hub: ``model_info`` says the class, the shard headers (range requests, no
    weight downloaded) say which tensors are the text decoder's."""
    import huggingface_hub
    from huggingface_hub.hf_api import ModelInfo
    from huggingface_hub.utils._safetensors import SafetensorsFileMetadata, SafetensorsRepoMetadata, TensorInfo

    from mkdocs_zh_translate.export.plan import hub_plan
    from mkdocs_zh_translate.export.textpart import read_header

    header, _ = read_header(conditional / "model.safetensors")
    tensors = {name: TensorInfo(dtype=e["dtype"], shape=e["shape"], data_offsets=tuple(e["data_offsets"]))
               for name, e in header.items() if name != "__metadata__"}
    everything = sum(t.parameter_count for t in tensors.values())
    size = (conditional / "model.safetensors").stat().st_size
    config = json.loads((conditional / "config.json").read_text(encoding="utf-8"))

    def model_info(self: object, repo_id: str, **kwargs: object) -> ModelInfo:
        return ModelInfo(id=repo_id, sha="0" * 40, config={"architectures": config["architectures"],
                                                                  "model_type": config["model_type"]},
                         siblings=[{"rfilename": "model.safetensors", "size": size},
                                   {"rfilename": "config.json", "size": 100}],
                         safetensors={"parameters": {"F32": everything}, "total": everything})

    def metadata(self: object, repo_id: str, **kwargs: object) -> SafetensorsRepoMetadata:
        files = {"model.safetensors": SafetensorsFileMetadata(metadata={}, tensors=tensors)}
        return SafetensorsRepoMetadata(metadata=None, sharded=False, files_metadata=files,
                                       weight_map=dict.fromkeys(tensors, "model.safetensors"))

    monkeypatch.setattr(huggingface_hub.HfApi, "model_info", model_info)
    monkeypatch.setattr(huggingface_hub.HfApi, "get_safetensors_metadata", metadata)
    plan = hub_plan("google/translategemma-tiny")
    assert plan is not None and plan.parameters == local_plan(str(conditional), conditional).parameters
    assert plan.parameters is not None and plan.parameters < everything
    assert plan.line(None).endswith(f"; {plan.parameters:,} parameters")


def test_sharded_weights_become_a_sharded_text_checkpoint(conditional: Path, tmp_path: Path) -> None:
    """Real checkpoints come in shards with an index (TranslateGemma-4B: two); the text part
    keeps the shards it has tensors in, with an index transformers follows, and computes what
    the conditional model's text path computes."""
    import shutil

    import torch
    from transformers import Gemma3ForCausalLM, Gemma3ForConditionalGeneration

    from mkdocs_zh_translate.export.textpart import text_part_of, write_text_part

    model = Gemma3ForConditionalGeneration.from_pretrained(conditional).eval()
    sharded = tmp_path / "sharded"
    model.save_pretrained(sharded, max_shard_size="100KB")
    for item in conditional.iterdir():  # the tokenizer files
        if item.suffix != ".safetensors" and not (sharded / item.name).exists():
            shutil.copyfile(item, sharded / item.name)
    assert len(list(sharded.glob("*.safetensors"))) > 2
    config = json.loads((sharded / "config.json").read_text(encoding="utf-8"))
    part = text_part_of(config)
    assert part is not None
    text = write_text_part(sharded, tmp_path / "text", part)
    assert (text / "model.safetensors.index.json").is_file() and (text / "tokenizer.json").is_file()
    causal = Gemma3ForCausalLM.from_pretrained(text).eval()
    ids = torch.tensor([[5, 17, 99, 3, 250, 41]])
    with torch.no_grad():
        assert torch.equal(causal(input_ids=ids).logits, model(input_ids=ids).logits)
    assert sum(p.numel() for p in causal.parameters()) == local_plan(str(sharded), sharded).parameters


def test_a_text_only_gemma3_checkpoint_is_translategemma_too() -> None:
    """The text decoder alone (``Gemma3ForCausalLM``, what the export builds) is the same family."""
    from mkdocs_zh_translate.families import FAMILIES, detect_family

    assert detect_family("gemma3_text", "GemmaTokenizer") is FAMILIES["translategemma"]
    assert detect_family("gemma3", None) is FAMILIES["translategemma"]
