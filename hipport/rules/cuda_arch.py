"""Architecture thresholds in conditional directives (`#if __CUDA_ARCH__ >= 530`).
hipcc defines no `__CUDA_ARCH__`, so such a test is 0 in every pass and the
AMD device pass silently compiles the branch written for the host or for
old GPUs (often a stub); renamed to `__HIP_DEVICE_COMPILE__` (1 in the
device pass) it compares 1 with the threshold, false just as silently.
Each threshold is answered for what an AMD device pass has: a sub-expression
of `__CUDA_ARCH__`, `defined(__CUDA_ARCH__)` and numbers becomes its value
in the host pass (no `__CUDA_ARCH__`) and in the device pass (taken as
sm_70), told apart by `defined(__HIP_DEVICE_COMPILE__)`.  `#ifdef
__CUDA_ARCH__` and bare `defined(__CUDA_ARCH__)`/`__CUDA_ARCH__` tests only
ask "device pass?": they stay the rename's (docs/preprocessor.md)."""
from __future__ import annotations

import re
from typing import Iterator, NamedTuple

from hipport.edits import Edit, Fix
from hipport.findings import Finding
from hipport.parse.conditions import Node, blank, conditional_directives, evaluate, parse, tokenize
from hipport.rules import Context, RuleRole, file_rule

ARCH = "__CUDA_ARCH__"
DEVICE = "defined(__HIP_DEVICE_COMPILE__)"
ARCH_TEST = "HP317"
ARCH_STUB = "HP318"
# The CUDA architecture an AMD device pass stands for: what sm_53 (half2
# arithmetic), sm_60 (double atomicAdd, scoped atomics), sm_61 (__dp4a) and
# sm_70 (__nanosleep, the _sync warp functions, independent thread
# scheduling) add is in HIP or the polyfill header (sm_70's WMMA is not, and
# is reported where it is used).  What sm_72 and later add (integer and
# bf16 tensor cores, cp.async, __reduce_*_sync as one instruction, clusters,
# TMA, DPX) is missing or named otherwise: the project's branch for older
# GPUs is the one to build.
AMD_AS = 700
_STUB = re.compile(rb"^[ \t]*#[ \t]*error\b|\b__trap\s*\(|\b__builtin_trap\s*\(|"
                   rb"\bassert\s*\(\s*(0|false)\s*\)", re.M)
_BRANCH = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b", re.M)


class Resolution(NamedTuple):
    start: int  # the directive's condition
    end: int
    edits: tuple[Edit, ...]
    message: str
    stub: tuple[int, int] | None  # the stub the device pass now compiles, if it is one


def resolve(ctx: Context) -> tuple[Resolution, ...]:
    if ARCH.encode() not in ctx.data:
        return ()
    # Several rules ask (renames, this one): once per file, kept with the rule
    # run, not in a module cache holding whole files after they are done.
    found = ctx.memo.get(_MEMO)
    if found is None:
        found = ctx.memo[_MEMO] = _resolve(ctx.data)
    return found  # type: ignore[return-value]


_MEMO = "cuda-arch.resolutions"


def _resolve(data: bytes) -> tuple[Resolution, ...]:
    code = blank(data)
    if re.search(rb"^[ \t]*#[ \t]*define[ \t]+__CUDA_ARCH__\b", code, re.M):
        return ()  # the project defines it itself
    out: list[Resolution] = []
    for d in conditional_directives(code):
        if d.keyword not in ("if", "elif"):
            continue
        tokens = tokenize(code, d.cond_start, d.end)
        if not tokens or not any(t.text == ARCH for t in tokens):
            continue
        tree = parse(tokens)
        spans = _thresholds(tree) if tree is not None else []
        if not spans:
            continue
        original = " ".join(code[d.start:d.end].replace(b"\\\n", b" ").decode(
            "utf-8", "replace").split())
        comment = f" // AMD device pass as sm_{AMD_AS // 10}: #{original}".encode()
        edits = [Edit(s, e, _spelled(host, device).encode()) for s, e, host, device in spans]
        if spans[-1][1] == d.end:  # the comment joins a replacement it would touch
            last = edits[-1]
            edits[-1] = Edit(last.start, last.end, last.text + comment)
        else:
            edits.append(Edit(d.end, d.end, comment))
        parts = "; ".join(_told(data[s:e].decode("utf-8", "replace"), host, device)
                          for s, e, host, device in spans)
        stub = _stub_taken(code, d.end, tree) if tree is not None else None
        out.append(Resolution(d.cond_start, d.end, tuple(edits), parts, stub))
    return tuple(out)


