"""claims.headings: claims only their numbers tell apart take the heading they stand under.

Inputs are invented messages written the way real mail writes the structure (one
comparison run on two machines under numbered sections, one per lock type under a line
that names it); none of their words is named in the code.
"""
from __future__ import annotations

from claims.extract import extract_message
from claims.message import message_from_text


def _claims(text: str) -> list[tuple[str | None, str, float, float]]:
    ex = extract_message(message_from_text("Subject: [PATCH] x\n\n" + text))
    return [(c.context, c.metric, c.baseline.value, c.candidate.value)
            for c in ex.claims if c.baseline is not None and c.candidate is not None]


def _machine(n: int, cpu: str, before: tuple[str, str, str], after: tuple[str, str, str]) -> str:
    def side(label: str, values: tuple[str, str, str]) -> str:
        return (f"{label}:\nSystem Benchmarks Index Values      BASELINE       RESULT\n"
                f"Execl Throughput                        43.0   {values[0]}\n"
                f"Pipe Throughput                      12440.0   {values[1]}\n"
                f"Process Creation                       126.0   {values[2]}\n\n")

    return f"{n}. Machine configuration:\n{cpu}\nMemory: 256G\n\n" + side("Before the patch", before) \
        + side("After the patch", after)


def test_one_comparison_on_two_machines_is_told_apart_by_its_section() -> None:
    """UnixBench's index run before and after the patch on each of two machines, each
    under "N. Machine configuration:": the same metrics under the same labels twice."""
    text = _machine(1, "Xeon Silver 4210", ("43453.2", "46482107.6", "85442.2"), ("45054.8", "46466394.2", "85653.1")) \
        + _machine(2, "Hygon C86 7185", ("10108.6", "118905512.5", "40213.0"), ("10213.9", "118002311.9", "41872.4"))
    got = _claims(text)
    assert len(got) == 6
    assert {(ctx, v) for ctx, _, v, _ in got} == {
        ("1. Machine configuration", 43453.2), ("1. Machine configuration", 46482107.6),
        ("1. Machine configuration", 85442.2), ("2. Machine configuration", 10108.6),
        ("2. Machine configuration", 118905512.5), ("2. Machine configuration", 40213.0)}


def test_one_machine_keeps_its_claims_as_they_are() -> None:
    """Claims told apart by their metric already take no heading: the pass acts only where
    the numbers alone would tell two claims apart."""
    got = _claims(_machine(1, "Xeon Silver 4210", ("43453.2", "46482107.6", "85442.2"),
                           ("45054.8", "46466394.2", "85653.1")))
    assert len(got) == 3 and not any("Machine" in (ctx or "") for ctx, *_ in got)


def test_each_under_a_line_of_its_own_takes_that_line() -> None:
    """The nearest headings differ ("... with spinlock" / "... with rwlock"), so each claim
    takes its own, not only the later one that also has the earlier above it."""
    def side(name: str, spin: str, rw: str) -> str:
        return (f"{name}\n\nRunning locktest with spinlock [runtime = 10s]\nTotal Rate = {spin} op/s\n\n"
                f"Running locktest with rwlock [runtime = 10s]\nTotal Rate = {rw} op/s\n\n")

    got = _claims(side("Before the patch:", "1,441,759", "860,192") + side("After the patch:", "1,992,004", "4,231,377"))
    assert sorted(got) == [("Running locktest with rwlock [runtime = 10s]", "Total Rate", 860192, 4231377),
                           ("Running locktest with spinlock [runtime = 10s]", "Total Rate", 1441759, 1992004)]


def test_a_line_that_starts_a_sentence_is_no_heading() -> None:
    """A line the next one finishes ("Sending" over "1024 byte packets go from 570 to 640
    kpps.") is prose: the claims under it stay as the readers named them."""
    text = ("Sending\n64 byte packets go from 356kpps to 473kpps.\n\n"
            "Sending\n1024 byte packets go from 570kpps to 640kpps.\n")
    got = _claims(text)
    assert [v for *_, v in got] == [473, 640] and {ctx for ctx, *_ in got} == {None}
