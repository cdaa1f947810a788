"""Reading a huge build output: each line once, and a stop (Ctrl-C,
SIGTERM) heard at the next line, also while a worker thread is reading
(issue 31, item 10).  No timing: the readers are made to count."""
from __future__ import annotations

import threading
from typing import Sequence, overload

import pytest

from hipport.stopping import Stopped
from hipport.verify.buildlog import read_log
from hipport.verify.diagnostics import errors, first_error
from hipport.verify.session import Processes, in_parallel

GCC_ERROR = ["In file included from src/h.h:2,", "                 from src/main.cpp:1:",
             "src/x.h:5:3: error: 'name' was not declared in this scope",
             "    5 |   name = 1;", "      |   ^~~~"]


CLANG_ERROR = ["In file included from a.hip:2:", "h.h:2:39: error: use of undeclared 'x'",
               "h.h:1:1: note: here", "1 error generated when compiling for gfx90a."]


class Counted(Sequence[str]):
    """Lines that count how many of them a reader takes (a slice: its length)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.taken = 0

    def __len__(self) -> int:
        return len(self.lines)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        got = self.lines[index]
        self.taken += len(got) if isinstance(index, slice) else 1
        return got


class SetAfter(threading.Event):
    """A stop that comes while the reader is at work: set once it was
    looked at ``looks`` times."""

    def __init__(self, looks: int) -> None:
        super().__init__()
        self.looks_left = looks
        self.looked = 0

    def is_set(self) -> bool:
        self.looked += 1
        self.looks_left -= 1
        return self.looks_left < 0


def test_each_line_is_read_once():
    # GCC writes no "N errors generated" line: each error's side was looked
    # for in the rest of the output, 2,000 errors read 25 million lines.
    lines = Counted(GCC_ERROR * 2000)
    found = list(errors(lines))
    assert len(found) == 2000 and found[-1][1].target is None
    assert lines.taken == len(lines)


def test_notes_and_side_of_each_error_as_before():
    output = ("a.hip:1:1: error: one\nb.h:2:1: note: here\nc.hip:3:1: error: two\n"
              "d.h:4:1: note: there\n1 warning and 2 errors generated when compiling for "
              "gfx90a.\ne.hip:5:1: error: three\nf.h:6:1: note: last\n")
    found = [(e.message, e.target, [n.file for n in e.notes]) for _, e in errors(
        output.splitlines())]
    assert found == [("one", "gfx90a", ["b.h"]), ("two", "gfx90a", ["d.h"]),
                     ("three", None, ["f.h"])]


def test_a_stop_during_the_reading_ends_it_at_the_next_line():
    stop = SetAfter(1000)
    with pytest.raises(Stopped):
        list(errors(GCC_ERROR * 2000, stop))
    assert stop.looked == 1001
    stop = SetAfter(1000)
    with pytest.raises(Stopped):
        first_error("\n".join(GCC_ERROR * 2000), stop)
    assert stop.looked == 1001


def test_a_stop_during_read_log_ends_it_at_the_next_line():
    log = "\n".join(["make[1]: Entering directory '/b'", "/bin/sh: 1: nvcc: not found",
                     "make[1]: *** [Makefile:9: k.o] Error 127", *GCC_ERROR] * 1000)
    stop = SetAfter(3000)
    with pytest.raises(Stopped):
        read_log(log, stop)
    assert stop.looked == 3001
    assert read_log(log, threading.Event()) == read_log(log)  # not stopped: all of it


def test_an_interrupt_stops_a_worker_thread_that_is_reading():
    """Ctrl-C in the main thread while a worker reads a log: the run waits
    for its workers (ThreadPoolExecutor joins them), and the worker used to
    read on to the end of the log before the interrupt could end the run."""
    processes = Processes()
    reading = threading.Event()

    class Log(Counted):
        """Counts the lines taken after the stop; the stop comes at its second line."""

        def __getitem__(self, index):  # type: ignore[override]
            if index == 1 and not reading.is_set():
                reading.set()
                processes.stopped.wait(60)
            got = self.lines[index]
            if processes.stopped.is_set():
                self.taken += len(got) if isinstance(index, slice) else 1
            return got

    log = Log(CLANG_ERROR * 1000)

    def work(index: int, item: str) -> int:
        if item == "quick":
            reading.wait(60)  # its result comes while the other one reads
            return 0
        return len(list(errors(log, processes.stopped)))

    def interrupt(result: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        in_parallel(work, ["quick", "long log"], 2, processes, interrupt)
    assert processes.stopped.is_set()
    assert log.taken <= 1  # the line it was at when the stop came
