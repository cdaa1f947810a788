"""Function prototypes of the CUDA and HIP headers, and the parameters where
HIP's declaration is stricter than CUDA's.

A call that compiles against CUDA's prototype may not compile against HIP's
once renamed: `nvrtcCompileProgram(p, n, opts)` with `char** opts` converts
implicitly to CUDA's `const char* const*` but not to hiprtc's `const char**`.
This module reads both prototypes of every catalogued function, puts the
CUDA type names of CUDA's through the catalogue (`nvrtcProgram` ->
`hiprtcProgram`) and compares them parameter by parameter:

* ``cast``: an argument CUDA accepts implicitly reaches HIP's parameter through
  a cast to HIP's type that keeps its value: const-ness HIP leaves out at an
  inner pointer level (`const char* const*` -> `const char**`, which the
  callee does not write through), or `void*` where HIP names the pointee;
* ``report``: no cast keeps the meaning: the pointee differs
  (`size_t*` -> `int*`), or HIP takes an enum where CUDA takes an integer
  (CUDA's values need not be HIP's).

Pure standard library over header text (``prototypes``), plus the scan of the
header sets (``stricter_parameters``) that ``python -m tools.catalogue.signatures``
prints and, with ``--write``, records as ``casts:`` in mappings/*.yaml.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterable, Mapping

import yaml

from .cscan import _TOKEN_RE, _function_name, _skip_block, _strip

_PP_LINE_RE = re.compile(r"^[ \t]*#.*$", re.M)
# Words in a parameter that say nothing about its type.
_NOISE = frozenset({
    "extern", "static", "inline", "__host__", "__device__", "__forceinline__", "CUDARTAPI",
    "CUDAAPI", "CUBLASAPI", "CUBLASWINAPI", "CURANDAPI", "CUFFTAPI", "CUSOLVERAPI",
    "CUSPARSEAPI", "HIPBLAS_EXPORT", "HIPSPARSE_EXPORT", "HIPSOLVER_EXPORT", "HIPFFT_EXPORT",
    "HIPRAND_EXPORT", "HIPRTC_EXPORT", "ROCBLAS_EXPORT", "ROCRANDAPI", "__restrict__",
    "__restrict", "restrict", "struct",
    "enum", "union", "class", "register", "_Nullable", "_Nonnull", "CUDNNWINAPI",
    "__cudart_builtin__", "__device_builtin__", "__dv", "typename",
})
_FUNDAMENTAL = frozenset({
    "void", "char", "short", "int", "long", "float", "double", "signed", "unsigned", "bool",
    "_Bool", "size_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
    "uint32_t", "uint64_t", "__half", "__nv_bfloat16", "hipblasHalf",
})
_WORD = re.compile(r"[A-Za-z_]\w*\Z")


@dataclass(frozen=True)
class Type:
    """A parameter type: its base (`unsigned int`, `hiprtcProgram`), whether
    the base is const, and one const flag per pointer level, outermost last
    (`const char* const*` is base `char`, const, levels (True, False)).  The
    flag of the last level (the parameter itself) never matters to a caller."""

    base: str
    base_const: bool
    levels: tuple[bool, ...]

    def spelled(self) -> str:
        out = ("const " if self.base_const else "") + self.base
        for i, const in enumerate(self.levels):
            out += "*" + (" const" if const and i < len(self.levels) - 1 else "")
        return out

    def renamed(self, names: Mapping[str, str]) -> Type:
        words = [names.get(w, w) for w in self.base.split()]
        return Type(" ".join(words), self.base_const, self.levels)


def parse_type(tokens: list[str]) -> Type | None:
    """The type of one parameter (its name, default and attributes dropped);
    None for what this scanner does not model (function pointers, arrays of
    arrays, `...`)."""
    tokens = _without_calls(tokens)
    if "=" in tokens:
        tokens = tokens[:tokens.index("=")]
    if not tokens or "(" in tokens or "..." in tokens or tokens == ["."] * len(tokens):
        return None
    if "[" in tokens:  # `char* names[]` is `char**`
        tokens = tokens[:tokens.index("[")] + ["*"]
    words = [t for t in tokens if t not in _NOISE]
    base: list[str] = []
    base_const = False
    levels: list[bool] = []
    for t in words:
        if t == "*" or t == "&":
            levels.append(False)
        elif t == "const":
            if levels:
                levels[-1] = True
            else:
                base_const = True
        elif t == "volatile":
            continue
        elif _WORD.match(t) or t == "::":
            if levels:  # the parameter's name after its last `*`
                continue
            base.append(t)
        else:
            return None
    if len(base) > 1 and not all(w in _FUNDAMENTAL or w in ("long", "short") for w in base):
        base = base[:-1]  # `hiprtcProgram prog`: the last word is the name
    elif len(base) > 1 and base[-1] not in _FUNDAMENTAL:
        base = base[:-1]
    if not base or base == ["void"] and not levels:
        return None
    return Type(" ".join(base).replace(" ::", "::").replace(":: ", "::"), base_const,
                tuple(levels))


def _without_calls(tokens: list[str]) -> list[str]:
    """Drops `__dv(0)`, `__attribute__((...))` and other MACRO(...) noise."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if (t in ("__dv", "__attribute__", "__declspec", "__align__", "alignas")
                or re.fullmatch(r"_*[A-Z][A-Z0-9_]+", t)) and i + 1 < len(tokens) \
                and tokens[i + 1] == "(":
            depth, j = 0, i + 1
            while j < len(tokens):
                depth += {"(": 1, ")": -1}.get(tokens[j], 0)
                j += 1
                if depth == 0:
                    break
            i = j
            continue
        out.append(t)
        i += 1
    return out


