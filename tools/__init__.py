"""Development tools, not shipped in the wheel: the tiny-model trainer and the demo site builder.

They need the repository around them (``example_site/``, ``.cache/``) and the export extra
(torch, transformers), so they live beside the package instead of inside it.
"""
