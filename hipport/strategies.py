"""The conversion strategies by name: the one table ``--strategy`` reads
(pre-commit's language table is the model).  Adding a strategy is a module
with a class that follows ``hipport.strategy.Strategy`` and one line here."""
from __future__ import annotations

from typing import Callable, Mapping

from hipport.compat.strategy import CompatStrategy, compat_options
from hipport.errors import UsageError
from hipport.rewrite import RewriteStrategy
from hipport.strategy import Strategy
from hipport.suggest import did_you_mean

# name -> (the options it takes, as --flags; how it is made from their values)
Maker = Callable[[Mapping[str, "str | None"]], Strategy]
STRATEGIES: dict[str, tuple[tuple[str, ...], Maker]] = {
    RewriteStrategy.name: ((), lambda given: RewriteStrategy()),
    CompatStrategy.name: (("--compat-header", "--compat-macro"), compat_options),
}
NAMES = tuple(STRATEGIES)
DEFAULT = RewriteStrategy.name


def strategy_named(name: str, options: Mapping[str, str | None] | None = None) -> Strategy:
    """The strategy ``--strategy NAME`` asks for, made from its options
    (``{"--compat-header": value}``: None for an option not given); an option
    of another strategy is a usage error."""
    if name not in STRATEGIES:
        raise UsageError(f"--strategy: unknown strategy {name!r}"
                         f"{did_you_mean(name, NAMES)}; choose one of {', '.join(NAMES)}")
    accepted, make = STRATEGIES[name]
    given = {flag: value for flag, value in (options or {}).items() if value is not None}
    for flag in given:
        if flag not in accepted:
            owner = next((n for n, (flags, _) in STRATEGIES.items() if flag in flags), "?")
            raise UsageError(f"{flag} only applies to --strategy {owner}")
    return make(given)
