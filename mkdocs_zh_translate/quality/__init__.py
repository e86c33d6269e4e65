"""``eval``: the quality of *this* model on *these* docs, against the team's own Chinese.

``references`` reads what to score against (reviewed PO entries of a site, or a TSV file),
``run`` sends the English through the build's own pipeline (segments with placeholders, the
markup strategy, the fallback ladder, the glossary) and ``metrics`` scores what comes back
(chrF and BLEU via sacrebleu, the ``eval`` extra; structural counts; English left; lengths).
"""
