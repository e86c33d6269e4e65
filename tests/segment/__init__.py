"""Tests of the segment package."""