def _split(tokens: list[str]) -> list[list[str]]:
    parts: list[list[str]] = [[]]
    depth = 0
    for t in tokens:
        if t in "([<":
            depth += 1
        elif t in ")]>":
            depth -= 1
        if t == "," and depth == 0:
            parts.append([])
        else:
            parts[-1].append(t)
    return parts


Prototype = tuple[Type | None, ...]


@dataclass
class Declared:
    """What headers declare: function prototypes, typedefs of types this
    scanner models, and `#define name other_name` aliases (cuda.h's
    `cuMemAlloc` -> `cuMemAlloc_v2`)."""

    functions: dict[str, list[Prototype]] = field(default_factory=dict)
    typedefs: dict[str, Type] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)

    def update(self, other: Declared) -> None:
        for name, found in other.functions.items():
            known = self.functions.setdefault(name, [])
            known += [p for p in found if p not in known]
        for name, t in other.typedefs.items():
            self.typedefs.setdefault(name, t)
        for name, target in other.aliases.items():
            self.aliases.setdefault(name, target)

    def prototypes_of(self, name: str) -> list[Prototype]:
        return self.functions.get(self.aliases.get(name, name), [])


# `#define cuMemAlloc cuMemAlloc_v2`, `#define cuMemcpyHtoD __CUDA_API_PTDS(cuMemcpyHtoD_v2)`
_ALIAS_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+(?:__CUDA_API_PT\w+\("
                       r"[ \t]*)?([A-Za-z_]\w*)[ \t]*\)?[ \t]*$", re.M)


def declared(text: str) -> Declared:
    """Every function ``text`` declares at namespace scope, with the types of
    its parameters, and its typedefs; templates are left out (they are C++
    overloads, which the catalogue's own rules handle), and so are
    declarations inside bodies."""
    out = Declared()
    stripped = _strip(text)
    out.aliases = {m.group(1): m.group(2) for m in _ALIAS_RE.finditer(stripped)}
    toks = _TOKEN_RE.findall(_PP_LINE_RE.sub(" ", stripped))
    stmt: list[str] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t in (";", "{", "}"):
            if t == "{" and not (stmt and (stmt[0] in ("namespace", "inline") or
                                           stmt[-2:] == ["extern", '"C"'])):
                _record(stmt, out.functions)
                i = _skip_block(toks, i)
                # `typedef struct {...} name;` names a type this scanner cannot compare
                stmt = ["{", "}"] if stmt and stmt[0] == "typedef" else []
                continue
            if t == ";":
                _record(stmt, out.functions)
                _record_typedef(stmt, out.typedefs)
            stmt = []
        else:
            stmt.append(t)
        i += 1
    return out


def prototypes(text: str) -> dict[str, list[Prototype]]:
    return declared(text).functions


def _record_typedef(stmt: list[str], out: dict[str, Type]) -> None:
    if "typedef" in stmt:  # after macro calls with no `;` of their own
        stmt = stmt[len(stmt) - 1 - stmt[::-1].index("typedef"):]
    if len(stmt) < 3 or stmt[0] != "typedef" or "(" in stmt or "{" in stmt:
        return
    name = stmt[-1]
    if not _WORD.match(name) or name in _FUNDAMENTAL:
        return
    tagged = any(k in stmt for k in ("struct", "enum", "union"))
    # `typedef struct dim3 dim3;` names the tag: nothing to expand
    aliased = parse_type(stmt[1:-1]) if "*" in stmt or not tagged else None
    if aliased is not None and aliased.base != name:
        out[name] = aliased


def _record(stmt: list[str], out: dict[str, list[Prototype]]) -> None:
    if not stmt or stmt[0] == "template" or "typedef" in stmt[:2]:
        return
    name = _function_name(stmt)
    if name is None:
        return
    at = max(k for k in range(1, len(stmt)) if stmt[k - 1] == name and stmt[k] == "(") \
        if stmt.count(name) > 1 else stmt.index(name) + 1
    depth, end = 0, at
    for end in range(at, len(stmt)):
        depth += {"(": 1, ")": -1}.get(stmt[end], 0)
        if depth == 0:
            break
    inner = stmt[at + 1:end]
    params = [] if inner in ([], ["void"]) else _split(inner)
    proto = tuple(parse_type(p) for p in params)
    if proto not in out.setdefault(name, []):
        out[name].append(proto)


def header_declarations(files: Iterable[Path]) -> Declared:
    out = Declared()
    for f in files:
        try:
            text = f.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        out.update(declared(text))
    return out


# --- comparing --------------------------------------------------------------------

# LP64 (Linux x86-64, the only host ROCm has): the fixed-width names and what
# a spelling of an integer type is.
_STANDARD = {"int64_t": "long", "uint64_t": "unsigned long", "int32_t": "int",
             "uint32_t": "unsigned int", "int16_t": "short", "uint16_t": "unsigned short",
             "int8_t": "signed char", "uint8_t": "unsigned char", "size_t": "unsigned long",
             "ssize_t": "long", "intptr_t": "long", "uintptr_t": "unsigned long"}
_WIDTH = {"char": 1, "signed char": 1, "unsigned char": 1, "short": 2, "unsigned short": 2,
          "int": 4, "unsigned int": 4, "long": 8, "unsigned long": 8, "long long": 8,
          "unsigned long long": 8}


_FLOATING = frozenset({"float", "double", "long double"})


def _integer(base: str) -> str:
    words = base.split()
    if any(w not in ("signed", "unsigned", "int", "long", "short", "char") for w in words):
        return _STANDARD.get(base, base)
    unsigned = "unsigned" in words
    core = [w for w in words if w not in ("signed", "unsigned")]
    if core != ["int"] and "int" in core:
        core.remove("int")
    spelled = " ".join(core or ["int"])
    if spelled == "char" and "signed" in words:
        return "signed char"
    return ("unsigned " if unsigned else "") + spelled


def _expand(t: Type, typedefs: Mapping[str, Type]) -> Type:
    """``t`` with typedef names replaced by what they name."""
    seen: set[str] = set()
    while t.base in typedefs and t.base not in seen:
        seen.add(t.base)
        inner = typedefs[t.base]
        if inner.levels:
            # `const hipDeviceptr_t` is `void* const`: the const goes to the pointer
            levels = inner.levels[:-1] + (inner.levels[-1] or t.base_const,) + t.levels
            t = Type(inner.base, inner.base_const, levels)
        else:
            t = Type(inner.base, inner.base_const or t.base_const, t.levels)
    return Type(_integer(t.base), t.base_const, t.levels)


@dataclass(frozen=True)
class Stricter:
    """One parameter where HIP's declaration takes less than CUDA's."""

    cuda_function: str
    hip_function: str
    library: str
    index: int
    cuda_type: str  # as CUDA spells it
    hip_type: str
    cast: bool  # a cast to ``hip_type`` keeps the value; otherwise report
    why: str


def _qualification_converts(cuda: Type, hip: Type) -> bool:
    """An argument of CUDA's parameter type converts implicitly to HIP's
    (C++'s qualification conversion, [conv.qual]): HIP is at least as const
    at every inner level, and where it adds const, every level outside is
    const too."""
    inner = [cuda.base_const, *cuda.levels[:-1]][::-1]  # outermost pointee first
    theirs = [hip.base_const, *hip.levels[:-1]][::-1]
    for j, (mine, other) in enumerate(zip(inner, theirs)):
        if mine and not other:
            return False
        if other and not mine and j > 0 and not all(theirs[:j]):
            return False
    return True


def _same_bits(a: str, b: str) -> bool:
    """Two integer types of one width and signedness (`long` and `long long`)."""
    return a in _WIDTH and b in _WIDTH and _WIDTH[a] == _WIDTH[b] and \
        a.startswith("unsigned") == b.startswith("unsigned") and "char" not in a + b


def compare(cuda: Type, hip: Type) -> tuple[bool, str] | None:
    """None when every argument CUDA's parameter takes converts to HIP's;
    else whether a cast to HIP's type keeps the value, and why."""
    if len(cuda.levels) == len(hip.levels) and (
            cuda.base == hip.base or cuda.levels and _same_bits(cuda.base, hip.base)):
        if not cuda.levels or _qualification_converts(cuda, hip) and cuda.base == hip.base:
            return None
        if cuda.base != hip.base:
            return True, f"HIP's `{hip.base}` has the width and sign of CUDA's `{cuda.base}`"
        return True, "the types differ only in const (the pointer's value is the same; " \
            "the callee does not write through what CUDA declares const)"
    if hip.base == "void" and len(hip.levels) == 1 and cuda.levels and \
            (hip.base_const or not (cuda.base_const if len(cuda.levels) == 1
                                    else cuda.levels[-2])):
        return None  # any object pointer converts to `void*`
    if not cuda.levels and not hip.levels:
        if hip.base in _WIDTH or hip.base in _FLOATING and cuda.base in _FLOATING | set(_WIDTH):
            return None  # arithmetic types convert (an enum argument to an integer too)
        if cuda.base in _WIDTH:
            return False, f"HIP takes `{hip.base}` where CUDA takes `{cuda.base}`: a cast " \
                "would keep CUDA's number, which need not mean the same in HIP"
        return False, f"HIP takes `{hip.base}` where CUDA takes `{cuda.base}`"
    if len(cuda.levels) == len(hip.levels) == 1:
        if hip.base == "void":
            return None if hip.base_const or not cuda.base_const else \
                (True, "HIP's `void*` leaves out CUDA's const (the callee does not write "
                 "through it)")
        if cuda.base == "void" and (hip.base_const or not cuda.base_const):
            return True, f"HIP names the pointee `{hip.base}` where CUDA takes `void*`"
    return False, f"HIP's parameter `{hip.spelled()}` is not CUDA's `{cuda.spelled()}`"


def resolutions(t: Type, names: Mapping[str, str], cuda: Declared,
                hip: Declared) -> list[Type]:
    """CUDA's parameter type as the converted code may see it: CUDA type
    names the catalogue renames are renamed, then HIP's typedefs expanded;
    a CUDA typedef the catalogue does not know (cuda.h's `cuuint64_t`) is
    tried both as it stands (HIP may declare the same name) and expanded."""
    out = [_expand(t.renamed(names), hip.typedefs)]
    seen = {t.base}
    while t.renamed(names) == t and t.base in cuda.typedefs:
        t = _expand(t, {t.base: cuda.typedefs[t.base]})
        if t.base in seen:
            break
        seen.add(t.base)
        out.append(_expand(t.renamed(names), hip.typedefs))
    return out


def stricter(key: tuple[str, str, str], cuda_proto: Prototype, hip_proto: Prototype,
             names: Mapping[str, str], cuda: Declared, hip: Declared) -> list[Stricter]:
    out: list[Stricter] = []
    for index, (c, h) in enumerate(zip(cuda_proto, hip_proto)):
        if c is None or h is None:
            continue
        theirs = _expand(h, hip.typedefs)
        verdicts = [compare(mine, theirs) for mine in resolutions(c, names, cuda, hip)]
        verdict = None if None in verdicts else \
            next((v for v in verdicts if v is not None and v[0]), verdicts[0])
        if verdict is not None:
            out.append(Stricter(*key, index, c.spelled(), h.spelled(),
                                *verdict))
    return out


# --- the header sets ------------------------------------------------------------

# The libraries whose functions are compared: the runtime, driver, NVRTC and
# host library tables (device functions and C++ libraries have overloads and
# templates this scanner does not model).
# The argument rule that applies an entry's `casts:`.
CAST_RULE = "cast-arguments"
COMPARED = ("runtime", "driver", "nvrtc", "cublas", "cublaslt", "curand", "cufft",
            "cusparse", "cusolver")


def cuda_files(library: str, include_dirs: Iterable[Path]) -> list[Path]:
    from .libraries import BY_NAME
    files: list[Path] = []
    for root in include_dirs:
        for pattern in BY_NAME[library].headers:
            files += sorted(p for p in root.glob(pattern) if p.is_file())
    return files


def hip_files(hip_library: str, roots: Iterable[Path]) -> list[Path]:
    from .hip_headers import LIBRARY_PATHS, _iter_files
    return [f for root in roots for sub in LIBRARY_PATHS.get(hip_library, ())
            for f in _iter_files(root, sub) if not f.name.startswith("__clang_")]


def _pick(key: tuple[str, str, str], names: Mapping[str, str], cuda: Declared,
          hip: Declared) -> list[Stricter]:
    """The stricter parameters of the CUDA prototype that every HIP one of its
    arity refuses (an overload HIP has that takes the call leaves nothing)."""
    protos = cuda.prototypes_of(key[0])
    if len({len(p) for p in protos}) < len(protos):
        return []  # C++ overloads of one arity (curand_init): not modelled
    for proto in protos:
        same = [h for h in hip.prototypes_of(key[1]) if len(h) == len(proto)]
        if not same:
            continue
        found = [stricter(key, proto, h, names, cuda, hip) for h in same]
        if all(found):
            return found[0]
    return []


def stricter_parameters(cuda_dirs: Iterable[Path], hip_roots: Iterable[Path],
                        libraries: Iterable[str] = COMPARED) -> dict[str, list[Stricter]]:
    """library -> its stricter parameters, over the catalogue's functions
    (those an argument rule of their own already rewrites left out)."""
    from hipport.table import bundled_table
    table = bundled_table()
    names = {m.cuda: m.hip for m in table if m.kind in ("type", "enum") and m.hip}
    cuda_dirs, hip_roots = list(cuda_dirs), list(hip_roots)
    out: dict[str, list[Stricter]] = {}
    for library in libraries:
        entries = [m for m in table if m.library == library and m.kind == "function"
                   and m.hip and m.status.converts and m.rule in (None, CAST_RULE)]
        if not entries:
            continue
        cuda = header_declarations(cuda_files(library, cuda_dirs))
        hip = header_declarations(hip_files("hip", hip_roots))
        if entries[0].hip_library not in (None, "hip"):
            hip.update(header_declarations(hip_files(entries[0].hip_library, hip_roots)))
        found: list[Stricter] = []
        for m in entries:
            assert m.hip is not None
            found += _pick((m.cuda, m.hip, library), names, cuda, hip)
        out[library] = found
    return out


# --- command line ------------------------------------------------------------------

def agreed(per_release: Mapping[str, dict[str, list[Stricter]]]) -> dict[str, list[Stricter]]:
    """library -> the parameters stricter in some release, with one verdict:
    a cast only where every release that is stricter there has the same HIP
    type (a cast to 6.4's type must not break 5.2)."""
    by_key: dict[tuple[str, str, int], list[Stricter]] = {}
    for found in per_release.values():
        for items in found.values():
            for s in items:
                by_key.setdefault((s.library, s.cuda_function, s.index), []).append(s)
    out: dict[str, list[Stricter]] = {}
    for (library, _, _), seen in sorted(by_key.items()):
        first = seen[0]
        same = all(s.hip_type == first.hip_type and s.cast for s in seen)
        out.setdefault(library, []).append(
            first if same or not first.cast else
            replace(first, cast=False, why="the releases differ in HIP's type"))
    return out


def _entry(text: str, name: str) -> re.Match[str] | None:
    return re.search(rf"^- cuda: {re.escape(name)}\n((?:  .*\n)*)", text, re.M)


def _cast_block(casts: Mapping[int, str]) -> str:
    return "  casts:\n" + "".join(f"    {i}: {t}\n" for i, t in sorted(casts.items()))


def mismatch_note(found: Iterable[Stricter]) -> str:
    """What a person is told about a function whose HIP parameters no cast fits."""
    found = list(found)
    what = ", ".join(f"argument {s.index + 1} as `{s.hip_type}` where CUDA's is `{s.cuda_type}`"
                     for s in found)
    return f"{found[0].hip_function} declares {what}: no cast keeps the meaning, convert the " \
        "call by hand"


def _marked_unsafe(block: str, note: str) -> str:
    """``block`` (an entry's lines after `- cuda:`) made unsafe, ``note`` added to its
    note (the generator keeps `; `-separated parts it did not write)."""
    entry = yaml.safe_load("x:\n" + block)["x"]
    if note in (entry.get("note") or ""):
        return block
    lines = block.splitlines(keepends=True)
    kept: list[str] = []
    in_note = False
    for line in lines:
        if line.startswith("  note:"):
            in_note = True
            continue
        if in_note and line.startswith("    ") and not line.lstrip().startswith("-"):
            continue
        in_note = False
        kept.append(line)
    combined = "; ".join(part for part in (entry.get("note"), note) if part)
    if entry.get("applicability") != "unsafe":
        kept.append("  applicability: unsafe\n")
    kept.append(f"  note: {json.dumps(combined)}\n")
    return "".join(kept)


def write_catalogue(root: Path, found: Iterable[Stricter]) -> tuple[int, int]:
    """Adds ``casts:`` to the entries of mappings/**/*.yaml whose stricter
    parameters a cast fits, and makes the renames of those no cast fits
    unsafe with a note (text edits: the files keep their layout); returns
    how many entries got each."""
    casts: dict[str, dict[int, str]] = {}
    reports: dict[str, list[Stricter]] = {}
    for s in found:
        if s.cast:
            casts.setdefault(s.cuda_function, {})[s.index] = s.hip_type
        else:
            reports.setdefault(s.cuda_function, []).append(s)
    counts = [0, 0]
    for path in sorted(root.rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        new = text
        for name in sorted(set(casts) | set(reports)):
            entry = _entry(new, name)
            if entry is None:
                continue
            block = entry.group(1)
            if name in reports:
                block = _marked_unsafe(block, mismatch_note(reports[name]))
            elif "\n  casts:" not in "\n" + block and "\n  rule:" not in "\n" + block:
                block += _cast_block(casts[name])
            if block != entry.group(1):
                counts[name in reports] += 1
                new = new[:entry.start(1)] + block + new[entry.end(1):]
        if new != text:
            path.write_text(new, encoding="utf-8")
    return counts[0], counts[1]


def main(argv: list[str] | None = None) -> int:
    import argparse

    from .hip_headers import header_sets
    ap = argparse.ArgumentParser(prog="python -m tools.catalogue.signatures",
                                 description="List the parameters HIP declares stricter "
                                 "than CUDA (every header set on this machine).")
    ap.add_argument("--cuda-include", action="append", type=Path, required=True,
                    help="CUDA include dir (toolkit, library wheels, nvrtc.h); repeatable")
    ap.add_argument("--write", action="store_true",
                    help="record the casts as `casts:` in mappings/**/*.yaml, and make the renames "
                    "no cast fits unsafe with a note")
    args = ap.parse_args(argv)
    repo = Path(__file__).resolve().parents[2]
    per_release = {hs.label: stricter_parameters(args.cuda_include, hs.roots)
                   for hs in header_sets(repo)}
    found = agreed(per_release)
    total = casts = 0
    for library, items in found.items():
        print(f"{library}: {len(items)} stricter parameters, "
              f"{sum(s.cast for s in items)} cast, {sum(not s.cast for s in items)} reported")
        for s in items:
            verdict = "cast  " if s.cast else "report"
            print(f"  {verdict} {s.cuda_function} #{s.index}: `{s.cuda_type}` -> "
                  f"`{s.hip_type}` ({s.hip_function}): {s.why}")
        total += len(items)
        casts += sum(s.cast for s in items)
    print(f"total: {total} stricter parameters in {', '.join(per_release)}; {casts} cast, "
          f"{total - casts} reported")
    if args.write:
        cast, unsafe = write_catalogue(repo / "mappings", (s for v in found.values() for s in v))
        print(f"{cast} entries given casts, {unsafe} renames made unsafe")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
