"""Tests of the hardening package."""