def _thresholds(node: Node) -> list[tuple[int, int, int, int]]:
    """The largest sub-expressions of `__CUDA_ARCH__`, `defined(...)` of it
    and numbers that compare it with a number, with their host- and
    device-pass values."""
    if not _mentions(node):
        return []
    if _only_arch(node) and _has_number(node):
        try:
            return [(node.start, node.end, _value(node, device=False),
                     _value(node, device=True))]
        except (KeyError, ValueError):
            return []
    found: list[tuple[int, int, int, int]] = []
    for child in node.children:
        found += _thresholds(child)
    return found


def _mentions(node: Node) -> bool:
    if node.kind in ("ident", "defined"):
        return node.text == ARCH
    return any(_mentions(c) for c in node.children)


def _only_arch(node: Node) -> bool:
    if node.kind == "num":
        return True
    if node.kind in ("ident", "defined"):
        return node.text == ARCH
    if node.kind == "call":
        return False
    return all(_only_arch(c) for c in node.children)


def _has_number(node: Node) -> bool:
    return node.kind == "num" or any(_has_number(c) for c in node.children)


def _value(node: Node, device: bool) -> int:
    """In the host pass `__CUDA_ARCH__` is not defined (0 in `#if`)."""
    if device:
        return evaluate(node, {ARCH: AMD_AS})
    return evaluate(_undefined(node), {ARCH: 0})


def _undefined(node: Node) -> Node:
    if node.kind == "defined":
        return Node("num", node.start, node.end, "0")
    return Node(node.kind, node.start, node.end, node.text,
                tuple(_undefined(c) for c in node.children))


def _spelled(host: int, device: int) -> str:
    if host == device:
        return str(host)
    if (host, device) == (0, 1):
        return DEVICE
    if (host, device) == (1, 0):
        return f"!{DEVICE}"
    return f"({DEVICE} ? {device} : {host})"


def _told(test: str, host: int, device: int) -> str:
    return (f"`{test}` is {_said(device)} in the AMD device pass (taken as sm_{AMD_AS // 10}: "
            f"AMD GPUs have what sm_53 to sm_70 add, not what later GPUs add)"
            + ("" if host == device else f", {_said(host)} in the host pass"))


def _said(value: int) -> str:
    return ("true" if value else "false") if value in (0, 1) else str(value)


def _stub_taken(code: bytes, after: int, tree: Node) -> tuple[int, int] | None:
    """Where the directive is a pure architecture test: the branch the
    device pass now compiles, if it is a stub (`#error`, a trap, an
    `assert(false)`)."""
    if not _only_arch(tree):
        return None
    try:
        taken = bool(_value(tree, device=True))
    except (KeyError, ValueError):
        return None
    own_end, chain_end = _branch_ends(code, after)
    start, end = (after, own_end) if taken else (own_end, chain_end)
    found = _STUB.search(code, start, end)
    return (found.start(), found.end()) if found is not None and start < end else None


def _branch_ends(code: bytes, after: int) -> tuple[int, int]:
    """Where the directive's own branch ends (its next #elif/#else/#endif)
    and where its #endif is."""
    depth, own_end = 0, -1
    for m in _BRANCH.finditer(code, after):
        word = m.group(1)
        if word in (b"if", b"ifdef", b"ifndef"):
            depth += 1
        elif word == b"endif":
            if depth == 0:
                return (m.start() if own_end < 0 else own_end), m.start()
            depth -= 1
        elif depth == 0 and own_end < 0:
            own_end = m.start()
    return (len(code) if own_end < 0 else own_end), len(code)


@file_rule("cuda-arch", codes=(ARCH_TEST, ARCH_STUB), role=RuleRole.REWRITE)
def resolve_arch_tests(ctx: Context) -> Iterator[Finding]:
    for r in resolve(ctx):
        fix = Fix(r.edits, title="Answer the architecture test for AMD GPUs")
        yield Finding(ARCH_TEST, r.message, r.start, r.end, fix=fix)
        if r.stub is not None:
            stub = ctx.data[r.stub[0]:r.stub[1]].decode("utf-8", "replace").strip()
            yield Finding(ARCH_STUB, f"the AMD device pass compiles the `{stub}` branch of "
                          "this architecture test: the code behind the threshold needs what "
                          "AMD GPUs lack; port it (or write the missing path) by hand",
                          r.start, r.end)
