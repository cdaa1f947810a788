#!/usr/bin/env bash
# bootstrap.sh - set up hipport for development on a fresh machine.
#
#   scripts/bootstrap.sh              # .venv with hipport (editable) + test tools
#   scripts/bootstrap.sh --toolchain  # ... plus hipcc, ROCm and CUDA library headers
#                                     #     (scripts/setup-toolchain.sh; needs root)
# Idempotent: a second run only checks what is already there.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
VENV="$REPO/.venv"
PY="${PYTHON:-python3}"

toolchain=0
for arg in "$@"; do
  case "$arg" in
    --toolchain) toolchain=1 ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) echo "bootstrap.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done

"$PY" - <<'PYEOF' || { echo "bootstrap.sh: hipport needs Python >= 3.10" >&2; exit 1; }
import sys
sys.exit(0 if sys.version_info >= (3, 10) else 1)
PYEOF

if [[ ! -x "$VENV/bin/python" ]]; then
  echo "[bootstrap] creating $VENV" >&2
  "$PY" -m venv "$VENV"
fi
stamp="$VENV/.hipport-deps"
want="$(cat pyproject.toml | sha256sum | cut -d' ' -f1)"
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
  echo "[bootstrap] installing hipport and its test dependencies" >&2
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check -e ".[test]" 2>&1 \
    | grep -v "^WARNING: Location" >&2 || true
  "$VENV/bin/python" -c "import hipport, tree_sitter_cuda, pytest, xdist" \
    || { echo "[bootstrap] installation failed" >&2; exit 1; }
  echo "$want" >"$stamp"
fi

if [[ $toolchain == 1 ]]; then
  PYTHON="$VENV/bin/python" bash "$REPO/scripts/setup-toolchain.sh"
fi
echo "[bootstrap] ready: $VENV/bin/hipport" >&2
