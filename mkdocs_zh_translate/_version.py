"""The package's version, in a module of its own.

Here rather than in ``__init__`` so that the pipeline (reports, the guard's cache key) can read
it without importing the package facade, which re-exports pipeline names: no import circle.
"""

__version__ = "0.1.0"
