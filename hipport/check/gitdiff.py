"""Lines a change adds, from `git diff --unified=0`: for `--staged` (the index
against HEAD) and `--diff-base REV` (the working tree against the merge base
of REV and HEAD).

Git is run as a subprocess with the options that make its output
predictable whatever the user's configuration (prefixes, quoting, external
diff drivers, colour).  File names cross as NUL-separated bytes (`-z`) wherever
git offers it: the changed files come from `--name-only -z`, index copies are
asked for on stdin with `-z`.  The patch itself has no `-z` form; its `+++`
headers are decoded (C quoting, the tab git adds after a name with a space)
and every name read there must be one of the `-z` names, else the run stops
with an error instead of silently checking less."""
from __future__ import annotations

import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from hipport.errors import UsageError
from hipport.filenames import shown_path

# Neutralise configuration that changes the shape of `git diff` output.
_CONFIG = ("-c", "core.quotePath=false", "-c", "diff.noprefix=false",
           "-c", "diff.mnemonicPrefix=false", "-c", "diff.relative=false",
           "-c", "color.ui=false")
_DIFF = ("diff", "--unified=0", "--no-color", "--no-ext-diff", "--no-textconv",
         "--src-prefix=a/", "--dst-prefix=b/", "--find-renames", "--ignore-submodules")
_HUNK = re.compile(r"@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class GitError(UsageError):
    pass


@dataclass(frozen=True)
class Change:
    """What a diff adds: absolute file path -> 1-based line numbers."""

    root: Path  # the repository's top level
    added: dict[Path, frozenset[int]]
    description: str  # "staged changes" / "changes since origin/main (merge base abc123)"


def git(args: Sequence[str], cwd: Path, what: str, stdin: bytes | None = None) -> str:
    """Git's stdout; a clear error when git is missing or fails."""
    try:
        proc = subprocess.run(["git", *_CONFIG, *args], cwd=cwd, capture_output=True,
                              input=stdin, check=False)
    except FileNotFoundError:
        raise GitError(f"{what} needs git, which is not on PATH") from None
    if proc.returncode != 0:
        message = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        detail = message[-1] if message else f"exit status {proc.returncode}"
        if "not a git repository" in detail:
            raise GitError(f"{what}: {cwd} is not inside a git repository")
        raise GitError(f"{what}: git {' '.join(args[:2])} failed: {detail}")
    return proc.stdout.decode("utf-8", "surrogateescape")


def repository_root(cwd: Path, what: str) -> Path:
    # Only the newline git ends the line with: a folder name may end in spaces.
    out = git(["rev-parse", "--show-toplevel"], cwd, what)
    return Path(out[:-1] if out.endswith("\n") else out)


def staged_changes(cwd: Path, pathspecs: Sequence[Path] = ()) -> Change:
    root = repository_root(cwd, "--staged")
    head = _has_head(root)
    # Before the first commit everything staged is new: diff against the empty tree.
    base = "HEAD" if head else _empty_tree(root)
    added = _added_lines(["--cached", base, "--", *_specs(pathspecs)], root, "--staged")
    return Change(root, added, "staged changes")


def changes_since(rev: str, cwd: Path, pathspecs: Sequence[Path] = ()) -> Change:
    what = f"--diff-base {rev}"
    if rev.startswith("-"):
        raise GitError(f"{what}: not a revision")
    root = repository_root(cwd, what)
    try:
        git(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], root, what)
    except GitError:
        raise GitError(f"{what}: unknown revision (not a commit in {root})") from None
    try:
        base = git(["merge-base", rev, "HEAD"], root, what).strip()
    except GitError:
        raise GitError(f"{what}: {rev} and HEAD have no common ancestor here (a shallow "
                       "clone? fetch more history, e.g. `fetch-depth: 0` in CI)") from None
    added = _added_lines([base, "--", *_specs(pathspecs)], root, what)
    return Change(root, added, f"changes since {rev} (merge base {base[:12]})")


def _added_lines(args: Sequence[str], root: Path, what: str) -> dict[Path, frozenset[int]]:
    """The lines the diff ``args`` adds, by file; each file name checked
    against git's NUL-separated list of the files that diff changes."""
    names = git([*_DIFF, "--name-only", "-z", *args], root, what)
    changed = {root / name for name in names.split("\0") if name}
    added = parse_added_lines(git([*_DIFF, *args], root, what), root)
    unknown = sorted(set(added) - changed)
    if unknown:
        raise GitError(f"{what}: could not read the file name `{shown_path(unknown[0])}` in "
                       "git's diff output; please report this with the file's name")
    return added


