"""Sphinx configuration of the sample project the ``po fill`` tests translate."""

project = "Widget Toolkit"
author = "Sample Authors"
copyright = "2026, Sample Authors"
release = "1.0"

extensions: list[str] = []
exclude_patterns = ["_build", "locale"]
locale_dirs = ["locale/"]
gettext_compact = False
html_theme = "alabaster"

rst_epilog = """
.. |project| replace:: Widget Toolkit
.. |version| replace:: 1.0
"""
