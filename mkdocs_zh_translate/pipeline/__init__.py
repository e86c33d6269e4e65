"""The one translation pipeline: every front end translates through it.

Front ends (the plugin, ``md``, ``po fill``, ``review sync``, ``docs`` and ``prefill``) only
gather inputs and write outputs; everything in between is here, once::

    texts (+ droppable pairs) ─> cache key ─> machine cache ─> lazy model ─> glossary
        ─> ladder (ladder.translate_segments) ─> store ─> page guard ─> splice

- ``translator`` the ``Translator`` protocol and the pseudo backend; ``backends`` picks one
- ``ladder``    the fallback ladder: validate each model output, retry down to English
- ``markup``    markup strategies: how placeholders get through the model (registered by name)
- ``cache``     the machine cache (diskcache) and ``TranslationMemory``
- ``glossary``  fixed terms (glossary.yml, untrusted)
- ``spec``      translator spec, fingerprints, ``PIPELINE_FORMAT`` (what a cached text is worth)
- ``lazy``      the lazily loaded model, ``TranslationFailed``
- ``origin``    ``Origin``: where a translation came from
- ``progress``  the progress reporter
- ``service``   ``TranslationService``: key, lookup/store, model, glossary, fallback policy, guard
- ``pages``     ``SiteTranslator``: many pages and strings in one pass, reviewed text first
- ``markdown``  ``translate_markdown``: one Markdown text
- ``guard``     the page guard (compares the zh page's structure with the English one)

This file imports nothing, so ``cache`` can use ``origin`` without an import cycle.
"""
