"""The default front end: tree-sitter with the CUDA grammar.

Identifiers are found by syntactic role; comments and string literals are
never looked at.  `#define` bodies, which the grammar leaves as raw text, are
tokenized by ``pptokens``.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

import tree_sitter_cuda
from tree_sitter import Language, Node, Parser, Point, Query, QueryCursor, Tree

from hipport.parse import chevrons, ranges
from hipport.parse.digraphs import spell_out
from hipport.parse.hip_branches import own_hip
from hipport.parse.macros import spelling_only_parameters
from hipport.parse.model import Analysis, Edited, Include, Launch, Reference, Role, Span
from hipport.parse.pptokens import Token, call_arguments, tokenize
from hipport.parse.ranges import range_cursors
from hipport.source import LineIndex
from hipport.table.names import CandidateNames, looks_like_cuda

LANGUAGE = Language(tree_sitter_cuda.language())

# Parent node type -> the field that, when it holds the identifier, makes the
# identifier a *declaration* of the user's own name.
_DECLARING_FIELDS: dict[str, tuple[str, ...]] = {
    "function_declarator": ("declarator",),
    "init_declarator": ("declarator",),
    "declaration": ("declarator",),
    "field_declaration": ("declarator",),
    "parameter_declaration": ("declarator",),
    "optional_parameter_declaration": ("declarator",),
    "pointer_declarator": ("declarator",),
    "reference_declarator": ("declarator",),
    "array_declarator": ("declarator",),
    "type_definition": ("declarator",),
    "preproc_def": ("name",),
    "preproc_function_def": ("name",),
    "enumerator": ("name",),
    "struct_specifier": ("name",),
    "class_specifier": ("name",),
    "union_specifier": ("name",),
    "enum_specifier": ("name",),
    "alias_declaration": ("name",),
    "namespace_definition": ("name",),
    "namespace_alias_definition": ("name",),
    "labeled_statement": ("label",),
    "type_parameter_declaration": (),
}
# Specifiers only declare a name when they have a body (`struct X { ... }`);
# `struct cudaDeviceProp p;` merely uses it.
_SPECIFIERS_NEEDING_BODY = frozenset(
    {"struct_specifier", "class_specifier", "union_specifier", "enum_specifier"}
)


# One walk of the tree collects everything.  Identifiers are captured without
# query predicates and filtered in Python on their bytes: evaluating a
# `#match?` predicate per identifier costs more than the capture itself.
_QUERY = Query(LANGUAGE, """
(identifier) @ident
(type_identifier) @type
(namespace_identifier) @ns
(preproc_include path: (_) @include)
(preproc_def value: (preproc_arg) @body)
(preproc_function_def value: (preproc_arg) @body)
(kernel_call_syntax) @launch
["__global__" "__device__" "__shared__" "__constant__" "__managed__"] @device
""")


def parser_text(data: bytes) -> bytes:
    """What the grammar is given: digraphs, trigraphs and spaced launch
    chevrons respelled, at the same length (offsets hold for ``data``)."""
    return chevrons.join(spell_out(data))


_BUILTINS = frozenset({b"threadIdx", b"blockIdx", b"blockDim", b"gridDim"})
_WORDS = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")


def _is_declaration(node: Node, parent: Node) -> bool:
    fields = _DECLARING_FIELDS.get(parent.type)
    if fields is None:
        return False
    if parent.type in _SPECIFIERS_NEEDING_BODY and parent.child_by_field_name("body") is None:
        return False
    if not fields:  # e.g. `template <typename cudaT>`
        return True
    return any(parent.child_by_field_name(f) == node for f in fields)


def _used_name(node: Node, result: Analysis) -> tuple[str, Node] | None:
    """(name, parent) when ``node`` uses a candidate name; a declaration of one
    is recorded as the file's own name instead."""
    name = node.text.decode("utf-8", "replace") if node.text else ""
    parent = node.parent
    if parent is None:  # callers passed only candidate names
        return None
    if parent.type == "preproc_params":
        # `#define FREE(cudaFree) ...`: a parameter, local to its macro (the
        # body's uses are skipped as parameters); the file's other uses stay CUDA's.
        return None
    if _is_declaration(node, parent) and not _guessed(node, parent) \
            and not _macro_call_misread(parent):
        if result.own_hip is not None and result.own_hip.keeps(node.start_byte, node.end_byte):
            result.hip_declared.add(name)  # for the HIP build only: not the file's own name
        else:
            result.declared.add(name)
        return None
    return name, parent


