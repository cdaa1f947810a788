"""The baseline: known violations that do not fail the check.

A violation is remembered by a fingerprint that survives edits elsewhere in
the file: its file (relative to the baseline's folder), what it is about (the
CUDA API name; the code for findings without one) and a hash of its source
line with all whitespace removed.  Line numbers are not part of it, so
inserting lines above, reformatting indentation or renaming code on other
lines keeps it matched; changing the line itself makes it a new violation.

Identical fingerprints (the same call on two identical lines) are counted:
a third copy of a line the baseline knows twice is one new violation.
"""
from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from hipport.check.gitdiff import Change, GitError, repository_root
from hipport.check.policy import CheckConfig
from hipport.errors import HipportError
from hipport.filenames import shown, shown_path, unescape
from hipport.writing import write_atomic

BASELINE_NAME = ".hipport-baseline.json"
FORMAT_VERSION = 1
# How to recover from a baseline hipport cannot read.  `--write-baseline`
# refuses to overwrite it: the entries of files not checked this time would be
# lost without a word.
_START_OVER = ("; or delete the file and run `hipport check --write-baseline` over the "
               "whole tree to start over")
_COMMENT = ("Known violations that `hipport check` does not fail on. Regenerate with "
            "`hipport check --write-baseline`; review additions like code.")


class BaselineError(HipportError):
    pass


@dataclass(frozen=True, order=True)
class Fingerprint:
    path: str  # posix, relative to the baseline's folder when inside it
    subject: str  # the CUDA API name, or the code when the finding names no API
    context: str  # hash of the whitespace-free source line

    def short(self) -> str:
        """One string for JSON/SARIF output."""
        return f"{self.subject}:{self.context}"


def context_hash(line: bytes) -> str:
    return hashlib.sha256(b"".join(line.split())).hexdigest()[:16]


def fingerprint(rel_path: str, code: str, api: str | None, line: bytes) -> Fingerprint:
    return Fingerprint(rel_path, api or code, context_hash(line))


def relative_key(file: Path, root: Path) -> str:
    """``file`` as the baseline names it: relative to ``root`` when inside it,
    escaped like every name hipport shows (``hipport.filenames``), so that a
    name that is not UTF-8 still fits in JSON."""
    absolute = Path(os.path.abspath(file))
    try:
        return shown(absolute.relative_to(Path(os.path.abspath(root))).as_posix())
    except ValueError:
        return shown(absolute.as_posix())


@dataclass
class Baseline:
    path: Path
    counts: Counter[Fingerprint] = field(default_factory=Counter)
    codes: dict[Fingerprint, str] = field(default_factory=dict)  # for writing it back

    @property
    def root(self) -> Path:
        return self.path.parent

    def __len__(self) -> int:
        return sum(self.counts.values())

    @classmethod
    def load(cls, path: Path) -> Baseline:
        """The baseline at ``path``; empty when there is no such file."""
        where = shown_path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls(path)
        except (OSError, UnicodeDecodeError) as exc:
            raise BaselineError(f"{where}: cannot read the baseline: {exc}") from None
        conflict = _conflict_line(text)
        if conflict:
            raise BaselineError(f"{where}:{conflict}: the baseline holds unresolved git merge "
                                f"conflict markers; resolve the conflict (keep the entries of "
                                f"both sides){_START_OVER}")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise BaselineError(f"{where}: malformed baseline JSON: {exc}; fix it{_START_OVER}") \
                from None
        except RecursionError:
            raise BaselineError(f"{where}: malformed baseline JSON: nested too deeply; fix it"
                                f"{_START_OVER}") from None
        baseline = cls(path)
        for fp, code, count in _entries(data, path):
            baseline.counts[fp] += count
            baseline.codes[fp] = code
        return baseline

    def known(self, items: Iterable[Fingerprint]) -> list[bool]:
        """For each fingerprint, in order: whether the baseline accounts for it
        (each entry covers as many occurrences as its count)."""
        left = Counter(self.counts)
        out = []
        for fp in items:
            if left[fp] > 0:
                left[fp] -= 1
                out.append(True)
            else:
                out.append(False)
        return out


