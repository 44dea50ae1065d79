"""Spec YAML save/load and schema validation: round trips, and one clear line per error."""
from __future__ import annotations

import json

import jsonschema
import pytest

from claims.spec import (
    SCHEMA_PATH,
    Action,
    Command,
    Kernel,
    Metric,
    RunPlan,
    Source,
    Spec,
    SpecError,
    Variant,
    dump_specs,
    load_specs,
    specs_from_yaml,
)


def full_spec(spec_id: str = "netperf-abc-1") -> Spec:
    return Spec(
        id=spec_id,
        source=Source(message_id="<a@b>", author="A <a@b>", subject="[PATCH] x",
                      lines=[3, 9], quote="lpaa5:~# netperf -H lpaa6\n  9023.86  2.02\n"),
        benchmark=Command(tool="netperf", argv=["netperf", "-H", "server", "-t", "TCP_RR",
                                                "--", "-r", "40000,40000"],
                          original="./netperf -H lpaa6 -t TCP_RR -- -r 40000,40000",
                          bindings={"$peer": "server"}),
        server=Command(tool="netperf", argv=["netserver", "-D"], role="server", peer_role=None),
        variants=[
            Variant("baseline", "gro_flush_timeout=0", [Action(
                kind="sysfs", key="/sys/class/net/eth0/gro_flush_timeout", value="0",
                device="eth0", raw="echo 0 >/sys/class/net/eth0/gro_flush_timeout")]),
            Variant("candidate", "after", kernel=Kernel(base="net-next", series="<a@b>")),
        ],
        metrics=[Metric("transaction_rate", "trans/s", "higher", 9023.86, 8651.26, -4.1,
                        0.3, 10, "TCP_RR")],
        run=RunPlan(duration=20.0, seed=7),
        claimed_environment={"cpu": ["Core i7/2.80GHz"], "hosts": {"lpaa5": "client"}},
        needs=["kernel"],
        notes=["a note"],
    )


def test_schema_is_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(json.loads(SCHEMA_PATH.read_text()))


def test_yaml_round_trip_keeps_every_field():
    spec = full_spec()
    text = spec.to_yaml()
    assert Spec.from_yaml(text) == spec
    assert "quote: |" in text  # the mail's lines read as a block, not an escaped string


def test_multi_document_file(tmp_path):
    specs = [full_spec("a-1"), full_spec("a-2")]
    path = tmp_path / "s.yaml"
    path.write_text(dump_specs(specs))
    assert load_specs(path) == specs


def test_errors_are_one_line_each_with_path():
    d = full_spec().to_dict()
    d["variants"][0]["setup"][0]["kind"] = "shell"
    d["run"]["repetitions"] = -1
    del d["benchmark"]["argv"]
    d["colour"] = "blue"
    with pytest.raises(SpecError) as ei:
        Spec.from_dict(d, "f.yaml")
    lines = ei.value.problems
    assert len(lines) == 4
    assert all("\n" not in ln and ln.startswith("f.yaml: ") for ln in lines)
    joined = "\n".join(lines)
    assert "variants/0/setup/0/kind" in joined
    assert "run/repetitions" in joined
    assert "benchmark: 'argv' is a required property" in joined
    assert "'colour' was unexpected" in joined


def test_every_document_is_checked():
    good = full_spec().to_yaml()
    bad = good.replace("tool: netperf", "tool: 7", 1)
    with pytest.raises(SpecError) as ei:
        specs_from_yaml(good + "---\n" + bad, "x.yaml")
    assert ei.value.problems == ["x.yaml document 2: benchmark/tool: 7 is not of type 'string'"]


@pytest.mark.parametrize("text,fragment", [
    ("id: [unclosed", "not YAML"),
    ("", "no spec in the file"),
    ("- just\n- a list\n", "is not of type 'object'"),
])
def test_unreadable_input(tmp_path, text, fragment):
    p = tmp_path / "bad.yaml"
    p.write_text(text)
    with pytest.raises(SpecError) as ei:
        load_specs(p)
    assert fragment in str(ei.value)
    assert str(p) in str(ei.value)


def test_missing_file(tmp_path):
    with pytest.raises(SpecError, match="cannot read"):
        load_specs(tmp_path / "nope.yaml")
