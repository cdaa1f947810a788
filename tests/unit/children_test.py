"""What another program printed, as hipport shows it: no terminal control."""
import pytest

from hipport.children import plain


@pytest.mark.parametrize("raw, shown", [
    pytest.param("6.4.43484-9999\n", "6.4.43484-9999\n", id="plain-text-unchanged"),
    pytest.param("\x1b]0;pwned\x07\x1b[2J6.4\n", "6.4\n", id="title-and-clear-screen"),
    pytest.param("\x1b]2;title\x1b\\x", "x", id="osc-ended-by-st"),
    pytest.param("\x1b[1;31merror\x1b[0m: x", "error: x", id="colours"),
    pytest.param("a\x1b]0;never ended\nb", "a\nb", id="unterminated-osc-stops-at-the-line"),
    pytest.param("a\r\nb\rc\x00d\x07e\x7f\x9b2Jf", "a\nbcdef", id="controls"),
    pytest.param("tab\tkept\u2028x", "tab\tkeptx", id="tab-kept-separator-dropped"),
    pytest.param("\x1b(Bascii \x1bcreset", "ascii reset", id="two-byte-escapes"),
    pytest.param("naïve «ü» 日本", "naïve «ü» 日本", id="non-ascii-text-kept"),
])
def test_plain(raw, shown):
    assert plain(raw) == shown
