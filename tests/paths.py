"""Where the tests find the project and the shared material, for every test package."""
from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]  # the project checkout
# the read-only shared material (corpus, shapes, seeds, data) beside the checkout
SHARED = Path(os.environ.get("VERIFIER_SHARED", ROOT.parent / "shared"))
FIXTURES = ROOT / "tests" / "fixtures"
