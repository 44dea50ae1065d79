"""One lexicon of variant cues, scored: how strongly a label names the baseline or a candidate.

Every stage that meets two labelled sides (table rows and columns, output blocks, prose
lines) asks the same question: which side is "before"?  Authors answer it in many ways:

* role words: "Before", "Prior", "unpatched", "vanilla", "net-next" / "After", "patched";
* states of a feature: "off", "disabled" / "on", "enabled";
* a negation anywhere in the label: "No HW csum patch", "without prefetch", "w/o GRO";
* the change itself: "this patch", "the series", "patch 3", "v2" (against "v1");
* the relation between labels: "udp" against "udp gso" (the label that extends the other
  names the addition), "v1" against "v3";
* the message's subject: a label naming what the patch adds ("batched" under "batch
  datagrams in sendmsg", "rcu" under "convert the table to RCU") is the candidate.

`cue` scores one label: negative for a baseline, positive for a candidate, near zero for a
label that says nothing.  Role words are *heads* that govern the words after them: in
"before the patch" and "no HW csum patch" the head decides the side, not "patch".
`rank` compares the labels of one comparison and adds the relational cues; the baseline is
the label with the lowest score.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

# word -> weight; a negative weight names the baseline side.
_HEADS: dict[str, float] = {
    # relational heads: they take the side for the words that follow them
    "before": -1.0, "without": -1.0, "w/o": -1.0, "prior": -1.0, "pre": -0.8,
    "after": 1.0, "with": 0.7, "w/": 0.7, "post": 0.8, "plus": 0.6, "+": 0.7,
}
_NEGATIONS = frozenset({"no", "not", "non", "without", "w/o", "disable", "disabled", "minus", "sans"})
_WORDS: dict[str, float] = {
    # the unchanged side
    "old": -1.0, "original": -1.0, "orig": -1.0, "base": -1.0, "baseline": -1.0, "base-line": -1.0,
    "unpatched": -1.0, "un-patched": -1.0, "vanilla": -1.0, "stock": -0.9, "mainline": -0.8,
    "upstream": -0.8, "previous": -0.9, "prev": -0.9, "prior": -1.0, "reference": -0.9, "ref": -0.6,
    "unmodified": -1.0, "master": -0.7, "parent": -0.7, "default": -0.6, "current": -0.5,
    "existing": -0.7, "legacy": -0.7, "revert": -0.8, "reverted": -0.8,
    "=off": -0.35, "disabled": -0.35, "disable": -0.35, "none": -0.3, "unoptimized": -0.9,
    "unoptimised": -0.9, "clean": -0.5,
    # the time a sentence sets its numbers in: "previously 2.1 Mpps, now 2.9 Mpps"
    "previously": -0.9, "originally": -0.9, "formerly": -0.9,
    # the changed side
    "new": 1.0, "patched": 1.0, "patch": 0.7, "patches": 0.7, "patchset": 0.7, "series": 0.7,
    "fix": 0.7, "fixed": 0.8, "proposed": 0.9, "optimized": 0.8, "optimised": 0.8,
    "modified": 0.8, "=on": 0.35, "enabled": 0.35, "enable": 0.35, "applied": 0.8,
    "improved": 0.7, "changed": 0.5, "batch": 0.5, "batched": 0.5, "zero-copy": 0.5,
    "zerocopy": 0.5,
}
_TEMPORAL = frozenset({"before", "after", "prior", "pre", "post"})
_OBJECT_WORDS = frozenset({"patch", "patches", "patchset", "series", "fix", "this", "change", "changes",
                           "commit", "the", "my", "it", "them", "applied", "set"})
_BARE_WEAK = {"with": 0.35, "w/": 0.35, "plus": 0.35, "+": 0.5, "without": -0.7, "w/o": -0.7}
_STRONG_OBJECTS = frozenset({"patch", "patches", "patchset", "series", "fix", "change", "changes", "commit",
                             "it", "them", "applied"})
_NEXT_TREE = re.compile(r"(?i)^(?:[a-z]+-next(?:-\d+)?|next-\d{6,8})$")
_VERSION = re.compile(r"(?i)^v(\d{1,2})$")
_PATCH_NUMBER = re.compile(r"^(?:#\d{1,3}|\d{1,2}/\d{1,2})$")
# a name ends before a "+" that adds another ("v6.6+fix": "v6.6", "fix"), not at one inside it ("c++")
_TOKEN = re.compile(r"(?i:w/o|w/)|(?<![\w+])\+(?=[A-Za-z])|[A-Za-z](?:[\w.-]|\+(?![A-Za-z]))*[A-Za-z0-9]|[A-Za-z]"
                    r"|#\d+|\d+/\d+")
_STOP = frozenset("a an the of for in on at to and or is are was were by from as it its this that "
                  "we i our my kernel mode case test run runs result results numbers data".split())

BASELINE_AT = -0.45  # a label scoring at or below this names the baseline on its own
CANDIDATE_AT = 0.45


@dataclass(frozen=True)
class Cue:
    """What a label says about its side: a score and the words that gave it."""

    score: float
    reasons: tuple[str, ...] = field(default_factory=tuple)

    @property
    def role(self) -> str | None:
        if self.score <= BASELINE_AT:
            return "baseline"
        if self.score >= CANDIDATE_AT:
            return "candidate"
        return None


_STATE_END = re.compile(r"\s*(?:$|[,;:)(/|=]|\s{2,}|\s+(?:and|vs\.?|versus)\b)")


def words(label: str) -> list[str]:
    """The label's words, lower-cased: "w/o", "w/", "net-next", "#3" stay whole.  A state
    word that ends a phrase ("coalescing on", "gro off,") becomes "=on" / "=off", so the
    preposition in "tested on arm64" is not read as a state."""
    text = label[:200]
    out: list[str] = []
    for m in _TOKEN.finditer(text):
        w = m.group().lower()
        if w in ("on", "off") and out and _STATE_END.match(text, m.end()):
            w = "=" + w
        if w == "+" and out:  # "+patch-set" opens a label; '"+map" is ...' inside one is a name
            continue
        out.append(w)
    return out


def _word_weight(w: str) -> float | None:
    if w in _WORDS:
        return _WORDS[w]
    if _NEXT_TREE.match(w):
        return -0.9
    if _PATCH_NUMBER.match(w):
        return 0.6
    if w.startswith("un") and w[2:] in ("patched", "modified", "optimized", "optimised"):
        return -1.0
    if w.startswith("non-") and len(w) > 4:
        return -0.6
    if "-" in w:  # "before-patch", "patch-set": a head in the compound decides, else its cue word
        parts = w.split("-")
        head = next((_HEADS[p] for p in parts if p in _HEADS), None)
        if head is not None:
            return head
        return next((_WORDS[p] for p in parts if p in ("patch", "patched", "series", "fix", "fixed")), None)
    return None


@lru_cache(maxsize=2048)  # labels recur near each other; 8,192 Cues held 3 MiB of peak RSS
def cue(label: str | None) -> Cue:
    """Score one label on its own words (see the module docstring)."""
    if not label:
        return Cue(0.0)
    base, plus, added = label.rpartition(" + ")
    if plus and base.strip() and added.strip():
        # "net-next + this series": what is added to a tree or release names the side; a
        # baseline's word before the "+" is what it is added to
        after = cue(added)
        if after.score > 0:
            return after
    ws = words(label)
    sentence = len(ws) >= 4 and label.rstrip().endswith((".", "!", "?"))
    heads = plain = 0.0
    strong = False
    reasons: list[str] = []
    governed: set[int] = set()
    first = True
    for i, w in enumerate(ws):
        if i in governed:
            continue
        if w in _NEGATIONS and w not in _HEADS:
            # "no HW csum patch", "not applied", "disable GRO": the negation takes the side
            # of every cue word after it
            rest = [k for k in range(i + 1, min(len(ws), i + 6))
                    if (_word_weight(ws[k]) or 0.0) > 0 or _HEADS.get(ws[k], 0.0) > 0]
            # "no X" alone ("no hint", "no GRO") leans to the baseline; a context (a 0% row)
            # may say otherwise
            weight = -1.0 if rest else -0.5 if w in ("no", "non") and len(ws) > i + 1 else _WORDS.get(w, 0.0)
            governed.update(rest)
            strong = strong or any(ws[k] in _STRONG_OBJECTS for k in rest)
            if weight:
                heads += weight * (1.1 if first else 1.0)
                reasons.append(w)
                first = False
            continue
        if w in _HEADS and _HEADS[w]:
            # "before the patch", "after applying this series": the head decides, the cue
            # words after it agree, up to the next head (or a word that says otherwise:
            # "after revert")
            opposed = False
            for k in range(i + 1, len(ws)):
                if ws[k] in _HEADS or ws[k] in _NEGATIONS:
                    break
                wk = _word_weight(ws[k])
                if wk is not None and wk * _HEADS[w] < 0 and ws[k] not in _OBJECT_WORDS:
                    # "with the old kernel", "with baseline": a bare "with" names its object,
                    # whose own word gives the side
                    opposed = w in _BARE_WEAK and abs(wk) >= 0.6 and all(
                        ws[j] in ("the", "a", "an", "our", "my") for j in range(i + 1, k))
                    break
                if wk is not None or ws[k] in _OBJECT_WORDS:
                    governed.add(k)
                    strong = strong or ws[k] in _STRONG_OBJECTS
            weight = _HEADS[w]
            if opposed:
                continue
            if w in _TEMPORAL and sentence and not any(ws[k] in _STRONG_OBJECTS for k in governed if k > i):
                # "This is the number before VM execution.": in a sentence, a "before" or
                # "after" that governs no change dates a step of a procedure, not a side
                continue
            if w in _BARE_WEAK and not any(k in governed for k in range(i + 1, len(ws))):
                # "with prefetch", "running with spinlock": a bare "with" names an addition
                # only against a label without it; "without X" still leans to the baseline
                weight = _BARE_WEAK[w]
            heads += weight * (1.1 if first else 1.0)
            reasons.append(w)
            first = False
            continue
        word = _word_weight(w)
        if word:
            strong = strong or abs(word) >= 0.9
            plain += word * (1.1 if first else 1.0)
            reasons.append(w)
            first = False
    # "modified without the patch": the head names the side, the adjective beside it
    # describes the setup
    total = heads + (0.5 * plain if heads else plain)
    if (len(ws) > 8 or sentence) and not strong:
        # a sentence ("I ran it with 8 queues on the new box"): its "with" or "new" is
        # grammar, not a side; only a head governing the change, or a word naming a side
        # outright ("unpatched", "baseline", "net-next"), counts in full
        total *= 0.4
    return Cue(max(-3.0, min(3.0, total)), tuple(reasons))


def role(label: str | None) -> str | None:
    return cue(label).role


def side_word_pattern() -> re.Pattern[str]:
    """Text holding a word `cue` can score on its own (a head, a negation, a cue word, a
    "-next" tree, a version, a state ending its phrase): a label without one names a
    side only by its relation to other labels.  The pre-scan looks for these, so the
    lexicon's words are written once, here."""
    plain = {w for w in (*_HEADS, *_NEGATIONS, *_WORDS) if not w.startswith("=")}
    return re.compile(rf"(?i)(?<![A-Za-z]){_trie(plain)}(?![A-Za-z])|[a-z]-next\b|\bnext-\d|\bv\d|\b(?:un|non-)[a-z]"
                      rf"|\b(?:on|off)\b(?={_STATE_END.pattern})")


