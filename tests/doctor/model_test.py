import pytest

from hipport.doctor.dpkg import upstream_version
from hipport.doctor.model import Check, Diagnosis, Status, at_least, parse_version


@pytest.mark.parametrize(("text", "version"), [
    pytest.param("5.2.21153-0", (5, 2, 21153), id="hipconfig"),
    pytest.param("6.1.0-82", (6, 1, 0), id="info-version"),
    pytest.param("3.25.1\n", (3, 25, 1), id="cmake"),
    pytest.param("15.0.6 (Debian)", (15, 0, 6), id="clang"),
    pytest.param("2.13.0+cpu", (2, 13, 0), id="local-label"),
    pytest.param("", None, id="empty"),
    pytest.param("unknown", None, id="words"),
])
def test_parse_version(text, version):
    assert parse_version(text) == version


@pytest.mark.parametrize(("debian", "version"), [
    ("5.5.1-4", (5, 5, 1)),
    ("6.4.3+dfsg-1+b1", (6, 4, 3)),
    ("5.3.3+dfsg-2~deb12u1", (5, 3, 3)),
    ("1:7.0.2-3", (7, 0, 2)),
])
def test_upstream_version(debian, version):
    assert upstream_version(debian) == version


def test_at_least_pads_missing_parts():
    assert at_least((5, 7), (5, 7, 0))
    assert at_least((6, 0), (5, 7, 1))
    assert not at_least((5, 5, 1), (6, 0))
    assert not at_least(None, (1,))
    assert at_least(None, None)


def _check(status, required):
    return Check("tree", "x", "X", status, "detail", required=required)


@pytest.mark.parametrize(("status", "required", "code"), [
    (Status.OK, True, 0),
    (Status.WARN, True, 0),  # a warning never fails the run
    (Status.MISSING, False, 0),  # not needed: informational
    (Status.MISSING, True, 1),
    (Status.TOO_OLD, True, 1),
])
def test_exit_code(status, required, code):
    assert Diagnosis((_check(status, required),)).exit_code == code
