"""Function-like macros whose arguments are only ever stringified (`#x`) or
pasted (`a##x`): what is passed to them is spelling, not code, so names in
those arguments must not be renamed (`STR(cudaMalloc)` is the string
"cudaMalloc")."""
from __future__ import annotations

from hipport.parse.pptokens import Token


def spelling_only_parameters(params: list[bytes], body: list[Token]) -> set[int]:
    """Positions of parameters used in ``body`` only as `#p`, `p##` or `##p`."""
    spelled: set[bytes] = set()
    plain: set[bytes] = set()
    for i, tok in enumerate(body):
        if tok.kind != "ident" or tok.text not in params:
            continue
        before = body[i - 1].text if i else b""
        before2 = body[i - 2].text if i > 1 else b""
        after = body[i + 1].text if i + 1 < len(body) else b""
        after2 = body[i + 2].text if i + 2 < len(body) else b""
        stringified = before == b"#" and before2 != b"#"
        pasted = (before, before2) == (b"#", b"#") or (after, after2) == (b"#", b"#")
        (spelled if stringified or pasted else plain).add(tok.text)
    return {i for i, p in enumerate(params) if p in spelled and p not in plain}
