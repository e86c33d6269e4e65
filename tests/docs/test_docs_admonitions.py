"""Which admonition types ``docs`` gives title translations for: the ones a page uses without a
title, recognised as the segmenter recognises admonitions (one recogniser, not a second regex)."""

from __future__ import annotations

from mkdocs_zh_translate.docs import admonition_types

PAGE = """\
!!! note
    An untitled note.

!!!tip
    Python-Markdown takes the marker without a space too.

??? Warning "Titled"
    A titled one needs no default title.

```markdown
!!! danger
    Only an example in a code block.
```

/// details
A details block with no type shows no summary.
///

/// info
A pymdownx.blocks admonition.
///
"""


def test_untitled_admonitions_as_the_segmenter_sees_them() -> None:
    assert admonition_types(PAGE) == {"note", "tip", "info"}


def test_a_page_without_admonitions_has_none() -> None:
    assert admonition_types("# Title\n\nJust prose with !!! in it.\n") == set()
