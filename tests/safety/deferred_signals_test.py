"""Ctrl-C and SIGTERM landing at the worst moment of a write: between two
steps whose cleanup the ``except`` clauses cannot see (CI once found a
temporary file left by a Ctrl-C).  The signal now waits for the write to
finish, then acts as it would have: no temporary file, the file complete."""
from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from hipport.deferred_signals import deferred_signals
from hipport.replace import read_source, replace_source
from hipport.writing import copy_file, is_temporary, write_atomic


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if is_temporary(p.name))


@pytest.fixture(autouse=True)
def python_ctrl_c():
    """Python's own Ctrl-C handler, as in a terminal.  A process started in
    the background of a script inherits SIGINT ignored (POSIX), and Python
    then installs no handler; these tests are about what the handler does."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_an_ignored_signal_stays_ignored():
    # The look-alike: a run started with `&` from a script ignores Ctrl-C.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    steps: list[str] = []
    with deferred_signals():
        signal.raise_signal(signal.SIGINT)
        steps.append("after the signal")
    steps.append("after the block")
    assert steps == ["after the signal", "after the block"]
    assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN


def test_a_signal_inside_the_block_waits_for_its_end():
    steps: list[str] = []
    with pytest.raises(KeyboardInterrupt):
        with deferred_signals():
            signal.raise_signal(signal.SIGINT)
            steps.append("after the signal")
    assert steps == ["after the signal"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_nested_blocks_deliver_once_at_the_outermost_end():
    seen: list[int] = []
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: seen.append(signum))
    try:
        with deferred_signals():
            with deferred_signals():
                signal.raise_signal(signal.SIGTERM)
            assert seen == []
        assert seen == [signal.SIGTERM]
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_without_a_signal_nothing_happens_and_handlers_are_restored():
    before = signal.getsignal(signal.SIGTERM)
    with deferred_signals():
        pass
    assert signal.getsignal(signal.SIGTERM) is before


def test_ctrl_c_right_after_the_original_is_linked_leaves_no_temporary(tmp_path, monkeypatch):
    # Before: the KeyboardInterrupt left the held second name
    # (.a.cu.XXXXXXXX.hipport-tmp) behind, since it came before the name was kept.
    path = tmp_path / "a.cu"
    path.write_bytes(b"cudaFree(p);\n")
    original, identity = read_source(path)
    real_link = os.link

    def link_then_interrupt(*args, **kwargs):
        real_link(*args, **kwargs)
        signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(os, "link", link_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        replace_source(path, b"hipFree(p);\n", original=original, expected=identity)
    assert _leftovers(tmp_path) == []
    assert path.read_bytes() == b"hipFree(p);\n"


@pytest.mark.parametrize("writer", ["write_atomic", "copy_file"])
def test_ctrl_c_inside_mkstemp_leaves_no_temporary(tmp_path, monkeypatch, writer):
    # Before: the temporary existed on disk but its name never reached the caller.
    import tempfile

    real_mkstemp = tempfile.mkstemp

    def mkstemp_then_interrupt(*args, **kwargs):
        made = real_mkstemp(*args, **kwargs)
        signal.raise_signal(signal.SIGINT)
        return made

    source = tmp_path / "in.txt"
    source.write_bytes(b"new\n")
    target = tmp_path / "out.txt"
    target.write_bytes(b"old\n")
    monkeypatch.setattr(tempfile, "mkstemp", mkstemp_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        if writer == "write_atomic":
            write_atomic(target, b"new\n")
        else:
            copy_file(source, target)
    assert _leftovers(tmp_path) == []
    assert target.read_bytes() == b"new\n"
