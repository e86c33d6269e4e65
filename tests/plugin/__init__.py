"""Tests of the plugin package."""
