"""The fuzz properties with many random examples (not derandomised):

    .venv/bin/python -m tests.fuzz.long_run --examples 20000 [--seed N]

Prints how many inputs were tried per property and the first failure, if
any (Hypothesis shrinks it).  Figures from past runs: tests/fuzz/README.md."""
from __future__ import annotations

import argparse
import time
from typing import Callable

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from hipport.settings import Settings
from tests.fuzz.properties import SETTINGS, check_conversion, cuda_like


def _corrupt(source: bytes, at: int, junk: bytes) -> bytes:
    at = at % (len(source) + 1)
    return source[:at] + junk + source[at:]


PROPERTIES: dict[str, tuple[st.SearchStrategy[tuple[bytes, Settings]]]] = {
    "generated": (st.tuples(cuda_like(), SETTINGS),),
    "arbitrary-bytes": (st.tuples(st.binary(max_size=2000), st.just(Settings())),),
    "corrupted": (st.tuples(st.builds(_corrupt, cuda_like(), st.integers(0, 10_000),
                                      st.binary(min_size=1, max_size=8)),
                            st.just(Settings())),),
}


def run(name: str, examples: int, rng_seed: int) -> tuple[int, str]:
    tried = 0
    (strategy,) = PROPERTIES[name]

    @seed(rng_seed)
    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def prop(case: tuple[bytes, Settings]) -> None:
        nonlocal tried
        tried += 1
        check_conversion(*case)

    try:
        prop()
    except Exception as exc:  # noqa: BLE001 - report, do not crash the run
        notes = "\n".join(getattr(exc, "__notes__", []))  # Hypothesis: the failing input
        return tried, f"{type(exc).__name__}: {str(exc)[:2000]}\n{notes}"
    return tried, ""


def main(argv: list[str] | None = None, out: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--examples", type=int, default=5000, help="per property")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", choices=list(PROPERTIES), action="append")
    args = parser.parse_args(argv)
    failed = 0
    for name in args.only or PROPERTIES:
        start = time.monotonic()
        tried, failure = run(name, args.examples, args.seed)
        took = time.monotonic() - start
        out(f"{name}: {tried} inputs in {took:.0f}s, {'FAILED' if failure else 'ok'}")
        if failure:
            failed += 1
            out(failure)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
