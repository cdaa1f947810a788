"""A small, forgiving scanner for C/C++ header declarations.

It is not a compiler: it finds the names a header declares at namespace
scope (functions, typedefs, struct/class/union tags, enums and enumerators,
macros), which is what the catalogue inventory needs.  Bodies of structs and
functions are skipped; namespaces and ``extern "C"`` blocks are entered.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from hipport.table.schema import CPP_KEYWORDS

_TOKEN_RE = re.compile(
    r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|[A-Za-z_]\w*|::|\d[\w.]*|\S'
)
_DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\()?[ \t]*(.*)$", re.M)
_PP_LINE_RE = re.compile(r"^[ \t]*#.*$", re.M)
_COMMENT_RE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"', re.S)

# Words that may precede "(" at declaration level without being a function.
_NOT_FUNCTIONS = frozenset({
    "__attribute__", "__declspec", "__align__", "__builtin_align__", "alignas",
    "__launch_bounds__", "decltype", "sizeof", "operator", "static_assert",
    "_Pragma", "__pragma", "noexcept", "throw", "typeof", "__typeof__",
    "return", "if", "while", "for", "switch", "defined", "asm", "__asm__",
    "__asm", "_Static_assert", "alignof", "__nv_deprecated", "deprecated",
})

_INTERNAL_NAMESPACE_RE = re.compile(r"^(_.*|details?|internal|impl|__\w+)$")


@dataclass
class Declarations:
    functions: set[str] = field(default_factory=set)
    types: set[str] = field(default_factory=set)
    enumerators: set[str] = field(default_factory=set)
    macros: set[str] = field(default_factory=set)
    # macro name -> single identifier it expands to (e.g. cuMemAlloc -> cuMemAlloc_v2)
    macro_aliases: dict[str, str] = field(default_factory=dict)
    function_like_macros: set[str] = field(default_factory=set)
    namespaces: set[str] = field(default_factory=set)


def _strip(text: str) -> str:
    def keep_strings(m: re.Match[str]) -> str:
        s = m.group(0)
        return s if s.startswith('"') else " "
    text = re.sub(r"\\[ \t]*\r?\n", " ", text)
    return _COMMENT_RE.sub(keep_strings, text)


def scan(text: str, qualify: bool = False) -> Declarations:
    """Scan header text.  With ``qualify`` names inside namespaces are
    reported as ``ns::name`` (used for C++ libraries)."""
    out = Declarations()
    text = _strip(text)
    for m in _DEFINE_RE.finditer(text):
        name, paren, value = m.group(1), m.group(2), m.group(3).strip()
        out.macros.add(name)
        if paren:
            out.function_like_macros.add(name)
        elif re.fullmatch(r"[A-Za-z_]\w*", value):
            out.macro_aliases[name] = value
    text = _PP_LINE_RE.sub(" ", text)
    toks = _TOKEN_RE.findall(text)
    _walk(toks, out, qualify)
    return out


def _skip_block(toks: list[str], i: int) -> int:
    """toks[i] == '{'; return index after the matching '}'."""
    depth = 0
    n = len(toks)
    while i < n:
        t = toks[i]
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def _enumerators(body: list[str]) -> list[str]:
    names: list[str] = []
    expect = True
    depth = 0
    for t in body:
        if t in "([":
            depth += 1
        elif t in ")]":
            depth -= 1
        elif t == "," and depth == 0:
            expect = True
            continue
        if expect and depth == 0 and re.fullmatch(r"[A-Za-z_]\w*", t):
            names.append(t)
            expect = False
        elif expect and t not in ("(", "["):
            expect = False
    return names


def _walk(toks: list[str], out: Declarations, qualify: bool) -> None:
    stmt: list[str] = []
    ns_stack: list[str | None] = []  # namespace names (None: extern "C")
    i, n = 0, len(toks)

    def prefix() -> str:
        names = [s for s in ns_stack if s]
        return "::".join(names) + "::" if (qualify and names) else ""

    def internal() -> bool:
        return any(s and _INTERNAL_NAMESPACE_RE.match(s) for s in ns_stack)

    while i < n:
        t = toks[i]
        if t == "}":
            if ns_stack:
                ns_stack.pop()
            stmt = []
            i += 1
            continue
        if t == "{":
            head = stmt
            # namespace / extern "C" blocks are transparent
            inline_ns = len(head) >= 2 and head[0] == "inline" and head[1] == "namespace"
            if head and head[0] == "namespace" or inline_ns:
                names = [x for x in head if re.fullmatch(r"[A-Za-z_]\w*", x)
                         and x not in ("namespace", "inline")]
                ns = "::".join(names) if names else "_anon"
                ns_stack.append(ns)
                if not internal():
                    out.namespaces.add(prefix()[:-2] if qualify else ns)
                stmt = []
                i += 1
                continue
            if head[-2:] == ["extern", '"C"'] or head[-2:] == ["extern", '"C++"']:
                ns_stack.append(None)
                stmt = []
                i += 1
                continue
            end = _skip_block(toks, i)
            body = toks[i + 1:end - 1]
            if not internal():
                _record_head(head, body, out, prefix())
            i = end
            # a typedef / variable may follow the body: keep the statement
            h = _drop_template(head)
            is_type = any(k in h for k in ("struct", "class", "union", "enum"))
            stmt = head + ["{", "}"] if (is_type and _function_name(h) is None) else []
            continue
        if t == ";":
            if not internal():
                _record_statement(stmt, out, prefix())
            stmt = []
            i += 1
            continue
        stmt.append(t)
        i += 1


def _ident(t: str) -> bool:
    return re.fullmatch(r"[A-Za-z_]\w*", t) is not None


def _drop_template(stmt: list[str]) -> list[str]:
    """Remove leading ``template < ... >`` parameter lists."""
    while stmt and stmt[0] == "template" and len(stmt) > 1 and stmt[1] == "<":
        depth = 0
        for k in range(1, len(stmt)):
            if stmt[k] == "<":
                depth += 1
            elif stmt[k] == ">":
                depth -= 1
                if depth == 0:
                    stmt = stmt[k + 1:]
                    break
        else:
            return []
    return stmt


def _record_head(head: list[str], body: list[str], out: Declarations, pre: str) -> None:
    """A declaration head followed by a { body }."""
    head = _drop_template(head)
    fn = _function_name(head)
    if fn:
        out.functions.add(pre + fn)
        return
    paren = head.index("(") if "(" in head else len(head)
    if "enum" in head[:paren]:
        k = head.index("enum")
        rest = [x for x in head[k + 1:] if x not in ("class", "struct") and not x.startswith("__")]
        if rest and _ident(rest[0]) and rest[0] not in ("typedef",):
            out.types.add(pre + rest[0])
        for e in _enumerators(body):
            out.enumerators.add(pre + e)
        return
    for kw in ("struct", "class", "union"):
        if kw in head[:paren]:
            k = head.index(kw)
            rest = head[k + 1:]
            # skip attribute macros such as __device_builtin__ / alignment
            j = 0
            name = None
            while j < len(rest):
                x = rest[j]
                if x == "(":
                    depth = 0
                    while j < len(rest):
                        if rest[j] == "(":
                            depth += 1
                        elif rest[j] == ")":
                            depth -= 1
                            if depth == 0:
                                break
                        j += 1
                elif x in (":", "final", "<"):
                    break
                elif _ident(x):
                    name = x
                j += 1
            if name and not name.isupper():
                out.types.add(pre + name)
            elif name and re.fullmatch(r"[A-Z][A-Za-z0-9_]*", name) and \
                    any(c.islower() for c in name):
                out.types.add(pre + name)
            return
    # function definition: name before first top-level "("
    fn = _function_name(head)
    if fn:
        out.functions.add(pre + fn)


def _function_name(stmt: list[str]) -> str | None:
    if not stmt or stmt[0] in ("typedef", "using", "return", "friend"):
        return None
    depth = 0
    skip_until = -1
    for k, t in enumerate(stmt):
        if k < skip_until:
            continue
        if t == "(":
            if depth == 0 and k > 0 and _ident(stmt[k - 1]):
                name = stmt[k - 1]
                if name in _NOT_FUNCTIONS or re.fullmatch(r"_*[A-Z0-9_]+", name):
                    # attribute-like macro call: skip its argument list
                    d = 0
                    for j in range(k, len(stmt)):
                        if stmt[j] == "(":
                            d += 1
                        elif stmt[j] == ")":
                            d -= 1
                            if d == 0:
                                skip_until = j + 1
                                break
                    else:
                        return None
                    continue
                if k >= 2 and stmt[k - 2] in ("operator", "~", "::", ".", "->", "=", "(", ","):
                    return None
                if k >= 2 and stmt[k - 2] in ("return", "new", "sizeof"):
                    return None
                if name in CPP_KEYWORDS:  # `short(x)`, `operator int()`: never a function
                    return None
                if k == 1:
                    return None  # a bare call at file scope, e.g. a macro
                return name
            depth += 1
        elif t == ")":
            depth -= 1
        elif t == "=" and depth == 0:
            return None
    return None


def _record_statement(stmt: list[str], out: Declarations, pre: str) -> None:
    stmt = _drop_template(stmt)
    if not stmt:
        return
    if stmt[0] == "typedef" or (stmt[0] != "typedef" and "typedef" in stmt[:3]):
        k = stmt.index("typedef")
        body = stmt[k + 1:]
        while len(body) > 1 and "DEPRECATED" in body[-1] and _ident(body[-2]):
            body = body[:-1]
        # function pointer: typedef R (API *NAME)(args)
        for j in range(len(body) - 1):
            if body[j] == "(" and "*" in body[j + 1:j + 4]:
                star = body.index("*", j + 1)
                if star + 1 < len(body) and _ident(body[star + 1]):
                    out.types.add(pre + body[star + 1])
                    return
        # plain declarators: identifiers before ',' or end at depth 0
        depth = 0
        names: list[str] = []
        for j, x in enumerate(body):
            if x in "([":
                depth += 1
            elif x in ")]":
                depth -= 1
            elif x == "," and depth == 0 and j > 0 and _ident(body[j - 1]):
                names.append(body[j - 1])
        last = [x for x in body if x not in ("]",)]
        if body and _ident(body[-1]):
            names.append(body[-1])
        elif "[" in body:
            b = body.index("[")
            if b > 0 and _ident(body[b - 1]):
                names.append(body[b - 1])
        del last
        for name in names:
            out.types.add(pre + name)
        return
    if stmt[0] == "using" and len(stmt) >= 3 and _ident(stmt[1]) and stmt[2] == "=":
        out.types.add(pre + stmt[1])
        return
    if stmt[0] == "enum" and "(" not in stmt:
        return
    for kw in ("struct", "class", "union"):
        if len(stmt) == 2 and stmt[0] == kw and _ident(stmt[1]):
            out.types.add(pre + stmt[1])  # forward declaration
            return
    fn = _function_name(stmt)
    if fn:
        out.functions.add(pre + fn)