# Declarator nodes between a declared name and its whole declaration.
_DECLARATORS = frozenset({"init_declarator", "pointer_declarator", "reference_declarator",
                          "array_declarator"})


def _guessed(name: Node, parent: Node) -> bool:
    """Whether the declaration of ``name`` is error recovery's guess: after an
    unreadable token, `cudaFree(0);` reads as a variable `cudaFree`
    initialised with 0.  Such a name is not taken for the user's own (which
    would hide every use of it); it stays a reference, converted or reported.
    An error after the name (`int cudaX = 1 +;`) leaves the declaration trusted."""
    node = parent
    while node.type in _DECLARATORS and node.parent is not None:
        node = node.parent
    if not node.has_error:
        return False
    return any(child.has_error for child in node.children
               if child.start_byte < name.start_byte and not (
                   child.start_byte <= name.start_byte < child.end_byte))


def _macro_call_misread(parent: Node) -> bool:
    """`CHECK( cudaMemcpy(dst, src, n, kind) )` with no semicolon after it
    reads as a declaration of a function `cudaMemcpy` in a parenthesized
    declarator (`CHECK (cudaMemcpy(...))`).  Nobody declares a function that
    way, so the name is not taken for the user's own (which would hide every
    use of it in the tree)."""
    grand = parent.parent
    return parent.type == "function_declarator" and grand is not None \
        and grand.type == "parenthesized_declarator"


def _arguments(arg_list: Node | None) -> tuple[Span, ...] | None:
    if arg_list is None or arg_list.type != "argument_list":
        return None
    return tuple((c.start_byte, c.end_byte) for c in arg_list.named_children
                 if c.type != "comment")


def _cuda_scope(qualified: Node) -> bool:
    """`cudaMemcpyKind::cudaMemcpyHostToDevice` (or with a leading `::`): an
    enumerator named through its CUDA enum, which C++11 allows for unscoped
    enums; the enum is renamed as a scope and the enumerator with it.  A
    scope of the user's (`ns::cudaFree`, `a::cudaError_t::x`) is not CUDA's."""
    scope = qualified.child_by_field_name("scope")
    if scope is None or scope.type != "namespace_identifier" or \
            not looks_like_cuda((scope.text or b"").decode("utf-8", "replace")):
        return False
    outer = qualified.parent
    return outer is None or outer.type != "qualified_identifier" or \
        outer.child_by_field_name("scope") is None


