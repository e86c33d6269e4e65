"""Tests of the pofill package."""
