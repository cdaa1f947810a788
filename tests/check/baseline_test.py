"""Baseline fingerprints: stable under unrelated edits, new when the call changes."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from hipport.check.baseline import (
    Baseline,
    BaselineError,
    Fingerprint,
    context_hash,
    fingerprint,
    relative_key,
    render,
    write,
)
from hipport.check.engine import CheckedFile, evaluate
from hipport.check.policy import FailurePolicy
from hipport.converter import RunOptions
from hipport.delivery import Mode
from hipport.jobs import Job
from hipport.request import Request
from hipport.runner import run_batch
from hipport.values import build_settings

ORIGINAL = b"""#include <cuda_runtime.h>
__global__ void kernel(float* out) { out[threadIdx.x] = 1.0f; }
int occupancy(cudaLaunchConfig_t* cfg, cudaClusterSchedulingPolicy policy) {
  int clusters = 0;
  cudaOccupancyMaxActiveClusters(&clusters, kernel, cfg);
  return clusters;
}
"""


def violations_of(tmp_path: Path, data: bytes, baseline: Baseline | None):
    """(new violations, known count, fingerprints) of ``data`` as src/k.cu."""
    source = tmp_path / "src" / "k.cu"
    source.parent.mkdir(parents=True, exist_ok=True)
    source.write_bytes(data)
    results = run_batch([Job(source, "src/k.cu")],
                        RunOptions(Request((), Mode.DRY_RUN, build_settings(fast=True))))
    files = {"src/k.cu": CheckedFile("src/k.cu", source, source)}
    verdict = evaluate(results, files, FailurePolicy(), baseline, tmp_path, None)
    return verdict


def baseline_for(tmp_path: Path, data: bytes) -> Baseline:
    verdict = violations_of(tmp_path, data, None)
    # the policy type and the occupancy call (ROCm 7.2 has hipLaunchConfig_t)
    assert len(verdict.new) == 2
    path = tmp_path / ".hipport-baseline.json"
    write(Baseline(path), verdict.found, {"src/k.cu"})
    return Baseline.load(path)


def test_fingerprint_ignores_whitespace_but_not_tokens():
    assert context_hash(b"  f(a,  b);") == context_hash(b"f(a, b);\t")
    assert context_hash(b"f(a, b);") != context_hash(b"f(a, c);")
    fp = fingerprint("src/k.cu", "HP901", "cudaX", b"cudaX(1);")
    assert fp == Fingerprint("src/k.cu", "cudaX", context_hash(b"cudaX(1);"))
    # Findings without an API name are keyed by their code.
    assert fingerprint("a.cu", "HP502", None, b"k<<<1,1>>>();").subject == "HP502"


def test_unchanged_file_is_fully_known(tmp_path: Path):
    baseline = baseline_for(tmp_path, ORIGINAL)
    verdict = violations_of(tmp_path, ORIGINAL, baseline)
    assert verdict.new == [] and verdict.known == 2 and not verdict.failed


def test_lines_inserted_above_still_match(tmp_path: Path):
    baseline = baseline_for(tmp_path, ORIGINAL)
    shifted = b"// a new header comment\n#include <cstdio>\n\n" + ORIGINAL
    verdict = violations_of(tmp_path, shifted, baseline)
    assert verdict.new == [] and verdict.known == 2


def test_unrelated_rename_and_reindent_still_match(tmp_path: Path):
    baseline = baseline_for(tmp_path, ORIGINAL)
    edited = (ORIGINAL.replace(b"return clusters;", b"return clusters + 0;")
              .replace(b"out[threadIdx.x]", b"result[threadIdx.x]")
              .replace(b"float* out", b"float* result")
              .replace(b"  cudaOccupancy", b"      cudaOccupancy"))
    assert edited != ORIGINAL
    verdict = violations_of(tmp_path, edited, baseline)
    assert verdict.new == [] and verdict.known == 2


def test_changed_call_is_a_new_violation(tmp_path: Path):
    baseline = baseline_for(tmp_path, ORIGINAL)
    changed = ORIGINAL.replace(b"(&clusters, kernel, cfg)", b"(&clusters, kernel, nullptr)")
    verdict = violations_of(tmp_path, changed, baseline)
    assert [(v.line, v.api) for v in verdict.new] == [(5, "cudaOccupancyMaxActiveClusters")]
    assert verdict.known == 1  # cudaClusterSchedulingPolicy is untouched


def test_a_copied_known_line_is_new_once(tmp_path: Path):
    baseline = baseline_for(tmp_path, ORIGINAL)
    line = b"  cudaOccupancyMaxActiveClusters(&clusters, kernel, cfg);\n"
    doubled = ORIGINAL.replace(line, line + line)
    verdict = violations_of(tmp_path, doubled, baseline)
    assert len(verdict.new) == 1 and verdict.known == 2


def test_renamed_file_is_not_matched(tmp_path: Path):
    baseline = baseline_for(tmp_path, ORIGINAL)
    other = Baseline(baseline.path, baseline.counts, baseline.codes)
    source = tmp_path / "src" / "moved.cu"
    source.write_bytes(ORIGINAL)
    results = run_batch([Job(source, "src/moved.cu")],
                        RunOptions(Request((), Mode.DRY_RUN, build_settings(fast=True))))
    verdict = evaluate(results, {"src/moved.cu": CheckedFile("src/moved.cu", source, source)},
                       FailurePolicy(), other, tmp_path, None)
    assert len(verdict.new) == 2


def test_fixed_debt_is_reported_stale(tmp_path: Path):
    baseline = baseline_for(tmp_path, ORIGINAL)
    fixed = ORIGINAL.replace(b"  cudaOccupancyMaxActiveClusters(&clusters, kernel, cfg);\n", b"")
    verdict = violations_of(tmp_path, fixed, baseline)
    assert verdict.new == [] and verdict.known == 1 and verdict.stale == 1


def test_write_merges_and_is_deterministic(tmp_path: Path):
    path = tmp_path / ".hipport-baseline.json"
    (tmp_path / "keep.cu").write_text("x")
    keep = Fingerprint("keep.cu", "cudaA", "0" * 16)
    gone = Fingerprint("deleted.cu", "cudaB", "1" * 16)
    replaced = Fingerprint("new.cu", "cudaC", "2" * 16)
    old = Baseline(path)
    for fp in (keep, gone, replaced):
        old.counts[fp] = 1
        old.codes[fp] = "HP901"
    fresh = Fingerprint("new.cu", "cudaD", "3" * 16)
    written, dropped = write(old, [(fresh, "HP901"), (fresh, "HP901")], {"new.cu"})
    assert (written, dropped) == (3, 1)
    loaded = Baseline.load(path)
    assert dict(loaded.counts) == {keep: 1, fresh: 2}
    first = path.read_bytes()
    write(loaded, [(fresh, "HP901"), (fresh, "HP901")], {"new.cu"})
    assert path.read_bytes() == first
    assert render(loaded.counts, loaded.codes) == first
    entry = json.loads(first)["findings"][0]
    assert set(entry) == {"path", "code", "api", "context", "count"}
    assert "line" not in entry  # line numbers would churn on every edit


@pytest.mark.parametrize("text, message", [
    ("{", "malformed baseline JSON"),
    ("[]", "not a hipport baseline"),
    ('{"version": 1, "findings": {}}', '"findings" must be a list'),
    ('{"version": 1, "findings": [{"path": "a.cu", "code": "HP901"}]}',
     'findings[0]: "context" must be a non-empty string'),
    ('{"version": 1, "findings": [{"path": "a.cu", "code": "HP901", "context": "x", '
     '"count": 0}]}', '"count" must be a positive integer'),
])
def test_bad_baseline_files_are_clear_errors(tmp_path: Path, text: str, message: str):
    path = tmp_path / "b.json"
    path.write_text(text)
    with pytest.raises(BaselineError, match=None) as info:
        Baseline.load(path)
    assert message in str(info.value) and str(path) in str(info.value)


def test_missing_baseline_is_empty(tmp_path: Path):
    assert len(Baseline.load(tmp_path / "none.json")) == 0


def test_relative_key(tmp_path: Path):
    assert relative_key(tmp_path / "a" / "b.cu", tmp_path) == "a/b.cu"
    outside = relative_key(Path("/elsewhere/x.cu"), tmp_path)
    assert outside == "/elsewhere/x.cu"
