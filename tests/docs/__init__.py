"""Tests of the docs package."""
