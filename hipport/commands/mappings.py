"""`hipport mappings ...`: inspect, validate and document the catalogue."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Sequence

import click

from hipport.errors import HipportError, MappingFileError, UsageError
from hipport.libraries import SCHEMA_ID as LIBRARY_SCHEMA
from hipport.libraries import parse_library_table
from hipport.polyfills.load import bundled_polyfills, merge
from hipport.polyfills.schema import is_polyfill_file, parse_polyfill_file
from hipport.suggest import did_you_mean
from hipport.table import load_table, parse_mapping_file, read_mapping_text
from hipport.table.coverage import coverage
from hipport.table.docs import library_pages, roc_target
from hipport.table.schema import Mapping
from hipport.words import plural


def _describe(m: Mapping) -> str:
    lines = [f"{m.cuda} -> {m.hip or '(no HIP equivalent)'}",
             f"  kind: {m.kind}   library: {m.library}   status: {m.status.value}"
             + ("   applicability: unsafe" if m.unsafe else "")]
    if m.rule:
        lines.append(f"  rule: {m.rule}")
    if m.cuda_version or m.rocm_version:
        lines.append("  versions: " + ", ".join([f"CUDA {k} {v}" for k, v in m.cuda_version]
                                                + [f"ROCm {k} {v}" for k, v in m.rocm_version]))
    if m.note:
        lines.append(f"  note: {m.note}")
    if m.older is not None:
        lines.append(f"  before ROCm {m.rocm_added}: {m.older.hip}"
                     + (f" ({m.older.note})" if m.older.note else ""))
    if m.newer is not None:
        lines.append(f"  from ROCm {m.newer.rocm_added}: {m.newer.hip}"
                     + (f" ({m.newer.note})" if m.newer.note else ""))
    roc = roc_target(m)
    if roc is not None:
        lines.append(f"  --roc: {roc}")
    lines.append(f"  defined at: {m.origin}")
    return "\n".join(lines)


def list_entries(rules: Sequence[str], library: str | None, status: str | None,
                 roc: bool = False) -> int:
    table = load_table(rules).in_mode(roc)
    libraries = sorted({m.library for m in table})
    if library is not None and library not in libraries:
        hint = did_you_mean(library, libraries) or "; libraries: " + ", ".join(libraries)
        raise UsageError(f"unknown library {library!r}{hint}")
    count = 0
    for m in sorted(table, key=lambda m: (m.library, m.cuda)):
        if (library and m.library != library) or (status and m.status.value != status):
            continue
        click.echo(f"{m.cuda}\t{m.hip or '-'}\t{m.kind}\t{m.library}\t{m.status.value}")
        count += 1
    click.echo(plural(count, "entry"), err=True)
    return 0


def show(names: Sequence[str], rules: Sequence[str]) -> int:
    table = load_table(rules)
    missing = 0
    for name in names:
        m = table.lookup(name)
        if m is None:
            close = did_you_mean(name, (e.cuda for e in table))
            click.echo(f"{name}: not in the catalogue{close}", err=True)
            missing += 1
        else:
            click.echo(_describe(m))
    return 1 if missing else 0


# The library table (mappings/rocm-libraries.yaml) validates with its own schema.
LIBRARY_SCHEMA_LINE = re.compile(rf"^schema:[ \t]*{re.escape(LIBRARY_SCHEMA)}[ \t]*$", re.M)


def _validate_polyfills(text: str, path: Path) -> str:
    """A polyfill file, checked with the bundled files it may require (the
    bundled family of the same name is the one it replaces)."""
    family = parse_polyfill_file(text, str(path))
    others = [f for f in bundled_polyfills().families if f.id != family.id]
    merge([*others, family])
    return f"{path}: {len(family.fallbacks)} fallbacks, valid"


def validate(files: Sequence[Path]) -> int:
    """Mapping files, polyfill files and the library table (told apart by
    their schema): 1 when a file is invalid; 2 when one cannot be read
    (missing, a folder, not UTF-8), which says so in one line naming it."""
    failures = unreadable = 0
    for path in files:
        try:
            text = read_mapping_text(path)
        except MappingFileError as exc:
            click.echo(f"hipport: error: {exc}", err=True)
            unreadable += 1
            continue
        try:
            if LIBRARY_SCHEMA_LINE.search(text):
                libraries = parse_library_table(text, str(path))
                click.echo(f"{path}: {len(libraries.cuda)} CUDA and {len(libraries.rocm)} ROCm "
                           "libraries, valid")
                continue
            if is_polyfill_file(text):
                click.echo(_validate_polyfills(text, path))
                continue
            entries = parse_mapping_file(text, str(path))
            seen: dict[str, str] = {}
            for e in entries:
                if e.cuda in seen:
                    raise HipportError(f"{e.origin}: duplicate CUDA name {e.cuda!r} "
                                       f"(also at {seen[e.cuda]})")
                seen[e.cuda] = e.origin
        except HipportError as exc:
            click.echo(f"{exc}", err=True)
            failures += 1
        else:
            click.echo(f"{path}: {plural(len(entries), 'entry')}, valid")
    return 2 if unreadable else 1 if failures else 0


def stats(rules: Sequence[str]) -> int:
    table = load_table(rules)
    rows = coverage(table)
    click.echo(f"{'library':20} {'in headers':>10} {'catalogued':>10} {'coverage':>8} "
               f"{'entries':>8} {'supported':>9} {'unsupp.':>8} {'removed':>8}  headers read")
    total_names = total_found = 0
    for r in rows:
        total_names += r.in_headers
        total_found += r.catalogued
        click.echo(f"{r.library:20} {r.in_headers:>10} {r.catalogued:>10} {r.coverage:>8.1%} "
                   f"{r.entries:>8} {r.supported:>9} {r.statuses['unsupported']:>8} "
                   f"{r.statuses['removed']:>8}  {r.source}")
    supported = sum(r.supported for r in rows)
    click.echo(f"total: {plural(len(table), 'entry')}, {supported} with a HIP equivalent; "
               f"{total_found}/{total_names} public CUDA names from the headers catalogued")
    return 0


def write_docs(out: Path, check: bool) -> int:
    pages = library_pages(load_table())
    stale = []
    for name, text in pages.items():
        target = out / name
        current = target.read_text(encoding="utf-8") if target.exists() else None
        if current != text:
            stale.append(name)
            if not check:
                out.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
    if check and stale:
        click.echo(f"stale: {', '.join(stale)} (run `hipport mappings docs`)", err=True)
        return 1
    click.echo(f"{plural(len(pages), 'page')} {'checked' if check else 'written'} in {out}",
               err=True)
    return 0
