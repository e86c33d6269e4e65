"""The models a tuned model succeeds, and the machine cache entries they left.

The machine cache's key holds the translator's fingerprint (the model's content and the decode
options, ``spec``): switching to another model makes every entry a miss, and a build would
translate the whole site again. A model ``tune`` made declares its predecessors in its record
(``tune.json``, covered by its manifest, so verified with the rest of the directory): the base
it was tuned from, then that model's own predecessors. A build with the tuned model looks a
miss up under each predecessor's fingerprint (same decode options), nearest first, and serves
what it finds as that model's text: the site does not change until the team asks for it
(``prefill --retranslate``). Nothing is copied or rewritten: an entry stays under the key of
the model that wrote it, so which model wrote a text is always known (``Hit.model``), and a
re-translation stores the new model's text under its own key, which is then found first.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..model_format import TUNE_FILE


def predecessors(model_dir: Path) -> list[tuple[str, str]]:
    """(manifest fingerprint, model name) of each model ``model_dir`` succeeds, nearest first;
    empty for a model ``tune`` did not make (or an unreadable record: nothing is assumed)."""
    try:
        record = json.loads((model_dir / TUNE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    lineage = record.get("lineage") if isinstance(record, dict) else None
    if not isinstance(lineage, list):
        return []
    out: list[tuple[str, str]] = []
    for item in lineage:
        if isinstance(item, dict) and isinstance(item.get("fingerprint"), str):
            name = item.get("model")
            # shown on terminals and in the review report: a name with a control or an invisible
            # (bidi) character is replaced by the fingerprint's start
            fingerprint: str = item["fingerprint"]
            if isinstance(name, str) and 0 < len(name) <= 200 and name.isprintable():
                out.append((fingerprint, name))
            else:
                out.append((fingerprint, fingerprint[:12]))
    return out