def _conflict_line(text: str) -> int:
    """The line of the first git conflict marker in ``text``; 0 if none."""
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith(("<<<<<<< ", ">>>>>>> ")) or line in ("<<<<<<<", ">>>>>>>"):
            return number
    return 0


def _entries(data: Any, path: Path) -> Iterable[tuple[Fingerprint, str, int]]:
    if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION:
        raise BaselineError(f"{shown_path(path)}: not a hipport baseline (expected a JSON "
                            f'object with "version": {FORMAT_VERSION}){_START_OVER}')
    findings = data.get("findings", [])
    if not isinstance(findings, list):
        raise BaselineError(f'{shown_path(path)}: "findings" must be a list{_START_OVER}')
    for i, entry in enumerate(findings):
        where = f"{shown_path(path)}: findings[{i}]"
        if not isinstance(entry, dict):
            raise BaselineError(f"{where}: expected an object")
        strings = {k: entry.get(k) for k in ("path", "code", "context")}
        for key, value in strings.items():
            if not isinstance(value, str) or not value:
                raise BaselineError(f'{where}: "{key}" must be a non-empty string')
        api = entry.get("api")
        if api is not None and (not isinstance(api, str) or not api):
            raise BaselineError(f'{where}: "api" must be a non-empty string or null')
        count = entry.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise BaselineError(f'{where}: "count" must be a positive integer')
        code = str(strings["code"])
        yield Fingerprint(str(strings["path"]), api or code, str(strings["context"])), code, count


def render(counts: Counter[Fingerprint], codes: dict[Fingerprint, str]) -> bytes:
    """The baseline file's bytes: sorted, one entry per fingerprint, so that
    regenerating an unchanged tree gives an identical file (and small diffs)."""
    entries = []
    for fp in sorted(counts):
        if counts[fp] <= 0:
            continue
        code = codes.get(fp, fp.subject)
        entries.append({"path": fp.path, "code": code,
                        "api": None if fp.subject == code else fp.subject,
                        "context": fp.context, "count": counts[fp]})
    document = {"version": FORMAT_VERSION, "comment": _COMMENT, "findings": entries}
    text = json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False)
    return (text + "\n").encode("utf-8")


def write(old: Baseline, found: Iterable[tuple[Fingerprint, str]],
          checked: set[str]) -> tuple[int, int]:
    """Write the baseline: entries of the ``checked`` files (relative keys) are
    replaced by ``found``; entries of other files are kept while the file
    exists.  Returns (entries written, entries dropped)."""
    counts: Counter[Fingerprint] = Counter()
    codes: dict[Fingerprint, str] = {}
    dropped = 0
    for fp, n in old.counts.items():
        if fp.path in checked:
            continue
        if not _exists(old.root, fp.path):
            dropped += n
            continue
        counts[fp] += n
        codes[fp] = old.codes[fp]
    for fp, code in found:
        counts[fp] += 1
        codes[fp] = code
    try:
        write_atomic(old.path, render(counts, codes))
    except OSError as exc:
        raise BaselineError(f"{shown_path(old.path)}: cannot write the baseline: {exc.strerror}; "
                            "the previous baseline is unchanged") from None
    return sum(counts.values()), dropped


def _exists(root: Path, key: str) -> bool:
    path = Path(os.fsdecode(unescape(key)))
    return (path if path.is_absolute() else root / path).is_file()


def find_baseline(explicit: Path | None, config: CheckConfig, start: Path,
                  change: Change | None, writing: bool) -> Path | None:
    """--baseline, else the configured one, else .hipport-baseline.json next to
    the configuration file, else the nearest one above the inputs.  When
    writing a new one without any of those: at the repository's top level
    (or the current folder outside git)."""
    if explicit is not None:
        return Path(os.path.abspath(explicit))
    if config.baseline is not None:
        return Path(os.path.abspath(config.baseline))
    if config.root is not None:
        return config.root / BASELINE_NAME
    here = Path(os.path.abspath(start))
    here = here if here.is_dir() else here.parent
    for folder in (here, *here.parents):
        if (folder / BASELINE_NAME).is_file():
            return folder / BASELINE_NAME
    if not writing:
        return None
    if change is not None:
        return change.root / BASELINE_NAME
    try:
        return repository_root(here, "--write-baseline") / BASELINE_NAME
    except GitError:
        return Path.cwd() / BASELINE_NAME
