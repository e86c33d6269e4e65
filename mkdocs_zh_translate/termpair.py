"""A glossary term's Chinese that remembers the English it renders.

The glossary hands a translator the Chinese each ``terms:`` entry asks for (``terms=``, one
list per text); the seq2seq engine forces those strings in its search and needs nothing else.
A decoder-only model is told the pairs in its prompt ("X translates to Y"), so it also needs
the English as it appears in the segment. Passing :class:`TermTarget` (a ``str``: every
translator that reads plain strings reads it unchanged) carries it through the markup
strategies between the glossary and the engine without a new keyword on each of them.

Import-free at the top of the package: the pipeline makes these, the engine reads them, and
neither may import the other.
"""

from __future__ import annotations


class TermTarget(str):
    """The Chinese of a glossary term (the string itself) and the English it renders (``source``)."""

    source: str

    def __new__(cls, chinese: str, source: str) -> TermTarget:
        obj = super().__new__(cls, chinese)
        obj.source = source
        return obj

    def __reduce__(self) -> tuple[type[TermTarget], tuple[str, str]]:
        return TermTarget, (str(self), self.source)  # prefill's worker processes pickle requests


def term_source(target: str) -> str | None:
    """The English a term's Chinese renders, where the glossary said (None: a plain string)."""
    return getattr(target, "source", None)
