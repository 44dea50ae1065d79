"""claims: mail in, claims and specs out.  Nothing here runs a benchmark.

The face of the package, what runners/ and verifier/ may call: read messages
(`iter_messages`, `message_from_text`), extract their claims (`extract_message`), build
specs (`build_specs`), load and dump them (`load_specs`, `dump_specs`), check them before
anything runs (`check_spec`), the tool descriptions (`tool_for_program`, `all_tools`), and
how far a stated change may be from its numbers (`stated_tolerance`), and a change stated
by its merit as the way its measure moves (`as_way`).
The modules behind these names (claims.spec, claims.safety, ...) stay importable.

Layers import one way: verifier -> runners -> claims (tests/test_layers.py): nothing in
claims imports runners or verifier.  Each name is imported on first use (claims.lazy),
so `import claims` loads no HTML parser, YAML or schema library until one is needed.
"""
from __future__ import annotations

from claims.lazy import TYPE_CHECKING, face

__all__ = [
    "one_line", "printable", "extract_message", "might_have_claims", "fill_lines",
    "message_from_text", "Claim", "Extraction", "Message", "Value", "MAX_DURATION",
    "MAX_REPETITIONS", "blocking", "check_command", "check_spec", "InputError", "iter_messages",
    "Action", "Command", "Kernel", "Metric", "RunPlan", "Spec", "SpecError", "Variant",
    "dump_specs", "extraction_errors", "load_specs", "sample_name", "schema_errors",
    "build_specs", "extraction_from_dict", "Refused", "Sample", "ToolDescription", "all_tools",
    "tool_for_program", "tool_programs", "invocation", "stated_tolerance", "as_way",
]
__getattr__ = face(__name__, __file__)

if TYPE_CHECKING:  # what the face offers; imported on first use (claims.lazy)
    from claims.clean import one_line, printable
    from claims.extract import extract_message, might_have_claims
    from claims.message import fill_lines, message_from_text
    from claims.model import Claim, Extraction, Message, Value
    from claims.numbers import as_way, stated_tolerance
    from claims.safety import (
        MAX_DURATION,
        MAX_REPETITIONS,
        blocking,
        check_command,
        check_spec,
    )
    from claims.shell import invocation
    from claims.sources import InputError, iter_messages
    from claims.spec import (
        Action,
        Command,
        Kernel,
        Metric,
        RunPlan,
        Spec,
        SpecError,
        Variant,
        dump_specs,
        extraction_errors,
        load_specs,
        sample_name,
        schema_errors,
    )
    from claims.specbuild import build_specs, extraction_from_dict
    from claims.tools import (
        Refused,
        Sample,
        ToolDescription,
        all_tools,
        tool_for_program,
        tool_programs,
    )