def _weighted(sign: int) -> set[str]:
    """The words `cue` weighs on their own with that sign: a head, a cue word, a bare head
    (a state as "=on"/"=off"), and for a negative sign the negations."""
    return {w for table in (_HEADS, _WORDS, _BARE_WEAK) for w, weight in table.items() if weight * sign > 0} \
        | (set(_NEGATIONS) if sign < 0 else set())


def signed_words(sign: int, more: frozenset[str] = frozenset(), tokens: str = "") -> re.Pattern[str]:
    """A search of lower-cased ASCII text for a word `cue` weighs on its own with that sign (a
    head, a cue word, a bare head; a state "on"/"off"; for a negative sign the negations), or
    one of `more`, where no letter follows it; or one of `tokens` (a pattern). A label none of
    whose words is one of these, nor a "-next" tree, an "un-"/"non-" word or a patch number
    (given in `tokens` by the caller), scores no lower (no higher) than zero."""
    words = {w.lstrip("=") for w in _weighted(sign)} | set(more)
    plain = {w for w in words if w.isascii() and all(ch.isalpha() or ch == "-" for ch in w)}
    return re.compile(rf"{_trie(plain)}(?![a-z]){tokens}")  # "w/", "w/o", "+x": tokens whatever follows


def baseline_word_pattern() -> re.Pattern[str]:
    """Text holding a word that can pull `cue`'s score below zero: a negation, a head or a
    word of negative weight, a "-next" tree, an "un-patched" or "non-" word, a state "off"
    ending its phrase. Every other word scores zero or more, so a label without one of
    these never names the baseline (the pre-scan asks this before scoring a long head)."""
    negative = {w for w in _weighted(-1) if not w.startswith("=")}
    return re.compile(rf"(?i)(?<![A-Za-z]){_trie(negative)}(?![A-Za-z])|[a-z]-next\b|\bnext-\d"
                      rf"|\bun-?(?:patched|modified|optimi[sz]ed)\b|\bnon-[a-z]|\boff\b(?={_STATE_END.pattern})")


