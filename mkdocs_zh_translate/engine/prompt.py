"""A decoder-only model's prompt and the reading of its answer, from the exported settings.

What differs between families (where the source, the target language, the terms and the
context go; the chat framing; which openings mean the model is talking instead of translating)
is data that ``export`` wrote into ``generation.json`` from the family's entry
(``families.PROMPT_FORMS``); this module fills it in and checks answers, and knows no family.

An answer is taken only when it is exactly one translation of the segment: the model stopped
by itself (a stop token, not the length limit: a runaway), said something, did not open with a
preamble ("Translation:"), and wrote no more lines than the source has (a second answer or an
explanation starts a new line). Anything else is *refused*: the translator returns an empty
text, which the fallback ladder rejects and takes down its steps, and counts the reason.
Every check is a plain string test, linear in the answer (model output is untrusted).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import EngineError

#: Why an answer was refused, as counted by the translator (``GenaiTranslator.refused``).
REFUSALS = ("runaway", "empty", "preamble", "extra_lines")


@dataclass(frozen=True)
class Prompt:
    """The exported prompt of one model directory (``generation.json``'s ``prompt``).
    ``target``: the name of the Chinese it asks for (the export's, or :func:`target_name`'s)."""

    instruction: str
    with_terms: str
    term_line: str
    context_block: str
    target: str
    before: str
    after: str
    preambles: tuple[str, ...]

    @classmethod
    def of(cls, data: Mapping[str, Any], where: str) -> Prompt:
        """Read the settings' ``prompt`` table; one :class:`EngineError` line when malformed."""
        try:
            before, after = data["frame"]
            prompt = cls(str(data["instruction"]), str(data.get("with_terms", "")), str(data.get("term_line", "")),
                         str(data.get("context_block", "")), str(data["target"]), str(before), str(after),
                         tuple(str(p) for p in data.get("preambles", ())))
        except (KeyError, TypeError, ValueError):
            raise EngineError(f"{where}: malformed prompt settings") from None
        if "{source}" not in prompt.instruction:
            raise EngineError(f"{where}: the prompt has no {{source}} slot")
        return prompt

    @property
    def takes_terms(self) -> bool:
        """Whether the family documents a form for glossary terms."""
        return bool(self.with_terms and self.term_line)

    def render(self, source: str, terms: Sequence[tuple[str, str]] = (), context: str = "") -> str:
        """The whole prompt for ``source``: the chat framing around the user message.

        ``terms``: (English, Chinese) pairs the segment contains; ``context``: text before it
        on the page ("" : none). Slots are filled with ``str.replace``, one pass per slot in
        a fixed order, so a brace in the source or a term is never read as a slot."""
        if terms and self.takes_terms:
            lines = "\n".join(self.term_line.replace("{term}", a).replace("{translation}", b) for a, b in terms)
            message = self.with_terms.replace("{terms}", lines)
        else:
            message = self.instruction
        if context and self.context_block:
            message = self.context_block.replace("{context}", context) + message
        message = message.replace("{target}", self.target)
        head, _, tail = message.partition("{source}")
        return self.before + head + source + tail + self.after

    def refusal(self, answer: str, source: str, stopped: bool) -> str | None:
        """Why ``answer`` is not exactly one translation of ``source`` (None: it is)."""
        if not stopped:
            return "runaway"
        text = answer.strip()
        if not text:
            return "empty"
        if any(text.startswith(p) for p in self.preambles if p):
            return "preamble"
        if text.count("\n") > source.strip().count("\n"):
            return "extra_lines"
        return None


def exported_targets(settings: Mapping[str, Any]) -> dict[str, str]:
    """The Chinese variants a decoder-only export can be asked for, each with the name its
    prompt gives it: the export's ``prompt.targets`` (every name its family has) and its own
    variant, the only one an export made before those were written can be asked for."""
    prompt = settings.get("prompt")
    prompt = prompt if isinstance(prompt, Mapping) else {}
    named = prompt.get("targets")
    found = {str(k): str(v) for k, v in named.items()} if isinstance(named, Mapping) else {}
    variant, target = settings.get("variant"), prompt.get("target")
    if isinstance(variant, str) and isinstance(target, str):
        found.setdefault(variant, target)
    return found


def target_name(settings: Mapping[str, Any], target: str, where: str) -> str:
    """What ``{target}`` says when the engine option ``target`` asks for ``target`` (``zh-TW``):
    the export's name for it, as data; one :class:`EngineError` line when it names none (the
    model is never asked for another Chinese than the one wanted)."""
    names = exported_targets(settings)
    if target not in names:
        raise EngineError(f"{where}: this model's prompt names no {target} target (it names "
                          f"{', '.join(sorted(names)) or 'none'}); convert the Simplified text instead "
                          "(option variants, `via: convert`)")
    return names[target]
