"""The test suite: one package per project package (claims, runners, verifier), the
shared kits (lore, botkit, ...) beside them, and tests/paths.py for where things are."""
