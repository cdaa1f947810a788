"""Reading one polyfill file (mappings/polyfills/*.yaml) into a ``Family``,
with errors that name the file, the line and the key path
(docs/polyfills.md describes the format)."""
from __future__ import annotations

import re

import yaml

from hipport.polyfills.model import (
    CONTEXTS,
    SCHEMA_ID,
    Exactness,
    Fallback,
    Family,
    Name,
    Rocm,
    native_macro,
)
from hipport.table.schema import KINDS, parse_version, target_problem
from hipport.table.yaml_file import Reader, compose

_FILE_KEYS = {"schema", "family", "title", "fallbacks"}
_FALLBACK_KEYS = {"id", "names", "exactness", "semantics", "cost", "rocm", "context",
                  "finding", "code", "requires", "includes"}
_REQUIRED = ("id", "names", "exactness", "semantics", "cost", "rocm", "context", "finding",
             "code")
_NAME_KEYS = {"cuda", "kind", "overloads"}
_ROCM_KEYS = {"real", "when", "needs", "beside"}
_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*\Z")
_RELEASE = re.compile(r"[0-9]+\.[0-9]+\Z")
_FUNCTION_KINDS = ("function", "device_function")


def parse_polyfill_file(text: str, path: str) -> Family:
    reader = Reader(path)
    root = compose(text, path, "polyfill file")
    top = reader.mapping(root, "(top)")
    reader.check_keys(top, _FILE_KEYS, root, "(top)")
    for required in ("schema", "family", "title", "fallbacks"):
        if required not in top:
            raise reader.fail(root, "(top)", f"missing required key {required!r}")
    schema = reader.string(top["schema"], "schema")
    if schema != SCHEMA_ID:
        raise reader.fail(top["schema"], "schema", f"expected {SCHEMA_ID!r}; got {schema!r}")
    family = _identifier(reader, top["family"], "family")
    title = reader.string(top["title"], "title")
    nodes = reader.sequence(top["fallbacks"], "fallbacks")
    if not nodes:
        raise reader.fail(top["fallbacks"], "fallbacks", "expected at least one fallback")
    fallbacks = tuple(_fallback(reader, node, f"fallbacks[{i}]", family)
                      for i, node in enumerate(nodes))
    _check_unique(reader, nodes, fallbacks)
    return Family(family, title, path, fallbacks)


def is_polyfill_file(text: str) -> bool:
    """The text declares the polyfill schema (a cheap look at its ``schema:`` line)."""
    return re.search(rf"^schema:\s*['\"]?{re.escape(SCHEMA_ID)}['\"]?\s*$", text,
                     re.MULTILINE) is not None


def _identifier(reader: Reader, node: yaml.Node, where: str) -> str:
    value = reader.name(node, where)
    if not _ID.match(value):
        raise reader.fail(node, where, f"expected lower-case words joined by '-', got {value!r}")
    return value


def _fallback(reader: Reader, node: yaml.Node, where: str, family: str) -> Fallback:
    fields = reader.mapping(node, where)
    reader.check_keys(fields, _FALLBACK_KEYS, node, where)
    for required in _REQUIRED:
        if required not in fields:
            raise reader.fail(node, where, f"missing required key {required!r}")
    code = reader.string(fields["code"], f"{where}.code")
    names = tuple(_name(reader, n, f"{where}.names[{i}]", code)
                  for i, n in enumerate(reader.sequence(fields["names"], f"{where}.names")))
    return Fallback(
        id=_identifier(reader, fields["id"], f"{where}.id"),
        family=family,
        names=names,
        exactness=Exactness(reader.string(fields["exactness"], f"{where}.exactness",
                                          tuple(e.value for e in Exactness))),
        semantics=_sentence(reader, fields["semantics"], f"{where}.semantics"),
        cost=reader.string(fields["cost"], f"{where}.cost"),
        rocm=_rocm(reader, fields["rocm"], f"{where}.rocm", fields, code),
        context=reader.string(fields["context"], f"{where}.context", CONTEXTS),
        finding=reader.string(fields["finding"], f"{where}.finding"),
        code=code if code.endswith("\n") else code + "\n",
        requires=tuple(_identifier(reader, n, f"{where}.requires[{i}]") for i, n in
                       enumerate(reader.sequence(fields["requires"], f"{where}.requires")))
        if "requires" in fields else (),
        includes=tuple(_header(reader, n, f"{where}.includes[{i}]") for i, n in
                       enumerate(reader.sequence(fields["includes"], f"{where}.includes")))
        if "includes" in fields else (),
        origin=f"{reader.path}:{node.start_mark.line + 1}",
    )


