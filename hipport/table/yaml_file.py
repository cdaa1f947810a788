"""Reading one YAML mapping file into ``Mapping`` entries, with errors that
name the file, the line and the key."""
from __future__ import annotations

import functools
import json
import re
from dataclasses import replace
from importlib import resources

import yaml

from hipport.errors import MappingFileError
from hipport.libraries import library_table
from hipport.table.schema import (
    CAST_RULE,
    KINDS,
    LIBRARIES,
    SCHEMA_ID,
    VERSION_KEYS,
    Casts,
    Guard,
    Mapping,
    Status,
    parse_version,
    source_problem,
    target_problem,
    version_problem,
)

_FILE_KEYS = {"schema", "library", "hip_library", "entries"}
_ENTRY_KEYS = {
    "cuda", "hip", "kind", "status", "note", "applicability", "rule", "library",
    "cuda_version", "rocm_version", "older", "newer", "guard", "cxx_only", "casts", "roc",
}
_GUARD_KEYS = {"cuda", "hip"}
_MACRO = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# A type a cast can name in C and C++ alike: words, then `*`s each
# optionally const (`const char**`, `double* const*`).
_CAST_TYPE = re.compile(r"(?:const )?[A-Za-z_]\w*(?: [A-Za-z_]\w*)*(?:\*(?: const\*)*)+\Z"
                        r"|(?:const )?[A-Za-z_]\w*(?: [A-Za-z_]\w*)*\Z")
# What an entry emits for a target older than its rocm_version.added.
_OLDER_KEYS = {"hip", "rule", "note", "rocm_version"}
# What an entry emits with --roc (hipport.table.roc), when more than a name.
_ROC_KEYS = {"name", "status", "applicability", "rule", "note", "rocm_version", "guard",
             "cxx_only"}


