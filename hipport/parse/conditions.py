"""Conditional directives (`#if`, `#elif`, `#ifdef`, `#ifndef`) found in the
raw text, and a small parser for their expressions: tree-sitter keeps an
`#if` condition as text, and resolving a sub-expression needs its span."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, NamedTuple


class Directive(NamedTuple):
    keyword: str  # "if" "elif" "ifdef" "ifndef"
    start: int  # of the keyword (after `#` and blanks)
    cond_start: int  # of the condition (or the macro name)
    end: int  # end of the logical line, before its newline


_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(if|elif|ifdef|ifndef)\b[ \t]*", re.M)


# What blank() turns into spaces, in one regex pass (a loop over every byte
# in Python was the conversion's costliest function, ~7% of its CPU time):
# a line comment (continued by a backslash-newline); a block comment (to the
# end when unclosed); a string or character literal, to its closing quote
# or, unclosed, to the end of its line (a backslash escapes any byte, a
# newline too).  A quote after a letter, digit or `_` is a digit separator
# (1'000), not a literal; "letter" as str.isalnum() says for the byte's
# Latin-1 character, as the loop this replaced did.
_WORD_BYTES = b"".join(re.escape(bytes([b])) for b in range(256)
                       if chr(b).isalnum() or b == 0x5F)
_NOT_CODE = re.compile(rb"//(?:\\\n|[^\n])*"
                       rb"|/\*.*?(?:\*/|\Z)"
                       rb'|"(?:\\(?:.|\Z)|[^"\\\n])*(?:"|(?=\n)|\Z)'
                       rb"|(?<![" + _WORD_BYTES + rb"])'(?:\\(?:.|\Z)|[^'\\\n])*(?:'|(?=\n)|\Z)",
                       re.S)
_VISIBLE = re.compile(rb"[^\n]")


def blank(data: bytes) -> bytes:
    """``data`` with comments and string/character literals turned into
    spaces (newlines kept): offsets stay valid."""
    return _NOT_CODE.sub(lambda m: _VISIBLE.sub(b" ", m.group()), data)


def conditional_directives(code: bytes) -> list[Directive]:
    """The conditional directives of ``code`` (text from :func:`blank`)."""
    found: list[Directive] = []
    for m in _DIRECTIVE.finditer(code):
        end = m.end()
        while True:
            nl = code.find(b"\n", end)
            if nl == -1:
                end = len(code)
                break
            line_end = nl - 1 if nl > 0 and code[nl - 1] == 0x0D else nl
            if line_end > 0 and code[line_end - 1] == 0x5C:  # continued
                end = nl + 1
                continue
            end = line_end
            break
        found.append(Directive(m.group(1).decode(), m.start(1), m.end(), end))
    return found


# ------------------------------------------------------------- expressions --
class Token(NamedTuple):
    kind: str  # "num" "ident" "op"
    text: str
    start: int
    end: int


_TOKEN = re.compile(rb"""
    (?P<num>(?:0[xX][0-9A-Fa-f']+|[0-9][0-9']*)[uUlL]*)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>&&|\|\||<<|>>|<=|>=|==|!=|[-+*/%<>!~&|^()?:])
  | (?P<space>[ \t\r\n\\]+)
