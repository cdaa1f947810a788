"""``find_package`` for every ROCm package the converted file uses, where
CMake runs it before each use: a ``find_package`` in one branch of an
``if()`` (or in a function) does not cover a use in another, as a
hand-ported file's HIP branch finding ``hipblaslt`` does not cover the
converted CUDA branch's ``roc::hipblaslt``.

Each use not covered by a ``find_package`` of its package before it, in
the same block or an enclosing one, gets one: after the toolkit's
``find_package`` (become ``find_package(hip)``) that covers the use, else
after the converted ``project()``/``enable_language()`` at the top of the
file, else (a module included by others, a function adding the targets)
just before the command using it; imported targets are visible in the
whole directory from there on."""
from __future__ import annotations

from dataclasses import dataclass

from hipport.buildfiles.cmake.passes import Block, CMakePass, block_paths, indent
from hipport.buildfiles.cmake.tokens import Command


@dataclass(frozen=True)
class _Find:
    package: str
    at: int  # command index
    path: Block
    strictly_before: bool = True  # an inserted one covers the command it precedes too


def _covers(find: _Find, at: int, paths: list[Block]) -> bool:
    before = find.at < at if find.strictly_before else find.at <= at
    return before and paths[at][:len(find.path)] == find.path


def insert_find_packages(p: CMakePass, commands: list[Command]) -> None:
    """HP604 (HP654 where no command holds the use)."""
    paths = block_paths(commands)
    finds = [_Find(p.libs.packages.get(c.words[0].value, c.words[0].value), i, paths[i])
             for i, c in enumerate(commands) if c.lname == "find_package" and c.words]
    uses: list[tuple[str, int]] = []
    if p.needs_hip:
        uses += [("hip", at) for at in p.host_uses or [p.language_end or 0]]
    uses += [(lib.cmake_package, at) for lib, at in p.uses if lib.cmake_package]
    toolkit = [(commands.index(cmd), cmd, required) for cmd, required in p.toolkit_finds]
    language = next((i for i, c in enumerate(commands) if c.end == p.language_end), None)
    after: dict[int, tuple[Command, bool, list[str]]] = {}  # command index -> packages
    before: dict[int, list[str]] = {}
    for package, offset in uses:
        at = next((i for i, c in enumerate(commands) if c.start <= offset <= c.end), None)
        if at is None:
            p.report("HP654", f"needs find_package({package}), but the CUDA toolkit is not "
                     "found in this file; add it where it is", offset, offset)
            continue
        if any(f.package == package and _covers(f, at, paths) for f in finds):
            continue
        anchor = next(((i, cmd, required) for i, cmd, required in toolkit
                       if _covers(_Find("hip", i, paths[i]), at, paths)), None)
        if anchor is None and language is not None and not paths[language] and language < at:
            anchor = (language, commands[language], True)
        if anchor is not None:
            i, cmd, required = anchor
            after.setdefault(i, (cmd, required, []))[2].append(package)
            finds.append(_Find(package, i, paths[i]))
        else:
            before.setdefault(at, []).append(package)
            finds.append(_Find(package, at, paths[at], strictly_before=False))
    for i, (cmd, required, packages) in after.items():
        prefix = indent(p.text, cmd.start)
        suffix = " REQUIRED" if required else ""
        order = _order(packages)
        where = cmd.end
        lines = "".join(f"\n{prefix}find_package({pkg}{suffix})" for pkg in order)
        p.edit("HP604", "find_package for the ROCm libraries used: " + ", ".join(order),
               where, where, lines)
    for at, packages in before.items():
        start = commands[at].start
        prefix = indent(p.text, start)
        order = _order(packages)
        lines = "".join(f"find_package({pkg} REQUIRED)\n{prefix}" for pkg in order)
        p.edit("HP604", "find_package for the ROCm libraries used here: " + ", ".join(order),
               start, start, lines, claim=False)


def _order(packages: list[str]) -> list[str]:
    return sorted(dict.fromkeys(packages), key=lambda name: (name != "hip", name))  # hip first
