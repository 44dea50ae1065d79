"""`verifier spec`: the claims of a thread (or of `verifier extract` JSON) as executable
specs, written as YAML a maintainer can review and edit.

Specs that cannot run here are written anyway and say why (`needs`, `notes`, actions with
a `reason`); a spec that would not load again is never written.
"""
from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

from claims.model import Extraction
from claims.spec import Spec, SpecError, dump_specs, schema_errors


class InputProblem(Exception):
    """Input that cannot be turned into specs; the message is the one-line reason."""


def spec(source: str, output: str | None = None) -> int:
    """Write the specs of `source`'s claims (YAML on stdout, or files); 0, 1 when there is
    no claim, 2 on bad input or an unwritable output, 3 on an invalid spec."""
    try:
        specs = _specs(source)
    except (InputProblem, SpecError, OSError) as e:
        print(f"verifier spec: {_one_line(e)}", file=sys.stderr)
        return 2
    if not specs:
        print(f"verifier spec: no performance claim found in {source}", file=sys.stderr)
        return 1
    for s in specs:  # never write a file that would not load again
        errs = schema_errors(s.to_dict())
        if errs:
            print(f"verifier spec: internal error, spec {s.id} invalid: {errs[0]}",
                  file=sys.stderr)
            return 3
    if not output:
        sys.stdout.write(dump_specs(specs))
        return 0
    try:
        for path in write_specs(specs, output):
            print(path)
    except OSError as e:
        print(f"verifier spec: cannot write {output}: {e.strerror or e}", file=sys.stderr)
        return 2
    return 0


def write_specs(specs: list[Spec], output: str) -> list[str]:
    """Write to a file (multi-document) or a directory (one `<id>.yaml` each)."""
    out = Path(output)
    if output.endswith("/") or out.is_dir() or (not out.suffix and not out.exists()):
        out.mkdir(parents=True, exist_ok=True)
        paths = []
        for s in specs:
            p = out / f"{s.id}.yaml"
            p.write_text(s.to_yaml())
            paths.append(str(p))
        return paths
    out.write_text(dump_specs(specs))
    return [str(out)]


def _specs(path: str) -> list[Spec]:
    from claims.specbuild import build_specs

    return build_specs(extractions(path))


def extractions(path: str) -> Iterator[Extraction]:
    """Extractions from a message source, or from `verifier extract --format json` output.

    Lazy, so an mbox of thousands of messages is never held as extractions all at once.
    """
    data = sys.stdin.buffer.read() if path == "-" else _read(path)
    if data.lstrip()[:1] in (b"{", b"["):  # JSON, or a text starting "[PATCH ...]"
        try:
            doc = json.loads(data)
        except ValueError:
            doc = None
        if doc is not None:
            try:
                return iter(list(_from_json(doc)))
            except (ValueError, KeyError, TypeError, AttributeError, IndexError) as e:
                raise InputProblem(f"{path}: not extraction JSON: {e}") from None
    return _from_messages(path, data)


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as e:
        raise InputProblem(f"cannot read {path}: {e.strerror or e}") from None


def _from_json(doc: object) -> Iterator[Extraction]:
    from claims.spec import extraction_errors
    from claims.specbuild import extraction_from_dict

    if isinstance(doc, dict) and "messages" in doc:
        doc = doc["messages"]
    items = doc if isinstance(doc, list) else [doc]
    for i, d in enumerate(items):
        if not isinstance(d, dict):
            raise TypeError("expected an object per message")
        problems = extraction_errors(d)
        if problems:
            raise TypeError(f"message {i + 1}: {problems[0]}")
        yield extraction_from_dict(d)


def _from_messages(path: str, data: bytes) -> Iterator[Extraction]:
    from claims.extract import extract_message
    from claims.sources import InputError, iter_messages

    try:
        for msg in iter_messages(path, data=data):
            yield extract_message(msg)
    except InputError as e:
        raise InputProblem(str(e)) from None


def _one_line(e: BaseException) -> str:
    return " | ".join(str(e).splitlines()) or type(e).__name__