""", re.X)


def tokenize(code: bytes, start: int, end: int) -> list[Token] | None:
    """Tokens of an `#if` expression; None for anything else (a string,
    `__has_include(<x>)`, a floating-point literal...)."""
    tokens: list[Token] = []
    i = start
    while i < end:
        m = _TOKEN.match(code, i, end)
        if m is None:
            return None
        kind = m.lastgroup or ""
        if kind != "space":
            tokens.append(Token(kind, m.group().decode(), m.start(), m.end()))
        i = m.end()
    return tokens


@dataclass
class Node:
    kind: str  # "num" "ident" "defined" "call" "unary" "binary" "ternary" "paren"
    start: int
    end: int
    text: str = ""  # number, identifier or operator
    children: tuple[Node, ...] = ()


_BINARY = {
    "*": 10, "/": 10, "%": 10, "+": 9, "-": 9, "<<": 8, ">>": 8,
    "<": 7, ">": 7, "<=": 7, ">=": 7, "==": 6, "!=": 6,
    "&": 5, "^": 4, "|": 3, "&&": 2, "||": 1,
}


class _Parser:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.i = 0

    def peek(self) -> Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, text: str | None = None) -> Token:
        tok = self.peek()
        if tok is None or (text is not None and tok.text != text):
            raise ValueError(f"expected {text or 'more'}")
        self.i += 1
        return tok

    def expression(self, min_prec: int = 0) -> Node:
        left = self.unary()
        while True:
            tok = self.peek()
            if tok is None or tok.kind != "op":
                return left
            if tok.text == "?" and min_prec == 0:
                self.take()
                middle = self.expression()
                self.take(":")
                right = self.expression()
                left = Node("ternary", left.start, right.end, "?", (left, middle, right))
                continue
            prec = _BINARY.get(tok.text)
            if prec is None or prec <= min_prec:
                return left
            self.take()
            right = self.expression(prec)
            left = Node("binary", left.start, right.end, tok.text, (left, right))

    def unary(self) -> Node:
        tok = self.take()
        if tok.kind == "num":
            return Node("num", tok.start, tok.end, tok.text)
        if tok.text in ("!", "~", "-", "+"):
            operand = self.unary()
            return Node("unary", tok.start, operand.end, tok.text, (operand,))
        if tok.text == "(":
            inner = self.expression()
            close = self.take(")")
            return Node("paren", tok.start, close.end, "", (inner,))
        if tok.kind != "ident":
            raise ValueError(f"unexpected {tok.text!r}")
        if tok.text == "defined":
            nxt = self.take()
            if nxt.text == "(":
                name = self.take()
                close = self.take(")")
                end = close.end
            else:
                name, end = nxt, nxt.end
            if name.kind != "ident":
                raise ValueError("defined needs a name")
            return Node("defined", tok.start, end, name.text)
        after = self.peek()
        if after is not None and after.text == "(":  # a function-like macro: opaque
            depth = 0
            while True:
                t = self.take()
                depth += {"(": 1, ")": -1}.get(t.text, 0)
                if depth == 0:
                    return Node("call", tok.start, t.end, tok.text)
        return Node("ident", tok.start, tok.end, tok.text)


def parse(tokens: list[Token]) -> Node | None:
    """The expression tree, or None when the tokens are not one expression."""
    if not tokens:
        return None
    parser = _Parser(tokens)
    try:
        node = parser.expression()
    except ValueError:
        return None
    return node if parser.peek() is None else None


def number(text: str) -> int:
    digits = text.rstrip("uUlL").replace("'", "")
    if digits[:2] in ("0x", "0X"):
        return int(digits, 16)
    if len(digits) > 1 and digits.startswith("0"):
        return int(digits, 8)
    return int(digits)


def evaluate(node: Node, values: dict[str, int]) -> int:
    """The value of ``node`` with identifiers from ``values`` (KeyError for
    any other identifier)."""
    kind = node.kind
    if kind == "num":
        return number(node.text)
    if kind == "ident":
        return values[node.text]
    if kind == "defined":
        return int(node.text in values)
    if kind == "paren":
        return evaluate(node.children[0], values)
    if kind == "unary":
        v = evaluate(node.children[0], values)
        return {"!": int(not v), "~": ~v, "-": -v, "+": v}[node.text]
    if kind == "ternary":
        cond, yes, no = node.children
        return evaluate(yes if evaluate(cond, values) else no, values)
    if kind == "binary":
        a = evaluate(node.children[0], values)
        if node.text == "&&":
            return int(bool(a) and bool(evaluate(node.children[1], values)))
        if node.text == "||":
            return int(bool(a) or bool(evaluate(node.children[1], values)))
        b = evaluate(node.children[1], values)
        return _ARITHMETIC[node.text](a, b)
    raise KeyError(node.text)


def _div(a: int, b: int) -> int:
    if b == 0:
        raise KeyError("/0")
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


_ARITHMETIC: dict[str, Callable[[int, int], int]] = {
    "*": lambda a, b: a * b, "/": _div,
    "%": lambda a, b: a - _div(a, b) * b,
    "+": lambda a, b: a + b, "-": lambda a, b: a - b,
    "<<": lambda a, b: a << b, ">>": lambda a, b: a >> b,
    "<": lambda a, b: int(a < b), ">": lambda a, b: int(a > b),
    "<=": lambda a, b: int(a <= b), ">=": lambda a, b: int(a >= b),
    "==": lambda a, b: int(a == b), "!=": lambda a, b: int(a != b),
    "&": lambda a, b: a & b, "^": lambda a, b: a ^ b, "|": lambda a, b: a | b,
}