def _trie(words: set[str]) -> str:
    """One alternation of `words` written as a tree of their common prefixes ("b(?:a(?:se|
    tch)|efore)"): the regex engine tries each next letter once, not every word at every
    position (half the cost).  It matches what the flat alternation, longest word first,
    matches: an optional rest is greedy, so a longer word is tried before its prefix."""
    children: dict[str, set[str]] = {}
    for w in words:
        if w:
            children.setdefault(w[0], set()).add(w[1:])
    alts = [re.escape(ch) + _trie(rest) for ch, rest in sorted(children.items())]
    if not alts:
        return ""
    body = alts[0] if len(alts) == 1 and "" not in words else f"(?:{'|'.join(alts)})"
    return f"{body}?" if "" in words else body


_SUBJECT_PREFIX = re.compile(r"^(?:\s*(?:re|fwd?|aw)\s*:\s*)*(?:\[[^\]]*\]\s*)*(?:[\w/.-]+:\s+)*", re.I)


def subject_words(subject: str | None) -> frozenset[str]:
    """Stems of what a patch subject says it does: "[PATCH net-next] foo: batch datagrams in
    sendmsg" -> {"batch", "datagram", "sendmsg"}; the bracket tags and "subsys:" are dropped."""
    if not subject:
        return frozenset()
    text = _SUBJECT_PREFIX.sub("", subject[:300])
    return frozenset(_stem(w) for w in content_words(text) if len(w) >= 3)


