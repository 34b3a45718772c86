#!/usr/bin/env bash
# `pip install .` into a fresh virtual environment (docs/python.md, "Install"), as ctest's
# python_pip_install runs it: python3 -m venv --system-site-packages, then both
# `pip install --no-build-isolation .` and `pip install .` (build isolation: pyproject.toml's
# backend needs nothing from PyPI), offline (--no-index). SOFTCERT_BUILD_DIR points the backend
# at ctest's own build directory, so only the (up-to-date) Python target is rebuilt: seconds, not
# a fresh CMake build. Then `import softcert` from outside the repository must load the copy in the
# environment, with its stubs, and integrate an instance.
# Usage: pip_install_test.sh SOURCE_DIR BUILD_DIR PYTHON
set -euo pipefail
src=$1 build=$2 python=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PYTHONDONTWRITEBYTECODE=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
"$python" -m venv --system-site-packages "$work/venv"
for mode in --no-build-isolation ""; do
  echo "== pip install $mode ."
  (cd "$src" && SOFTCERT_BUILD_DIR="$build" "$work/venv/bin/python" -m pip install -q --no-index --no-deps \
     --force-reinstall $mode .)
  cd "$work"   # outside the repository: nothing there named softcert
  env -u PYTHONPATH "$work/venv/bin/python" - "$work/venv" <<'PY'
import os, sys
import softcert
venv = os.path.realpath(sys.argv[1])
where = os.path.realpath(softcert.__file__)
assert where.startswith(venv + os.sep), f"softcert imported from {where}, not from the environment {venv}"
pkg = os.path.dirname(where)
for f in ("__init__.pyi", "py.typed"):
    assert os.path.exists(os.path.join(pkg, f)), f"{f} not installed in {pkg}"
inst = softcert.Instance(V=[[1, 0], [0, 1]], a=[0, 0], beta=[1, 0])
r = softcert.integrate(inst, 1, tier="rigorous")
assert r.lower["softmax"][0] <= r.upper["softmax"][0]
print("imported", softcert.__version__, "from", where)
PY
done
