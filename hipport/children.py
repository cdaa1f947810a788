"""Other programs hipport runs (hipcc, hipconfig, cmake, a Python with
torch): each in its own session, so that a time limit, an error or Ctrl-C
stops the program *and everything it started* (hipcc runs clang, a wrapper
script runs a chroot, a shell script runs ``sleep``), and their output
made plain text before anyone shows it."""
from __future__ import annotations

import os
import re
import signal
import subprocess
from pathlib import Path
from typing import Mapping, Sequence

# After the group is killed, how long to wait for the pipes to close (a
# process that left the group could hold them for ever).
_DRAIN = 5.0

# Terminal control: CSI (ESC [ ... final byte), OSC and the other string
# commands (ESC ] ... BEL or ESC \), two-byte escapes, then any C0 or C1
# control character but the tab and the newline (and the Unicode line and
# paragraph separators).  Each sequence starts with one of the characters
# of the lookahead: a scan for them is twice as fast as trying each
# alternative at each character of an 81 MB build log (2 s, holding the GIL).
_ESCAPES = re.compile(r"(?=[\x1b\x9b\x90\x98\x9d-\x9f])(?:"
                      r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor, clear screen
                      r"|\x9b[0-?]*[ -/]*[@-~]"
                      # OSC, DCS, SOS, PM, APC (a window title): up to BEL or ST, at
                      # most to the end of the line
                      r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d-\x9f])[^\x07\x1b\x9c\n]*"
                      r"(?:\x07|\x1b\\|\x9c)?"
                      r"|\x1b[ -/]*[0-~]?)")
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def plain(text: str) -> str:
    """``text`` without terminal escape sequences and control characters
    (tabs and newlines kept, ``\\r\\n`` read as a newline): what another
    program printed can neither retitle, clear nor recolour the terminal it
    is shown on."""
    if text.isprintable() or not _CONTROLS.search(text):  # no escape without a control
        return text
    text = text.replace("\r\n", "\n")
    return _CONTROLS.sub("", _ESCAPES.sub("", text))


def start(argv: Sequence[str], env: Mapping[str, str], cwd: Path | None = None,
          merge_stderr: bool = False) -> subprocess.Popen[bytes]:
    """``argv`` started in a new session (its own process group), without
    standard input.  Raises OSError when it cannot be started."""
    return subprocess.Popen(list(argv), env=dict(env), cwd=cwd, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT if merge_stderr else subprocess.PIPE,
                            start_new_session=True)


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL to the process group ``proc`` leads (its pid: ``start`` made
    it a session leader), before ``proc`` is reaped so the id cannot have
    been reused."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def finish(proc: subprocess.Popen[bytes], timeout: float) -> tuple[int | None, str, str]:
    """(exit status, stdout, stderr) of ``proc``; status None when it did not
    finish within ``timeout`` seconds: then its whole group is killed.  Any
    error or interrupt here kills the group too before it goes on."""
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        late, late_err = _drain(proc)
        return None, _text(late), _text(late_err)
    except BaseException:
        kill_group(proc)
        _drain(proc)
        raise
    return proc.returncode, _text(out), _text(err)


def _drain(proc: subprocess.Popen[bytes]) -> tuple[bytes | None, bytes | None]:
    try:
        return proc.communicate(timeout=_DRAIN)
    except subprocess.TimeoutExpired:  # a process outside the group holds the pipes
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
        proc.wait()
        return None, None


def _text(data: bytes | None) -> str:
    return plain(data.decode("utf-8", "replace")) if data else ""