class SyntaxBackend:
    name = "syntax"

    def __init__(self) -> None:
        self._parser = Parser(LANGUAGE)

    def _parse(self, data: bytes, edited: Edited | None) -> Tree:
        data = parser_text(data)
        old = edited.analysis.tree if edited is not None else None
        if edited is None or not isinstance(old, Tree):
            return self._parser.parse(data)
        # Incremental reparse: tell tree-sitter where the text changed and it
        # reuses every untouched subtree (the second pass of a conversion).
        tree = old.copy()
        index = LineIndex(edited.original)
        for edit in reversed(edited.edits):  # from the end: earlier offsets stay valid
            start = _point(index, edit.start)
            rows = edit.text.count(b"\n")
            if rows:
                new_end = Point(start.row + rows, len(edit.text) - edit.text.rfind(b"\n") - 1)
            else:
                new_end = Point(start.row, start.column + len(edit.text))
            tree.edit(edit.start, edit.end, edit.start + len(edit.text), start,
                      _point(index, edit.end), new_end)
        return self._parser.parse(data, tree)

    def error_count(self, data: bytes) -> int:
        return _count_errors(self._parser.parse(parser_text(data)).root_node)[0]

    def analyze(self, data: bytes, names: CandidateNames, path: Path | None = None,
                edited: Edited | None = None) -> Analysis:
        tree = self._parse(data, edited)
        result = Analysis(tree=tree, own_hip=own_hip(data))
        result.error_count, result.first_error = _count_errors(tree.root_node)
        wanted = names.matches_bytes
        # The hottest loop of a run (every identifier of the file): the test
        # of ``matches_bytes``, inlined.
        extra, looks_like_cuda = names.byte_tests
        builtins = device = False
        bodies: list[Node] = []
        for captures in _captures(tree.root_node):
            for node in captures.get("ident", ()):
                text = node.text or b""
                if text in extra or looks_like_cuda(text) is not None:
                    self._identifier(node, result)
                elif text in _BUILTINS:
                    builtins = True
            for node in captures.get("type", ()):
                if wanted(node.text or b""):
                    self._type(node, result)
            for node in captures.get("ns", ()):
                if wanted(node.text or b""):
                    self._namespace(node, result)
            for node in captures.get("include", ()):
                include = _include(data, node)
                if include is not None:
                    result.includes.append(include)
            bodies.extend(captures.get("body", ()))
            for node in captures.get("launch", ()):
                launch = _launch(data, node)
                if launch is not None:
                    result.launches.append(launch)
            device = device or bool(captures.get("device") or captures.get("launch"))
        spelling_macros = _spelling_macros(bodies)
        for node in bodies:
            self._macro_body(node, names, result, spelling_macros)
        result.device_syntax = device or builtins
        result.include_insertion = _include_insertion(tree.root_node, data)
        # A name the file declares itself is the user's, wherever it is used.
        if result.declared:
            result.references = [r for r in result.references if r.name not in result.declared]
        if spelling_macros:
            spans = _spelling_argument_spans(tree.root_node, spelling_macros)
            spans += result.spelling_spans
            result.references = [r for r in result.references
                                 if not any(s <= r.start and r.end <= e for s, e in spans)]
        own = result.own_hip
        if own is not None:  # the project's own HIP code stays as it is
            result.references = [r for r in result.references if not own.keeps(r.start, r.end)]
            result.launches = [launch for launch in result.launches
                               if not own.keeps(*launch.kernel)]
        # Query captures come in no guaranteed order: give rules file order.
        result.references.sort(key=lambda r: (r.start, r.end))
        result.includes.sort(key=lambda i: i.start)
        result.launches.sort(key=lambda launch: launch.kernel)
        return result

    def _identifier(self, node: Node, result: Analysis) -> None:
        used = _used_name(node, result)
        if used is None:
            return
        name, parent = used
        context = parent
        if parent.type == "qualified_identifier":
            if parent.child_by_field_name("scope") is not None and not _cuda_scope(parent):
                return  # `ns::cudaFree`: a member of some namespace, not CUDA's global API
            context = parent.parent or parent  # `::cudaFree`
        if context.type == "template_function" and context.parent is not None:
            context = context.parent
        role = Role.VALUE
        args = None
        if context.type == "using_declaration" and \
                any(child.type == "namespace" for child in context.children):
            role = Role.NAMESPACE  # `using namespace cub;`: the directive names a namespace
        elif context.type == "call_expression" and \
                context.child_by_field_name("arguments") is not None:
            function = context.child_by_field_name("function")
            if function is not None and function.start_byte <= node.start_byte < function.end_byte:
                role = Role.CALL
                args = _arguments(context.child_by_field_name("arguments"))
        elif parent.type in ("preproc_defined", "preproc_ifdef", "preproc_elifdef"):
            role = Role.PP_CONDITION
        result.references.append(Reference(name, node.start_byte, node.end_byte, role, args))

    def _type(self, node: Node, result: Analysis) -> None:
        used = _used_name(node, result)
        if used is None:
            return
        name, parent = used
        if parent.type == "qualified_identifier" and \
                parent.child_by_field_name("scope") is not None:
            return
        result.references.append(Reference(name, node.start_byte, node.end_byte, Role.TYPE))

    def _namespace(self, node: Node, result: Analysis) -> None:
        used = _used_name(node, result)
        if used is None:
            return
        name, parent = used
        if parent.type == "qualified_identifier":
            grand = parent.parent
            # Only the outermost scope: in `a::cub::X`, `cub` is the user's;
            # in `::cub::X` (no scope before the `::`) it is the global one.
            if grand is not None and grand.type == "qualified_identifier" \
                    and grand.child_by_field_name("name") == parent \
                    and grand.child_by_field_name("scope") is not None:
                return
        result.references.append(Reference(name, node.start_byte, node.end_byte, Role.NAMESPACE))

    def _macro_body(self, node: Node, names: CandidateNames, result: Analysis,
                    spelling_macros: dict[bytes, set[int]]) -> None:
        text = node.text or b""
        if not any(map(names.matches_bytes, _WORDS.findall(text))):
            return  # no candidate name anywhere in the body: nothing to tokenize
        base = node.start_byte
        params = set(_parameters(node))
        tokens = list(tokenize(text))
        for i, tok in enumerate(tokens):
            positions = spelling_macros.get(tok.text) if tok.kind == "ident" else None
            if positions:
                spans = call_arguments(tokens, i + 1) or ()
                result.spelling_spans.extend(
                    (base + s, base + e) for n, (s, e) in enumerate(spans) if n in positions)
        for i, tok in enumerate(tokens):
            if tok.kind != "ident" or tok.text in params:
                continue
            name = tok.text.decode("utf-8", "replace")
            if not names.matches(name):
                continue
            before = tokens[i - 1].text if i else b""
            after = tokens[i + 1].text if i + 1 < len(tokens) else b""
            after2 = tokens[i + 2].text if i + 2 < len(tokens) else b""
            # (the tokenizer gives `##` as two `#` tokens)
            if before == b"#" or (after, after2) == (b"#", b"#"):
                continue  # stringified or token-pasted: the spelling is data
            if (after, after2) == (b":", b":") and _scope_at(tokens, i):
                # `cub::X` or `::cub::X` in a body: a scope, as in code; the
                # names after it are the scope's, not the catalogue's.
                result.references.append(Reference(name, base + tok.start, base + tok.end,
                                                   Role.NAMESPACE))
                continue
            args = call_arguments(tokens, i + 1)
            shifted = None if args is None else tuple((s + base, e + base) for s, e in args)
            result.references.append(Reference(
                name, base + tok.start, base + tok.end,
                Role.CALL if shifted is not None else Role.MACRO_BODY, shifted,
            ))


