"""Tests of the export package."""
