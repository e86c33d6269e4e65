"""Tests of the prefill package."""
