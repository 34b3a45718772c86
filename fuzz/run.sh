#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) and runs each for RUNS executions
# (default 1000000) from the seed corpus in fuzz/corpus/<target>/. Usage:
#   fuzz/run.sh [RUNS] [TARGET...]        e.g. fuzz/run.sh 20000 fuzz_suite
# Crashes are written to fuzz/artifacts/; the new corpus entries go to build-fuzz/corpus/
# (not into the tree: the checked-in corpus stays short).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1000000}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_instance fuzz_suite fuzz_journal fuzz_replay fuzz_strict_json fuzz_resume fuzz_reproduce_settings fuzz_claims)
build=${FUZZ_BUILD_DIR:-build-fuzz}
CC=${CC_FUZZ:-clang} CXX=${CXX_FUZZ:-clang++} cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSOFTCERT_FUZZ=ON -DSOFTCERT_MPI=OFF >/dev/null
cmake --build "$build" -j "${JOBS:-2}" --target "${targets[@]}"
mkdir -p fuzz/artifacts
for t in "${targets[@]}"; do
  name=${t#fuzz_}
  work="$build/corpus/$name"
  mkdir -p "$work"
  echo "== $t: $runs executions"
  # -timeout: a single input taking longer than 10 s is a hang; -rss_limit_mb: a memory blow-up.
  "$build/fuzz/$t" -runs="$runs" -timeout=10 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
    -artifact_prefix="fuzz/artifacts/$t-" "$work" "fuzz/corpus/$name" 2>&1 | tail -n 20
done