class Reader:
    """Walks a composed YAML node tree, failing with file, line and key path
    (the mapping files here, the polyfill files in hipport.polyfills)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def fail(self, node: yaml.Node, where: str, message: str) -> MappingFileError:
        return MappingFileError(self.path, f"{where}: {message}", node.start_mark.line + 1)

    def mapping(self, node: yaml.Node, where: str) -> dict[str, yaml.Node]:
        if not isinstance(node, yaml.MappingNode):
            raise self.fail(node, where, "expected a mapping")
        out: dict[str, yaml.Node] = {}
        for key_node, value in node.value:
            key = key_node.value
            if key in out:
                raise self.fail(key_node, f"{where}.{key}", "duplicate key")
            out[key] = value
        return out

    def string(self, node: yaml.Node, where: str, choices: tuple[str, ...] | None = None) -> str:
        if not isinstance(node, yaml.ScalarNode) or node.tag not in (
            "tag:yaml.org,2002:str", "tag:yaml.org,2002:float", "tag:yaml.org,2002:int",
        ) or node.value == "":
            raise self.fail(node, where, "expected a non-empty string")
        if choices is not None and node.value not in choices:
            raise self.fail(node, where,
                            f"expected one of {', '.join(choices)}; got {node.value!r}")
        return str(node.value)

    def sequence(self, node: yaml.Node, where: str) -> list[yaml.Node]:
        if not isinstance(node, yaml.SequenceNode):
            raise self.fail(node, where, "expected a list")
        return list(node.value)

    def boolean(self, node: yaml.Node, where: str) -> bool:
        if not isinstance(node, yaml.ScalarNode) or node.tag != "tag:yaml.org,2002:bool":
            raise self.fail(node, where, "expected true or false")
        return node.value.lower() in ("true", "yes", "on")

    def name(self, node: yaml.Node, where: str) -> str:
        """A CUDA or HIP name: text, never a number YAML happened to parse."""
        if isinstance(node, yaml.ScalarNode) and node.tag != "tag:yaml.org,2002:str":
            raise self.fail(node, where, f"expected a name, got {node.value!r}")
        return self.string(node, where)

    def check_keys(self, fields: dict[str, yaml.Node], allowed: set[str], node: yaml.Node,
                   where: str) -> None:
        unknown = sorted(set(fields) - allowed)
        if unknown:
            raise self.fail(fields[unknown[0]], f"{where}.{unknown[0]}",
                            f"unknown key (allowed: {', '.join(sorted(allowed))})")

    def versions(self, node: yaml.Node, where: str) -> tuple[tuple[str, str], ...]:
        fields = self.mapping(node, where)
        self.check_keys(fields, set(VERSION_KEYS), node, where)
        return tuple((k, self.version(v, f"{where}.{k}")) for k, v in sorted(fields.items()))

    def version(self, node: yaml.Node, where: str) -> str:
        text = self.string(node, where)
        problem = version_problem(text)
        if problem is not None:
            raise self.fail(node, where, problem)
        return text


def compose(text: str, path: str, what: str = "mapping file") -> yaml.Node:
    """The YAML node tree of ``text``; malformed or empty text is an error
    naming the file (and the line)."""
    try:
        root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", exc)
        raise MappingFileError(path, f"malformed YAML: {problem}", line) from None
    if root is None:
        raise MappingFileError(path, f"empty {what}")
    return root


def parse_mapping_file(text: str, path: str) -> list[Mapping]:
    reader = Reader(path)
    root = compose(text, path)
    top = reader.mapping(root, "(top)")
    reader.check_keys(top, _FILE_KEYS, root, "(top)")
    for required in ("schema", "library", "entries"):
        if required not in top:
            raise reader.fail(root, "(top)", f"missing required key {required!r}")
    schema = reader.string(top["schema"], "schema")
    if schema != SCHEMA_ID:
        raise reader.fail(top["schema"], "schema", f"expected {SCHEMA_ID!r}; got {schema!r}")
    library = reader.string(top["library"], "library", LIBRARIES)
    # The ROCm counterpart: the library table's, unless the file names another.
    hip_library = reader.string(top["hip_library"], "hip_library") if "hip_library" in top \
        else None
    return [
        _parse_entry(reader, node, f"entries[{i}]", library, hip_library)
        for i, node in enumerate(reader.sequence(top["entries"], "entries"))
    ]


def _parse_entry(reader: Reader, node: yaml.Node, where: str, library: str,
                 hip_library: str | None) -> Mapping:
    fields = reader.mapping(node, where)
    reader.check_keys(fields, _ENTRY_KEYS, node, where)
    if "cuda" not in fields:
        raise reader.fail(node, where, "missing required key 'cuda'")
    if "kind" not in fields:
        raise reader.fail(node, where, "missing required key 'kind'")
    cuda = reader.name(fields["cuda"], f"{where}.cuda")
    kind = reader.string(fields["kind"], f"{where}.kind", KINDS)
    problem = source_problem(kind, cuda)
    if problem is not None:
        raise reader.fail(fields["cuda"], f"{where}.cuda", problem)
    status = Status(reader.string(fields["status"], f"{where}.status",
                                  tuple(s.value for s in Status))) if "status" in fields \
        else Status.SUPPORTED
    hip = reader.name(fields["hip"], f"{where}.hip") if "hip" in fields else None
    problem = target_problem(kind, hip) if hip is not None else None
    if problem is not None:
        raise reader.fail(fields["hip"], f"{where}.hip", problem)
    if status.converts and hip is None:
        raise reader.fail(node, where, f"{cuda}: status {status.value} needs a 'hip' name")
    applicability = reader.string(fields["applicability"], f"{where}.applicability",
                                  ("safe", "unsafe")) if "applicability" in fields else "safe"
    rocm_version = reader.versions(fields["rocm_version"], f"{where}.rocm_version") \
        if "rocm_version" in fields else ()
    if "library" in fields:
        library = reader.string(fields["library"], f"{where}.library", LIBRARIES)
    entry = Mapping(
        cuda=cuda,
        hip=hip,
        kind=kind,
        library=library,
        status=status,
        hip_library=hip_library or library_table().by_cuda[library].rocm.key,
        note=reader.string(fields["note"], f"{where}.note") if "note" in fields else None,
        unsafe=applicability == "unsafe",
        rule=reader.string(fields["rule"], f"{where}.rule", _rule_names())
        if "rule" in fields else None,
        cuda_version=reader.versions(fields["cuda_version"], f"{where}.cuda_version")
        if "cuda_version" in fields else (),
        rocm_version=rocm_version,
        origin=f"{reader.path}:{node.start_mark.line + 1}",
    )
    if "guard" in fields:
        if kind != "header" or hip is None:
            raise reader.fail(fields["guard"], f"{where}.guard",
                              "only a header entry with a 'hip' header has a guard")
        entry = replace(entry, guard=_parse_guard(reader, fields["guard"], f"{where}.guard"))
    if "cxx_only" in fields:
        if kind != "header" or hip is None:
            raise reader.fail(fields["cxx_only"], f"{where}.cxx_only",
                              "only a header entry with a 'hip' header can be C++ only")
        entry = replace(entry, cxx_only=reader.boolean(fields["cxx_only"], f"{where}.cxx_only"))
    if "casts" in fields:
        if kind != "function" or hip is None or "rule" in fields:
            raise reader.fail(fields["casts"], f"{where}.casts", "only a function entry with a "
                              "'hip' name and no other 'rule' has casts")
        entry = replace(entry, casts=_parse_casts(reader, fields["casts"], f"{where}.casts"),
                        rule=CAST_RULE)
    if "newer" in fields:
        if not status.converts or "removed" not in dict(rocm_version):
            raise reader.fail(fields["newer"], f"{where}.newer", "only an entry with a 'hip' "
                              "name and a rocm_version.removed can say what newer ROCm "
                              "releases get")
        entry = replace(entry, newer=_parse_newer(reader, fields["newer"], f"{where}.newer",
                                                  entry))
    if "roc" in fields:
        entry = replace(entry, roc=_parse_roc(reader, fields["roc"], f"{where}.roc", entry))
    if "older" not in fields:
        return entry
    if not status.converts or "added" not in dict(rocm_version):
        raise reader.fail(fields["older"], f"{where}.older", "only an entry with a 'hip' name "
                          "and a rocm_version.added can say what older ROCm releases get")
    return replace(entry, older=_parse_older(reader, fields["older"], f"{where}.older", entry))


def _parse_newer(reader: Reader, node: yaml.Node, where: str, older: Mapping) -> Mapping:
    """What targets from ``older``'s rocm_version.removed on get: its range
    starts there (a ``rocm_version.added`` given must say the same)."""
    removed = dict(older.rocm_version)["removed"]
    entry = _parse_variant(reader, node, where, older)
    added = dict(entry.rocm_version).get("added")
    if added is not None and parse_version(added) != parse_version(removed):
        raise reader.fail(node, f"{where}.rocm_version.added",
                          f"must be the entry's rocm_version.removed ({removed})")
    versions = dict(entry.rocm_version) | {"added": removed}
    return replace(entry, rocm_version=tuple(sorted(versions.items())))


def _parse_older(reader: Reader, node: yaml.Node, where: str, newer: Mapping) -> Mapping:
    entry = _parse_variant(reader, node, where, newer)
    older_added = entry.rocm_added
    if older_added is not None and newer.rocm_added is not None and \
            parse_version(older_added) >= parse_version(newer.rocm_added):
        raise reader.fail(node, f"{where}.rocm_version.added",
                          f"must be older than the entry's own ({newer.rocm_added})")
    return entry


def _parse_variant(reader: Reader, node: yaml.Node, where: str, base: Mapping) -> Mapping:
    """An ``older`` or ``newer`` mapping: ``base`` with another HIP name, rule,
    note and range."""
    fields = reader.mapping(node, where)
    reader.check_keys(fields, _OLDER_KEYS, node, where)
    if "hip" not in fields:
        raise reader.fail(node, where, "missing required key 'hip'")
    hip = reader.name(fields["hip"], f"{where}.hip")
    problem = target_problem(base.kind, hip)
    if problem is not None:
        raise reader.fail(fields["hip"], f"{where}.hip", problem)
    versions = reader.versions(fields["rocm_version"], f"{where}.rocm_version") \
        if "rocm_version" in fields else ()
    return replace(
        base, hip=hip, status=Status.SUPPORTED,
        note=reader.string(fields["note"], f"{where}.note") if "note" in fields else None,
        rule=reader.string(fields["rule"], f"{where}.rule", _rule_names())
        if "rule" in fields else None,
        rocm_version=versions, origin=f"{reader.path}:{node.start_mark.line + 1}", older=None,
        newer=None, casts=())


def _parse_roc(reader: Reader, node: yaml.Node, where: str, base: Mapping) -> Mapping:
    """What ``base`` becomes with --roc: a name (``roc: rocblas_sgemm``), or
    a mapping of its own status, name, rule, note and range; a header's
    C++-only mark is its own too, and its guard the macro the roc header
    defines (tests of the CUDA macros of ``base``'s guard become tests of it)."""
    roc = library_table().roc_libraries.get(base.library)
    if roc is None:
        raise reader.fail(node, where, f"the {base.library} library has no --roc counterpart "
                          "(mappings/rocm-libraries.yaml gives it no 'roc')")
    fields: dict[str, yaml.Node] = {"name": node} if isinstance(node, yaml.ScalarNode) \
        else reader.mapping(node, where)
    reader.check_keys(fields, _ROC_KEYS, node, where)
    status = Status(reader.string(fields["status"], f"{where}.status",
                                  tuple(s.value for s in Status))) if "status" in fields \
        else Status.SUPPORTED
    name = reader.name(fields["name"], f"{where}.name") if "name" in fields else None
    if status.converts != (name is not None):
        raise reader.fail(node, where, f"status {status.value} " + (
            "needs a 'name'" if status.converts else "takes no 'name'"))
    problem = target_problem(base.kind, name) if name is not None else None
    if problem is not None:
        raise reader.fail(fields["name"], f"{where}.name", problem)
    entry = replace(
        base, hip=name, status=status, hip_library=roc.key,
        note=reader.string(fields["note"], f"{where}.note") if "note" in fields else None,
        unsafe=reader.string(fields["applicability"], f"{where}.applicability",
                             ("safe", "unsafe")) == "unsafe" if "applicability" in fields
        else False,
        rule=reader.string(fields["rule"], f"{where}.rule", _rule_names())
        if "rule" in fields else None,
        rocm_version=reader.versions(fields["rocm_version"], f"{where}.rocm_version")
        if "rocm_version" in fields else (),
        origin=f"{reader.path}:{node.start_mark.line + 1}", older=None, newer=None, casts=(),
        guard=None, cxx_only=False, roc=None)
    for key in ("guard", "cxx_only"):
        if key in fields and (base.kind != "header" or name is None):
            raise reader.fail(fields[key], f"{where}.{key}",
                              f"only a header entry with a roc header has a {key}")
    if "guard" in fields:
        if base.guard is None:
            raise reader.fail(fields["guard"], f"{where}.guard", "the entry has no guard "
                              "(its CUDA macros) for the roc header's macro to replace")
        entry = replace(entry, guard=(base.guard[0], _macro(reader, fields["guard"],
                                                            f"{where}.guard")))
    if "cxx_only" in fields:
        entry = replace(entry, cxx_only=reader.boolean(fields["cxx_only"], f"{where}.cxx_only"))
    return entry


def spell_type(text: str) -> str:
    """``char *const*`` spelled one way: ``char* const*``."""
    out = ""
    for token in re.findall(r"\*|[^\s*]+", text):
        out += token if token == "*" or not out else " " + token
    return out


def _parse_casts(reader: Reader, node: yaml.Node, where: str) -> Casts:
    """``{2: const char**}``: argument index -> the type it is cast to."""
    fields = reader.mapping(node, where)
    if not fields:
        raise reader.fail(node, where, "expected at least one argument index")
    casts: list[tuple[int, str]] = []
    for key, value in fields.items():
        if not key.isdigit() or int(key) > 14:
            raise reader.fail(value, f"{where}.{key}", "expected an argument index (0 to 14)")
        to = spell_type(reader.string(value, f"{where}.{key}"))
        if not _CAST_TYPE.match(to):
            raise reader.fail(value, f"{where}.{key}", f"expected a C type such as "
                              f"`const char**`, got {to!r}")
        casts.append((int(key), to))
    return tuple(sorted(casts))


def _parse_guard(reader: Reader, node: yaml.Node, where: str) -> Guard:
    """``{cuda: NAME or [NAME, ...], hip: NAME}``: macros, never empty."""
    fields = reader.mapping(node, where)
    reader.check_keys(fields, _GUARD_KEYS, node, where)
    for required in ("cuda", "hip"):
        if required not in fields:
            raise reader.fail(node, where, f"missing required key {required!r}")
    cuda_node = fields["cuda"]
    items = cuda_node.value if isinstance(cuda_node, yaml.SequenceNode) else [cuda_node]
    if not items:
        raise reader.fail(cuda_node, f"{where}.cuda", "expected a macro name or a list of them")
    names = tuple(_macro(reader, n, f"{where}.cuda") for n in items)
    return names, _macro(reader, fields["hip"], f"{where}.hip")


def _macro(reader: Reader, node: yaml.Node, where: str) -> str:
    name = reader.name(node, where)
    if not _MACRO.match(name):
        raise reader.fail(node, where, f"expected a macro name, got {name!r}")
    return name


@functools.lru_cache(maxsize=1)
def _rule_names() -> tuple[str, ...]:
    """The argument rules a ``rule:`` key may name: the catalogue schema's
    list (mappings/schema.json), which a test holds equal to the rules
    registered in ``hipport.rules``."""
    schema = json.loads((resources.files("hipport") / "_mappings" / "schema.json")
                        .read_text(encoding="utf-8"))
    return tuple(schema["$defs"]["entry"]["properties"]["rule"]["enum"])
