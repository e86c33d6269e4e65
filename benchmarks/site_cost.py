"""What a 300-page site asks of a translator: pages, distinct segments, English words, new tokens.

    PYTHONPATH=$PWD python3 benchmarks/site_cost.py [--pages 300]

Pages: the ``docs/`` Markdown of the real-site corpus's pinned sdists (tests/realsites; the same
files ``benchmarks/wholesite.py`` reads), in a fixed order, the first ``--pages`` that segment;
the example site's pages are counted too, for comparison. A segment is what the pipeline sends to
the engine (``segment_markdown``); a site translates each distinct segment once (the cache).

New tokens: the answer's length is not measurable without the real models and tokenizers, so it
is estimated at ``TOKENS_PER_WORD`` Chinese tokens per English word: about 1.6 Chinese characters
per English word in technical prose, about 1.4 characters per token in the Qwen and Hunyuan
vocabularies (both have whole-word Chinese entries). ``benchmarks/wholesite.py`` caps opus-mt's
answers at the same rate.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

TOKENS_PER_WORD = 1.15


def _segments(text: str) -> set[str] | None:
    from mkdocs_zh_translate.segment import segment_markdown

    body = text.split("\n---\n", 1)[1] if text.startswith("---\n") and "\n---\n" in text else text
    try:
        return {s.text for s in segment_markdown(body).segments}
    except Exception:  # a page our segmenter refuses is left out, as wholesite.py does
        return None


def measure(pages: list[str]) -> dict[str, Any]:
    unique: set[str] = set()
    counted = 0
    for text in pages:
        found = _segments(text)
        if found is not None:
            unique |= found
            counted += 1
    words = sum(len(s.split()) for s in unique)
    return {"pages": counted, "segments": len(unique), "words": words,
            "new_tokens": round(words * TOKENS_PER_WORD)}


def corpus_pages(limit: int) -> list[str]:
    from benchmarks.wholesite import pages_of

    sdists = sorted((Path.home() / ".cache" / "mkdocs-zh-translate" / "realsites" / "sdists").glob("*.tar.gz"))
    out: list[str] = []
    for sdist in sdists:
        for _rel, text in pages_of(sdist):
            if _segments(text) is not None:
                out.append(text)
                if len(out) == limit:
                    return out
    return out


def site(pages: int = 300) -> dict[str, Any]:
    return measure(corpus_pages(pages))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=300)
    args = parser.parse_args()
    example = measure([p.read_text(encoding="utf-8") for p in sorted((REPO / "example_site" / "docs").rglob("*.md"))])
    print("example site:", example)
    print(f"real-site corpus, first {args.pages} pages:", site(args.pages))


if __name__ == "__main__":
    main()