def _scope_at(tokens: list[Token], i: int) -> bool:
    """Whether ``tokens[i]`` (followed by `::`) is an outermost scope: nothing
    before it, or a bare `::` (the global namespace); `a::cub::X` and
    `T<int>::cub::X` name the user's."""
    if i < 2 or (tokens[i - 1].text, tokens[i - 2].text) != (b":", b":"):
        return True
    if i == 2:
        return True
    before = tokens[i - 3]
    if before.kind == "ident":
        return before.text in _KEYWORDS_BEFORE_GLOBAL  # `typename ::cub::X`
    return before.text != b">"


# Keywords a global `::name` may follow (`return ::cub::Max()(a, b)`): not scopes.
_KEYWORDS_BEFORE_GLOBAL = frozenset(
    b"typename return new delete using typedef case throw sizeof alignof const volatile "
    b"static inline extern constexpr friend virtual template struct class operator else do "
    b"co_return co_yield".split())


def _parameters(body: Node) -> list[bytes]:
    definition = body.parent
    if definition is None or definition.type != "preproc_function_def":
        return []
    plist = definition.child_by_field_name("parameters")
    return [c.text or b"" for c in plist.named_children] if plist is not None else []


def _spelling_macros(bodies: list[Node]) -> dict[bytes, set[int]]:
    """Macros of this file with parameters that are only stringified/pasted."""
    found: dict[bytes, set[int]] = {}
    for body in bodies:
        params = _parameters(body)
        if not params or b"#" not in (body.text or b""):
            continue
        positions = spelling_only_parameters(params, list(tokenize(body.text or b"")))
        name = body.parent.child_by_field_name("name") if body.parent is not None else None
        if positions and name is not None and name.text:
            found[name.text] = positions
    return found


