"""Tests of the review package."""
