"""Tests of the pipeline package."""
