"""What an argument rule does to a call, as data.

A rule's code edits one call it sees; its shape says the same thing for
every call at once, which is what a function-like macro needs (the compat
strategy's header, ``hipport.compat.header``)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DropArgument:
    """The argument at ``index`` goes: ``f(mask, v, d)`` -> ``g(v, d)``."""

    index: int
    name: str  # what the dropped argument is (a macro parameter name)


@dataclass(frozen=True)
class WrapArgument:
    """The argument at ``index`` is wrapped: ``f(d, s, n)`` -> ``g(d, W(s), n)``."""

    index: int
    wrapper: str
    name: str  # what the wrapped argument is (a macro parameter name)


@dataclass(frozen=True)
class FillEmptyCall:
    """An empty argument list gets one: ``f()`` -> ``g(1)``."""

    argument: str


@dataclass(frozen=True)
class CastArguments:
    """Arguments are cast, by index: ``f(&p, n)`` -> ``g((void**)&p, n)``.
    ``arity`` is the number of arguments, None when calls vary in it."""

    arity: int | None
    casts: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class OtherFunctionForArity:
    """With ``arity`` arguments the HIP function is ``other``."""

    arity: int
    other: str


@dataclass(frozen=True)
class KeepArguments:
    """Of ``arity`` arguments only those at ``kept`` are passed on, in order:
    ``f(a, b, w, n, i)`` -> ``g(a, b, i)``."""

    arity: int
    kept: tuple[int, ...]


@dataclass(frozen=True)
class AppendArguments:
    """Arguments are added after the last: ``f(a, b)`` -> ``g(a, b, false, NULL, 0)``."""

    arguments: tuple[str, ...]


Shape = (DropArgument | WrapArgument | FillEmptyCall | CastArguments | OtherFunctionForArity
         | KeepArguments | AppendArguments)
