"""A reference TSV for ``mkdocs-zh-translate eval`` from the tiny models' synthetic task.

The demo/test models learn an invented task (``export_tiny``), so the right Chinese of every
sentence is known: ``markup_set`` makes held-back sentences with inline markup and their exact
targets. This writes them as ``eval`` reads a TSV: ``english<TAB>reference``, both readable
Markdown as in a PO entry (emphasis ``**…**``, links, images, code spans, autolinks). A case
is kept only when the segmenter reads its Markdown back as exactly the case's placeholder text
(footnote marks, which need a definition line, are left out).

    python -m tools.eval_set --n 100 > example_site/eval.tsv
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence

from mkdocs_zh_translate.segment import segment_markdown, to_readable, tokenize

from .markup_set import MarkupCase, markup_set


def to_markdown(case: MarkupCase) -> str:
    """The case's source as Markdown: each placeholder as the markup of its kind."""
    out: list[str] = []
    emphasis_depth = 0
    for kind, value in tokenize(case.source):
        if kind == "text":
            out.append(str(value))
            continue
        num = int(value)
        what = case.kinds.get(num, "")
        if kind == "atom":
            out.append(f"`code{num}`" if what == "code" else f"<https://example.com/u{num}>")
        elif kind == "open":
            if what == "emphasis":
                out.append("**" if emphasis_depth % 2 == 0 else "*")
                emphasis_depth += 1
            else:
                out.append("![" if what == "image" else "[")
        elif what == "emphasis":
            emphasis_depth -= 1
            out.append("**" if emphasis_depth % 2 == 0 else "*")
        else:
            out.append(f"](img/{num}.png)" if what == "image" else f"](page{num}.md)")
    return "".join(out)


def rows(n: int, seed: int = 0) -> Iterator[tuple[str, str]]:
    """Up to ``n`` (english, reference) rows, from the first cases of ``markup_set`` that
    survive the Markdown round trip."""
    for case in markup_set(n * 3, seed):
        if "footnote" in case.kinds.values():
            continue
        english = to_markdown(case)
        segments = segment_markdown(english).segments
        if len(segments) != 1 or segments[0].text != case.source:
            continue
        yield english, to_readable(segments[0], case.reference)
        n -= 1
        if not n:
            return


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.eval_set", description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print("# english<TAB>reference: the tiny models' synthetic task (python -m tools.eval_set)")
    for english, reference in rows(args.n, args.seed):
        print(f"{english}\t{reference}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
