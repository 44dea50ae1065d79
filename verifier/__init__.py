"""verifier: the pipeline on top (fetch a thread, extract, run, judge, report, reply), the
bot and the `verifier` command line (`main`, verifier.cli: one sub-command per module).

Layers import one way: verifier -> runners -> claims (tests/test_layers.py): verifier
may use both faces (claims/__init__.py, runners/__init__.py); nothing imports verifier.
`main` is imported on first use (claims.lazy), so `import verifier` loads nothing else.
"""
from __future__ import annotations

from claims.lazy import TYPE_CHECKING, face

__all__ = ["main"]
__getattr__ = face(__name__, __file__)

if TYPE_CHECKING:  # what the face offers; imported on first use (claims.lazy)
    from verifier.cli import main