def _stem(w: str) -> str:
    for suf in ("ing", "ed", "es", "s"):
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            w = w[: -len(suf)]
            break
    return w.rstrip("e") if len(w) > 4 else w


def content_words(label: str) -> list[str]:
    """What a label names beside its role words ("batched" stays: a weak cue is content too)."""
    return [w for w in words(label) if w not in _STOP and abs(_word_weight(w) or 0.0) < 0.7
            and w not in _HEADS and w not in _NEGATIONS and not w.startswith("=")]


def rank(labels: Sequence[str | None], subject: str | None = None, *, containment: bool = True) -> list[float]:
    """One score per label of a comparison: its own cue plus what the other labels and the
    subject say ("udp" < "udp gso", "v1" < "v2", a label naming the subject's change).
    `containment` off: names of one metric ("RX packets" / "RX packets dropped") are
    not read as a thing and its addition."""
    own = [cue(lab) for lab in labels]
    scores = [c.score for c in own]
    contents = [set(content_words(lab or "")) for lab in labels]
    for i, a in enumerate(labels):
        if not a:
            continue
        for j, b in enumerate(labels):
            if i == j or not b:
                continue
            ca, cb = contents[i], contents[j]
            if containment and ca and cb and _extends(ca, cb) and _numbers(a) == _numbers(b) \
                    and own[i].role is None:
                # "udp" inside "udp gso": b names an addition (when the words say nothing)
                scores[i] -= 0.4
                scores[j] += 0.4
            if adds_to(a, b):  # "Upstream codebase" / "Upstream codebase with page pool"
                scores[i] -= 0.4
                scores[j] += 0.6
            va, vb = _version(a), _version(b)
            if va is not None and vb is not None and va < vb:
                scores[i] -= 0.5
                scores[j] += 0.5
    lone = lone_release(labels)
    if lone is not None:
        scores[lone] -= 0.5
    subj = subject_words(subject)
    if subj:  # the words that tell the labels apart ("polled tx" / "plain tx": polled, plain)
        common = set.intersection(*contents) if contents else set()
        hits = [bool({_stem(w) for w in contents[i] - common} & subj) for i in range(len(labels))]
        if any(hits) and not all(hits):
            for i, hit in enumerate(hits):
                if hit:
                    scores[i] += 0.4
    return scores


