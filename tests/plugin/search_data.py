"""Data shared by the browser test and the tests that run without a browser (no tests here)."""

# The separator Material's docs suggest for English (`search: separator:`): it has no U+200B,
# the mark the Chinese index is cut into words with.
MATERIAL_DOCS_SEPARATOR = r"""[\s\-,:!=\[\]()"`/]+|\.(?!\d)|&[lg]t;|(?!\b)(?=[A-Z][a-z])"""
