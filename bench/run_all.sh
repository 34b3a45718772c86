#!/usr/bin/env bash
# `make bench`: every benchmark side by side with its peer, in one run, into one table.
# Builds the bench drivers (-DSOFTCERT_BENCH=ON) in BUILD_DIR, runs them, writes CSV/JSON and
# OUT/results.md (bench/tables.py). Figures, not tests (docs/performance.md).
# Usage: bench/run_all.sh [BUILD_DIR] [--quick]
#   --quick: 30 digits only, GD 1e5 steps (×10), smaller sweeps, no quick-suite timing.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build
quick=
for a in "$@"; do
  case "$a" in
    --quick) quick=--quick ;;
    *) build=$a ;;
  esac
done
out=${BENCH_OUT:-out/bench}
mkdir -p "$out"
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DSOFTCERT_BENCH=ON >/dev/null
cmake --build "$build" -j "$jobs" --target bench_drivers

run="$out/run.txt"
{
  echo "softcert $(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown) on $(uname -m), $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)${quick:+ (quick)}"
  grep -m1 "model name" /proc/cpuinfo | sed 's/.*: /cpu: /' || true
} >"$run"
load() { echo "$1: $(uptime | sed 's/.*load average/load average/')" | tee -a "$run"; }

load "micro-benchmarks (tables 4, kernels)"
mintime=0.2
[ -n "$quick" ] && mintime=0.05
"$build/bench/softcert_microbench" --benchmark_min_time=$mintime \
  --benchmark_out="$out/microbench.json" --benchmark_out_format=json >/dev/null
load "rigorous vs fast tier"
"$build/bench/tiers" $quick | tee "$out/tiers.csv"
load "rigorous cost sweeps (table 3)"
"$build/bench/rigorous_cost" $quick | tee "$out/rigorous_cost.csv"
load "rigorous tier at the papers' sizes (docs/performance.md)"
"$build/bench/rigorous_scale" $quick | tee "$out/rigorous_scale.csv"
if [ -z "$quick" ]; then  # the tied model at the authors' D = 50: 2 τ-steps, Lohner (~2 CPU-minutes, 4.5 GiB) and ball
  load "tied D = 50, first steps (docs/performance.md)"
  "$build/bench/rigorous_scale" --tied 50 --variants default,ball,ball+closed,ball+factors --paper-steps 2 | tee "$out/rigorous_scale_tied50.csv"
  load "tied D = 100, first ball steps: mu from the dense Df and from its factors (docs/performance.md)"
  "$build/bench/rigorous_scale" --no-paper --tied 100 --variants ball+closed,ball+factors --paper-steps 2 | tee "$out/rigorous_scale_tied100.csv"
fi
load "the certificate of mu: row by row vs blocked, one and two threads (docs/performance.md)"
"$build/bench/cholesky_certificate" 2551 3 | tee "$out/cholesky_certificate_2551.txt"
if [ -z "$quick" ]; then  # the tied D = 100 ball step's size: ~2 min, 1.6 GiB
  "$build/bench/cholesky_certificate" 10101 1 | tee "$out/cholesky_certificate_10101.txt"
fi
load "fast tier vs mpmath and Odeint dopri5 (table 1)"
/usr/bin/python3 bench/peers.py --build "$build" --out "$out" --only 1 $quick
load "numpy GD vs rigorous (table 2)"
/usr/bin/python3 bench/peers.py --build "$build" --out "$out" --only 2 $quick
load "suites (table 5)"
/usr/bin/python3 bench/suite_throughput.py --build "$build" --out "$out" ${quick:+--no-quick-suite}
load "done"
/usr/bin/python3 bench/tables.py --out "$out"
