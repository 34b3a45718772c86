#!/usr/bin/env bash
# `make bench`: every benchmark that has a driver, side by side with its peer, in one run.
# Figures, not tests (bench/README.md). Usage: bench/run_all.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
echo "== fast tier vs mpmath odefun and numpy GD (bench/fast_tier_vs_mpmath.py)"
/usr/bin/python3 bench/fast_tier_vs_mpmath.py --softcert "$build/softcert"
echo
echo "== rigorous tier (bench/rigorous_*.cpp)"
for b in rigorous_headline rigorous_oscillator rigorous_cost; do
  g++ -O2 -std=c++20 -frounding-math -Isrc -I"$build/generated" -DSOFTCERT_SOURCE_DIR=\"$PWD\" \
    "bench/$b.cpp" "$build/libsoftcert_engine.a" -lmpfi -lmpfr -lgmp -o "$build/$b"
  echo "-- $b"
  "$build/$b"
done