_CALLS = Query(LANGUAGE, "(call_expression function: (identifier) @fn "
                         "arguments: (argument_list) @args)")


def _captures(root: Node) -> Iterator[dict[str, list[Node]]]:
    """The captures of ``_QUERY`` under ``root``, all at once or, in a file
    larger than ``WHOLE_TREE_BYTES``, range by range: a huge file's
    identifiers are not all Python nodes at the same time."""
    if root.end_byte <= ranges.WHOLE_TREE_BYTES:
        yield QueryCursor(_QUERY).captures(root)
        return
    for cursor, (low, high) in range_cursors(root, _QUERY):
        yield {name: [node for node in nodes if low <= node.start_byte < high]
               for name, nodes in cursor.captures(root).items()}


def _calls(root: Node) -> Iterator[dict[str, list[Node]]]:
    """The matches of ``_CALLS`` under ``root`` (range by range in a huge file)."""
    if root.end_byte <= ranges.WHOLE_TREE_BYTES:
        yield from (match for _, match in QueryCursor(_CALLS).matches(root))
        return
    for cursor, (low, high) in range_cursors(root, _CALLS):
        yield from (match for _, match in cursor.matches(root)
                    if low <= match["fn"][0].start_byte < high)


def _spelling_argument_spans(root: Node, macros: dict[bytes, set[int]]) -> list[Span]:
    spans: list[Span] = []
    for match in _calls(root):
        fn, args = match["fn"][0], match["args"][0]
        positions = macros.get(fn.text or b"")
        if positions:
            spans.extend(span for n, span in enumerate(_arguments(args) or ()) if n in positions)
    return spans


def _point(index: LineIndex, offset: int) -> Point:
    row = index.line_of(offset)
    return Point(row, offset - index.line_span(row)[0])


def _line_start(data: bytes, offset: int) -> int:
    return data.rfind(b"\n", 0, offset) + 1


def _after_line(data: bytes, offset: int) -> int:
    newline = data.find(b"\n", offset)
    return len(data) if newline == -1 else newline + 1


def _include_insertion(root: Node, data: bytes) -> int | None:
    """Where a new `#include` line goes: before the first include of the file's
    leading directives, else after `#pragma once` or the include guard, else
    after the leading comments.  None when the file has no safe place."""
    nodes = list(root.children)
    fallback: int | None = None
    while nodes:
        node = nodes.pop(0)
        if node.type == "comment":
            continue
        if node.type == "preproc_include":
            return _line_start(data, node.start_byte)
        if node.type == "preproc_call" and (node.text or b"").split()[:2] == [b"#pragma", b"once"]:
            fallback = _after_line(data, node.start_byte)
            continue
        body = _guard_body(node) if fallback is None else None
        if body is not None:
            fallback = _after_line(data, body[0].start_byte)
            nodes = [c for c in body[1:] if c.type != "#endif"]
            continue
        if fallback is not None:
            return fallback
        if node.type in ("ERROR", "#endif"):
            return None
        return _line_start(data, node.start_byte)
    return fallback


def _count_errors(root: Node) -> tuple[int, int | None]:
    if not root.has_error:
        return 0, None
    count = 0
    first: int | None = None
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            count += 1
            first = node.start_byte if first is None else min(first, node.start_byte)
            continue
        stack.extend(c for c in node.children if c.has_error)
    return count, first


