#!/usr/bin/env bash
# Installs softcert's build and test dependencies from Debian 12 packages.
# Idempotent: packages already present are left alone and apt is not touched at all.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config git   # ninja: `make build` uses it (Makefile)
  libboost-dev            # Boost 1.74: Odeint, Interval, Multiprecision (header-only parts)
  libgmp-dev libmpfr-dev libmpfi-dev
  libflint-dev libflint-arb-dev  # softcert-verify (verify/): Arb ball arithmetic, independent of MPFI
  libgtest-dev libgmock-dev
  libeigen3-dev nlohmann-json3-dev libcli11-dev libtomlplusplus-dev libfmt-dev
  python3 python3-numpy python3-mpmath   # instance generation, peer benchmarks
  python3-dev python3-pybind11 python3-pytest  # the Python module (docs/python.md) and its tests
  python3-venv python3-pip python3-matplotlib python3-pandas python3-scipy  # pip install ., plot, to_pandas, comparisons
  python3-nbclient python3-ipykernel python3-nbformat  # the notebook test (docs/notebooks/)
  coinor-csdp             # SDP solver proposing cost certificates (sukenik2026.cost_scaling; never trusted)
  libopenmpi-dev openmpi-bin              # mpirun -n N softcert suite (optional at build time)
  gnuplot-nox                             # plots in report.md / report.html (optional at run time)
  clang libclang-rt-14-dev                # make fuzz: libFuzzer + ASan/UBSan runtimes
  libbenchmark-dev                        # make bench: Google Benchmark micro-benchmarks
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  SUDO=sudo
  command -v sudo >/dev/null 2>&1 || {
    echo "install-deps: error: not root and no sudo; install as root: apt-get install ${missing[*]}" >&2
    exit 1
  }
else
  SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get update -q; then
  echo "install-deps: error: 'apt-get update' failed (network or sources.list?)" >&2
  exit 1
fi
if ! $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"; then
  echo "install-deps: error: could not install: ${missing[*]}" >&2
  exit 1
fi
echo "install-deps: done"
