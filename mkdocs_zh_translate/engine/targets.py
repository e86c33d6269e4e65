"""Which Chinese a multi-target model writes: the target code put before the source, or the
language token forced as the first target token.

A multi-target opus-mt model writes the language whose ``>>code<<`` token starts the source;
the export chose the Simplified one (``generation.json``'s ``target_prefix``). Asked for another
variant (``target``), the engine takes the first code the model families list for it that this
model's vocabulary offers (``families.py``, read as data: every family told by a prefix), or
refuses in one line when the model has none: a single-target model writes only its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..families import FAMILIES, SIMPLIFIED
from .errors import EngineError


def target_prefix(tokenizer: dict[str, Any], target: str | None, model_dir: Path) -> str | None:
    """The source prefix that asks the model for ``target`` (None or Simplified: the export's)."""
    exported: str | None = tokenizer.get("target_prefix")
    if target is None or target == SIMPLIFIED or tokenizer.get("target_language_ids"):
        return exported  # a forced-first-token model (M2M100, NLLB) is asked by ``forced_target``
    offered = set(tokenizer.get("language_codes") or ())
    wanted = [code for family in FAMILIES.values() if family.target_mechanism == "prefix"
              for code in family.target_codes.get(target, ())]
    for code in wanted:
        if code in offered and exported is not None:
            return code
    raise EngineError(
        f"{model_dir}: this model cannot be asked for {target} (it offers none of {', '.join(wanted) or 'no code'}); "
        "convert the Simplified text instead (option variants, `via: convert`)"
    )


def forced_target(settings: dict[str, Any], target: str | None, model_dir: Path) -> int | None:
    """The id forced as the first target token: the export's (its default variant) unless
    ``target`` asks for another variant, which a forced-first-token model (M2M100, NLLB) names in
    ``tokenizer.target_language_ids``; a model without one for it is refused in one line."""
    exported = settings.get("forced_bos_token_id")
    ids: dict[str, int] = settings["tokenizer"].get("target_language_ids") or {}
    if target is None or target == SIMPLIFIED or not ids:
        return None if exported is None else int(exported)
    if target not in ids:
        raise EngineError(
            f"{model_dir}: this model cannot be asked for {target} (it writes {', '.join(sorted(ids))}); "
            "convert the Simplified text instead (option variants, `via: convert`)"
        )
    return int(ids[target])
