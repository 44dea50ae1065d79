"""Tests of the `runners` package."""
