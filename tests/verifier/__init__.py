"""Tests of the `verifier` package."""