def unstaged_files(root: Path) -> set[Path]:
    """Files whose working-tree copy differs from the index."""
    out = git(["diff", "--name-only", "-z", "--no-ext-diff", "--ignore-submodules"], root,
              "--staged")
    return {root / name for name in out.split("\0") if name}


def index_copies(root: Path, files: Iterable[Path]) -> tuple[tempfile.TemporaryDirectory[str],
                                                            dict[Path, Path]]:
    """The index (staged) version of ``files``, in a temporary folder that the
    caller must clean up: the check reads what will be committed."""
    folder = tempfile.TemporaryDirectory(prefix="hipport-staged-")
    rel = [f.relative_to(root).as_posix() for f in files]
    names = b"".join(os.fsencode(r) + b"\0" for r in rel)
    git(["checkout-index", f"--prefix={folder.name}{os.sep}", "-z", "--stdin"], root,
        "--staged", stdin=names)
    return folder, {f: Path(folder.name) / r for f, r in zip(files, rel)}


def _has_head(root: Path) -> bool:
    proc = subprocess.run(["git", "rev-parse", "--verify", "--quiet", "HEAD"], cwd=root,
                          capture_output=True, check=False)
    return proc.returncode == 0


def _empty_tree(root: Path) -> str:
    proc = subprocess.run(["git", "hash-object", "-t", "tree", "--stdin"], cwd=root,
                          input=b"", capture_output=True, check=False)
    return proc.stdout.decode().strip() or "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


def _specs(paths: Sequence[Path]) -> list[str]:
    # Literal pathspecs: a file named `*.cu` means that file, not a glob.
    return [f":(literal){os.path.abspath(p)}" for p in paths]


def parse_added_lines(diff: str, root: Path) -> dict[Path, frozenset[int]]:
    """{absolute path: added line numbers} from `git diff --unified=0` output.

    Hunk bodies are skipped by their line counts, never by their text: an
    added line `++i;` shows up as `+++i;` and must not be taken for a header."""
    added: dict[Path, set[int]] = {}
    current: Path | None = None
    lines = diff.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if line.startswith("diff --git "):
            current = None
        elif line.startswith("+++ "):
            current = _new_name(line[4:], root)
        elif line.startswith("@@ "):
            match = _HUNK.match(line)
            if match is None:
                continue
            old = 1 if match.group(1) is None else int(match.group(1))
            start = int(match.group(2))
            new = 1 if match.group(3) is None else int(match.group(3))
            if current is not None and new:
                added.setdefault(current, set()).update(range(start, start + new))
            i = _skip_body(lines, i, old + new)
    return {path: frozenset(numbers) for path, numbers in added.items()}


def _new_name(header: str, root: Path) -> Path | None:
    """The file a `+++ ` header names.  Git quotes a name with control
    characters, quotes or backslashes (`"b/a\\tb.cu"`), and ends a name that
    holds a space with a tab (`b/my kernel.cu<TAB>`) for the sake of patch(1)."""
    if header == "/dev/null":
        return None
    if header.startswith('"'):
        name = _unquote(header)
    else:
        name = header[:-1] if header.endswith("\t") else header
    return root / name[2:]


def _skip_body(lines: list[str], i: int, count: int) -> int:
    while count and i < len(lines):
        if not lines[i].startswith("\\"):  # "\ No newline at end of file"
            count -= 1
        i += 1
    while i < len(lines) and lines[i].startswith("\\"):
        i += 1
    return i


_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}


def _unquote(name: str) -> str:
    """Git's C-style quoting of unusual file names (`"a\\tb.cu"`, octal bytes)."""
    if not (len(name) >= 2 and name.startswith('"') and name.endswith('"')):
        return name
    body = name[1:-1]
    out = bytearray()
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\" or i + 1 == len(body):
            out += ch.encode("utf-8", "surrogateescape")
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        elif body[i + 1:i + 4].isdigit() and len(body[i + 1:i + 4]) == 3:
            out.append(int(body[i + 1:i + 4], 8) & 0xFF)
            i += 4
        else:
            out += nxt.encode("utf-8", "surrogateescape")
            i += 2
    return out.decode("utf-8", "surrogateescape")