def _sentence(reader: Reader, node: yaml.Node, where: str) -> str:
    text = " ".join(reader.string(node, where).split())
    if not text.endswith("."):
        raise reader.fail(node, where, "expected sentences (ending with '.')")
    return text


def _name(reader: Reader, node: yaml.Node, where: str, code: str) -> Name:
    fields = reader.mapping(node, where)
    reader.check_keys(fields, _NAME_KEYS, node, where)
    for required in ("cuda", "kind"):
        if required not in fields:
            raise reader.fail(node, where, f"missing required key {required!r}")
    kind = reader.string(fields["kind"], f"{where}.kind", KINDS)
    cuda = reader.name(fields["cuda"], f"{where}.cuda")
    problem = target_problem(kind, cuda)
    if problem is not None:
        raise reader.fail(fields["cuda"], f"{where}.cuda", problem)
    overloads = None
    if "overloads" in fields:
        if kind not in _FUNCTION_KINDS:
            raise reader.fail(fields["overloads"], f"{where}.overloads",
                              "only a function can overload its HIP counterpart")
        overloads = reader.name(fields["overloads"], f"{where}.overloads")
        problem = target_problem(kind, overloads)
        if problem is not None:
            raise reader.fail(fields["overloads"], f"{where}.overloads", problem)
    # The code must define what the entry says it provides (a typo would
    # leave the name undefined while the header claims to cover it).
    defined = overloads or cuda
    if kind != "header" and not re.search(rf"\b{re.escape(defined.split('::')[-1])}\b", code):
        raise reader.fail(fields["overloads" if overloads else "cuda"], where,
                          f"{defined} does not appear in the fallback's code")
    return Name(cuda, kind, overloads)


def _release(reader: Reader, node: yaml.Node, where: str) -> str:
    value = reader.string(node, where)
    if not _RELEASE.match(value):
        raise reader.fail(node, where, f"expected a ROCm release such as 6.2, got {value!r}")
    return value


def _rocm(reader: Reader, node: yaml.Node, where: str, fallback: dict[str, yaml.Node],
          code: str) -> Rocm:
    fields = reader.mapping(node, where)
    reader.check_keys(fields, _ROCM_KEYS, node, where)
    if "real" not in fields:
        raise reader.fail(node, where, "missing required key 'real' (the first ROCm release "
                          "whose headers declare the API, or none)")
    real = None if reader.string(fields["real"], f"{where}.real") == "none" \
        else _release(reader, fields["real"], f"{where}.real")
    when = reader.string(fields["when"], f"{where}.when") if "when" in fields else None
    if when is not None and real is None:
        raise reader.fail(fields["when"], f"{where}.when",
                          "a condition needs the release that declares the API ('real')")
    needs = _release(reader, fields["needs"], f"{where}.needs") if "needs" in fields else None
    if needs is not None and real is not None and \
            parse_version(needs) >= parse_version(real):
        raise reader.fail(fields["needs"], f"{where}.needs",
                          f"must be older than the release with the real API ({real})")
    beside = _beside(reader, fields, where, real, fallback, code)
    return Rocm(real, when, needs, beside)


def _beside(reader: Reader, fields: dict[str, yaml.Node], where: str, real: str | None,
            fallback: dict[str, yaml.Node], code: str) -> bool:
    if "beside" not in fields:
        return False
    node = fields["beside"]
    if not reader.boolean(node, f"{where}.beside"):
        return False
    if real is None:
        raise reader.fail(node, f"{where}.beside",
                          "a fallback beside the real API needs the release that declares it "
                          "('real')")
    # The code must tell where ROCm's own are declared, or it would clash with them.
    macro = native_macro(reader.name(fallback["id"], "id")) if "id" in fallback else ""
    if not re.search(rf"\b{macro}\b", code):
        raise reader.fail(node, f"{where}.beside",
                          f"the code must test {macro} (1 where ROCm declares the real API)")
    return True


def _header(reader: Reader, node: yaml.Node, where: str) -> str:
    header = reader.name(node, where)
    problem = target_problem("header", header)
    if problem is not None:
        raise reader.fail(node, where, problem)
    return header


def _check_unique(reader: Reader, nodes: list[yaml.Node],
                  fallbacks: tuple[Fallback, ...]) -> None:
    ids: set[str] = set()
    names: dict[str, str] = {}
    for i, (node, fallback) in enumerate(zip(nodes, fallbacks)):
        if fallback.id in ids:
            raise reader.fail(node, f"fallbacks[{i}].id", f"duplicate id {fallback.id!r}")
        ids.add(fallback.id)
        for name in fallback.cuda_names:
            if name in names:
                raise reader.fail(node, f"fallbacks[{i}].names",
                                  f"{name} is also provided by {names[name]}")
            names[name] = fallback.id