_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _extends(ca: set[str], cb: set[str]) -> bool:
    """True when label b names what a names plus a little more: "udp" / "udp gso", "copy"
    / "zerocopy", "rc4" / "rc4-qlock"."""
    if len(ca) > 3 or ca == cb:
        return False
    if ca < cb:
        return len(cb - ca) <= 2

    def part_of(w: str, v: str) -> bool:
        return w != v and (v.endswith(w) or v.startswith(w) or w in v.split("-")) and len(w) >= 3

    return len(ca) == len(cb) and all(w in cb or any(part_of(w, v) for v in cb) for w in ca)


_ADDING = frozenset({"with", "w/", "plus", "+"})


def adds_to(a: str, b: str) -> bool:
    """True when label b is label a and then what is added to it: "Upstream codebase" /
    "Upstream codebase with page pool support", "baseline" / "baseline + patch 3"."""
    wa, wb = words(a), words(b)
    return 0 < len(wa) < len(wb) and wb[:len(wa)] == wa and wb[len(wa)] in _ADDING and len(wb) > len(wa) + 1


def extended_by(a: str, b: str) -> bool:
    """True when label b is label a and more ("v6.6" / "v6.6+fix", "mm-unstable" /
    "mm-unstable + this series"): where b names the change, a is what it was made to."""
    wa, wb = words(a), words(b)
    return 0 < len(wa) < len(wb) and wb[:len(wa)] == wa


# A label that is only a kernel release ("5.10.0-rc6", "v6.5", "6.1.0-rc2+"): the kernel
# as it ships, beside labels naming changes to it; of several releases, the older.
_RELEASE_BODY = r"(?:linux[- ])?v?(\d{1,2})\.(\d{1,2})(?:\.(\d{1,3}))?(?:-rc(\d{1,2}))?"
_RELEASE = re.compile(rf"(?i)^{_RELEASE_BODY}\+?$")
# a release, or one a change was added to ("6.7+series", "v6.8-rc2-fix", "v6.7-rc1 + this
# patch"): a column a kernel ran
_RELEASE_NAMED = re.compile(rf"(?i)^{_RELEASE_BODY}(?:[+-][\w.+-]*|\s*\+\s*[\w.-]+(?:\s+[\w.-]+){{0,3}})?$")


def names_a_release(label: str) -> bool:
    """Is `label` a kernel release, or one with a change added ("6.7", "6.7+series")?"""
    return _RELEASE_NAMED.match(label.strip()) is not None