def _include(data: bytes, path: Node) -> Include | None:
    directive = path.parent
    if directive is None or path.type not in ("system_lib_string", "string_literal"):
        return None
    raw = path.text or b""
    if len(raw) < 2:
        return None
    line_start = data.rfind(b"\n", 0, directive.start_byte) + 1
    newline = data.find(b"\n", path.end_byte)
    line_end = len(data) if newline == -1 else newline + 1
    rest = data[path.end_byte:line_end].strip()
    alone = not data[line_start:directive.start_byte].strip() and not rest
    block = directive.parent.id if directive.parent is not None else 0
    return Include(
        target=raw[1:-1].decode("utf-8", "replace"),
        start=path.start_byte + 1,
        end=path.end_byte - 1,
        system=path.type == "system_lib_string",
        line_start=line_start,
        line_end=line_end,
        alone_on_line=alone,
        block=block,
        conditional=_conditional(directive),
    )


_CONDITIONALS = frozenset({"preproc_if", "preproc_ifdef", "preproc_elif", "preproc_elifdef",
                           "preproc_else"})


def _conditional(node: Node) -> bool:
    """Whether ``node`` sits in a preprocessor conditional other than the
    file's include guard."""
    parent = node.parent
    while parent is not None:
        if parent.type in _CONDITIONALS and not _is_include_guard(parent):
            return True
        parent = parent.parent
    return False


def _is_include_guard(node: Node) -> bool:
    """``#ifndef X`` / ``#define X`` at the top of the file."""
    return node.parent is not None and node.parent.type == "translation_unit" \
        and _guard_define(node) is not None


def _guard_define(node: Node) -> Node | None:
    """The ``#define X`` of an include guard ``#ifndef X``, or None.  Looks
    at the first children only: it runs for every include in a header."""
    guard = node.child_by_field_name("name") if node.type == "preproc_ifdef" else None
    if guard is None or node.child_count < 3 or node.child(0).type != "#ifndef":
        return None
    first = next((node.child(i) for i in range(2, node.child_count)
                  if node.child(i).type != "comment"), None)
    if first is None or first.type != "preproc_def":
        return None
    defined = first.child_by_field_name("name")
    return first if defined is not None and defined.text == guard.text else None


def _guard_body(node: Node) -> list[Node] | None:
    """The children of an include guard from its ``#define`` on (comments
    left out), or None when ``node`` is not an include guard."""
    define = _guard_define(node)
    if define is None:
        return None
    return [c for c in node.children[2:]
            if c.type != "comment" and c.start_byte >= define.start_byte]


def _launch(data: bytes, config: Node) -> Launch | None:
    call = config.parent
    # A launch with a parse error inside is the parser's guess (it may span
    # two statements): rewriting it could only make things worse.
    if call is None or call.type != "call_expression" or call.has_error:
        return None
    kernel = call.child_by_field_name("function")
    arg_list = call.child_by_field_name("arguments")
    config_args = [c for c in config.named_children if c.type != "comment"]
    args = _arguments(arg_list)
    if kernel is None or arg_list is None or args is None or not 2 <= len(config_args) <= 4:
        return None
    open_span = (config.start_byte, config_args[0].start_byte)
    close_span = (config_args[-1].end_byte, arg_list.start_byte + 1)
    punctuation = _between(data, open_span) + _between(data, close_span)
    return Launch(
        kernel=(kernel.start_byte, kernel.end_byte),
        kernel_is_template=_has_template_arguments(kernel),
        config_open=open_span,
        config=tuple((c.start_byte, c.end_byte) for c in config_args),
        config_close=close_span,
        args=args,
        has_comments=b"/*" in punctuation or b"//" in punctuation,
    )


def _between(data: bytes, span: Span) -> bytes:
    return data[span[0]:span[1]]


def _has_template_arguments(node: Node) -> bool:
    # A loop, not recursion: `a::b::...::k<<<...>>>` can nest thousands deep.
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "template_function":
            return True
        stack.extend(c for c in current.named_children if c.type != "argument_list")
    return False