def _release(label: str | None) -> tuple[int, int, int, int] | None:
    m = _RELEASE.match((label or "").strip())
    if m is None:
        return None
    rc = m.group(4)
    return int(m.group(1)), int(m.group(2)), int(m.group(3) or 0), int(rc) - 100 if rc else 0


def lone_release(labels: Sequence[str | None]) -> int | None:
    """The index of the one label that is a bare kernel release among labels that name
    no release ("5.10.0-rc6" / "pv_cond_yield" / "vcpu_is_preempted"): the base kernel."""
    at = [i for i, lab in enumerate(labels) if _release(lab) is not None]
    if len(at) != 1 or len(labels) < 2 or any(_NUMBER.search(lab or "") for i, lab in enumerate(labels) if i != at[0]):
        return None
    return at[0]


def _numbers(label: str) -> list[str]:
    return _NUMBER.findall(label[:200])


def _version(label: str) -> int | None:
    vs = [int(m.group(1)) for w in words(label) if (m := _VERSION.match(w))]
    return vs[0] if len(vs) == 1 else None


def baseline_index(labels: Sequence[str | None], subject: str | None = None) -> int:
    """The baseline among labels: the lowest score; ties go to the first printed."""
    if not labels:
        return 0
    scores = rank(labels, subject)
    low = min(scores)
    return scores.index(low)


def decided(labels: Sequence[str | None], subject: str | None = None, *, containment: bool = True) -> bool:
    """True when the labels of a comparison tell its sides apart (one clearly lowest), so a
    reader need not fall back on the printed order."""
    if len(labels) < 2:
        return False
    scores = sorted(rank(labels, subject, containment=containment))
    return scores[1] - scores[0] >= 0.35


def distinguishes(labels: Sequence[str | None], subject: str | None = None) -> bool:
    """The labels of one comparison tell baseline from candidate: `decided`, and either a
    label names a side by its own words (or two name opposite states), or all the labels
    name one thing (a shared word: "per-socket numbers" / "busy-poll thread numbers",
    "copy" / "zerocopy") so that their relations and the subject may decide.  Two tables
    titled "Multithread randwrite" / "Single page randrw" are two tests, not two sides."""
    if len(labels) < 2 or not decided(labels, subject):
        return False
    own = [cue(lab).score for lab in labels]
    if any(cue(lab).role is not None for lab in labels) or (min(own) < 0 < max(own)) \
            or lone_release(labels) is not None:
        return True
    sets = [set(content_words(lab or "")) for lab in labels]
    if not all(sets):
        return False
    common = set.intersection(*sets)
    return bool(common) or all(_extends(a, b) or _extends(b, a) for a in sets for b in sets if a is not b)


def contrasted(labels: Sequence[str | None], subject: str | None = None) -> bool:
    """Two labels that name two states of one thing ("coalescing off" / "coalescing on",
    "udp" / "udp gso", "spinlock" / "rcu" under a subject naming RCU) and tell them apart:
    opposite cues of their own, or a shared word and `decided` by the rest.  Labels that
    name two different things ("CPU core" / "Memory") are not variants of one."""
    if len(labels) != 2 or not all(labels):
        return False
    a, b = (cue(lab).score for lab in labels)
    if a * b < 0 and abs(a - b) >= 0.35:
        return True
    ca, cb = (set(content_words(lab or "")) for lab in labels)
    return bool(ca & cb) and decided(labels, subject, containment=False)


# Column headers that name *which* thing a row is about, not a measure of it: the CPU, core,
# queue or interface a line of mpstat, sar or per-queue output reports on ("Average:  4  0.51
# ..." under "CPU  %usr ...").  Their numbers are the row's key.
_KEY_HEADERS = frozenset({"cpu", "core", "queue", "qid", "iface", "node", "ring", "port", "irq", "dev"})


def names_key(header: str | None) -> bool:
    """A column header that names an identifier column ("CPU", "queue", "IFACE")."""
    return header is not None and header.strip().lower().rstrip(":#") in _KEY_HEADERS
