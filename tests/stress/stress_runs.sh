#!/usr/bin/env bash
# Stress test for suite runs on one --out directory (issue 16). NOT run by ctest: it takes
# minutes and (for the full-disk part) mounts a tmpfs, which needs root.
#
#   tests/stress/stress_runs.sh [BUILD_DIR] [ROUNDS]
#
# 1. concurrency: two different suites started together on one --out, ROUNDS times: the lock
#    lets exactly one run at a time (the other exits 2, "another softcert run"), and the
#    directory ends holding exactly one run whose results equal that suite's uninterrupted run;
# 2. kills: a run SIGKILLed at random moments, resumed (and killed again) until it finishes:
#    the reports equal the uninterrupted run's;
# 3. full disk: a run into a tiny tmpfs must either succeed with correct reports or fail with
#    exit 2 naming "No space left on device" — never exit 0 with a corrupt file; after growing
#    the file system, --resume finishes the run with reports equal to the uninterrupted run's.
# Prints what it found; exits 1 on any violation of these rules.
set -uo pipefail
build=${1:-build}
rounds=${2:-10}
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "$build" && pwd)/softcert
work=$(mktemp -d /tmp/softcert-stress.XXXXXX)
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
note() { echo "  $*"; }

suite_a="$root/tests/data/scale_suite.toml"
suite_b="$work/other.toml"
cat >"$suite_b" <<'TOML'
name = "stress-other"
seed = 7
[[check]]
name = "sukenik2026.hard_switch"
instances = 60
TOML

# results.jsonl without "seconds", one record per line, for comparing runs.
normalized() {
  python3 - "$1" <<'PY'
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    r = json.loads(line)
    r.pop("seconds", None)
    print(json.dumps(r, sort_keys=True))
PY
}
# Every JSON report in DIR parses and the journal is whole lines of records.
valid_dir() {
  python3 - "$1" <<'PY'
import json, os, sys
d = sys.argv[1]
for f in ("summary.json", "manifest.json", "run.json"):
    p = os.path.join(d, f)
    if os.path.exists(p):
        json.load(open(p, encoding="utf-8"))
p = os.path.join(d, "results.jsonl")
if os.path.exists(p):
    data = open(p, "rb").read()
    assert not data or data.endswith(b"\n"), "unterminated journal"
    for line in data.decode("utf-8").splitlines():
        r = json.loads(line)
        assert r["verdict"] in ("proved", "confirmed", "violated", "inconclusive", "error"), r["verdict"]
PY
}
same_as() {  # DIR BASELINE_DIR
  normalized "$1/results.jsonl" >"$work/x.norm" 2>/dev/null || return 1
  normalized "$2/results.jsonl" >"$work/y.norm" || return 1
  cmp -s "$work/x.norm" "$work/y.norm"
}

echo "== baselines (uninterrupted runs)"
"$bin" suite "$suite_a" -q --out "$work/base_a" >/dev/null; note "suite A exit $?"
"$bin" suite "$suite_b" -q --out "$work/base_b" >/dev/null; note "suite B exit $?"

echo "== 1. two suites on one --out, $rounds rounds"
both_ran=0 one_refused=0
for i in $(seq 1 "$rounds"); do
  out="$work/shared_$i"
  "$bin" suite "$suite_a" -q --out "$out" >"$work/a.out" 2>"$work/a.err" &
  pa=$!
  "$bin" suite "$suite_b" -q --out "$out" >"$work/b.out" 2>"$work/b.err" &
  pb=$!
  wait $pa; ra=$?
  wait $pb; rb=$?
  if ! valid_dir "$out" 2>"$work/valid.err"; then fail "round $i: corrupt file in $out: $(tail -1 "$work/valid.err")"; continue; fi
  # the suite whose records are in the journal must match its baseline
  check=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["check"])' "$out/results.jsonl" 2>/dev/null)
  if [ "$check" = "sukenik2026.sink_representability" ]; then base="$work/base_a"; else base="$work/base_b"; fi
  same_as "$out" "$base" || fail "round $i: $out differs from the uninterrupted run of its suite (exits $ra, $rb)"
  for pair in "$ra:$work/a.err" "$rb:$work/b.err"; do
    rc=${pair%%:*} err=${pair#*:}
    case $rc in
      0|1) ;;
      2) grep -q "another softcert run is using this directory" "$err" || fail "round $i: exit 2 without the lock message: $(head -c 300 "$err")" ;;
      *) fail "round $i: exit $rc: $(head -c 300 "$err")" ;;
    esac
  done
  if [ "$ra" = 2 ] || [ "$rb" = 2 ]; then one_refused=$((one_refused + 1)); else both_ran=$((both_ran + 1)); fi
done
note "rounds where one run was refused by the lock: $one_refused; where both ran one after the other: $both_ran"

echo "== 2. SIGKILL at random moments, then --resume"
for i in $(seq 1 "$rounds"); do
  out="$work/killed_$i"
  kills=0
  "$bin" suite "$suite_a" -q --out "$out" >/dev/null 2>&1 &
  pid=$!
  while :; do
    sleep "0.$((RANDOM % 9 + 1))"
    if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid" 2>/dev/null; kills=$((kills + 1)); fi
    wait "$pid" 2>/dev/null
    valid_dir "$out" 2>/dev/null || { :; }  # a cut last line is allowed between runs
    [ "$kills" -ge 4 ] && break
    "$bin" suite "$suite_a" -q --resume --out "$out" >/dev/null 2>"$work/r.err" &
    pid=$!
  done
  "$bin" suite "$suite_a" -q --resume --out "$out" >/dev/null 2>"$work/r.err"
  rc=$?
  if [ $rc -gt 1 ]; then fail "round $i: final --resume exit $rc: $(head -c 300 "$work/r.err")"; continue; fi
  valid_dir "$out" || fail "round $i: corrupt file after the final resume"
  same_as "$out" "$work/base_a" || fail "round $i: resumed run differs from the uninterrupted run"
done
note "$rounds rounds of up to 4 kills each, then a final resume"

echo "== 3. full disk (tmpfs)"
mnt="$work/mnt"
mkdir -p "$mnt"
if mount -t tmpfs -o size=1m tmpfs "$mnt" 2>/dev/null; then
  for size in 16k 32k 48k 64k 96k 128k 256k 1m; do
    rm -rf "${mnt:?}"/* "${mnt:?}"/.[!.]*
    mount -o remount,size=$size "$mnt" || { fail "cannot remount the tmpfs at $size"; continue; }
    "$bin" suite "$suite_a" -q --out "$mnt/out" >/dev/null 2>"$work/d.err"
    rc=$?
    if [ $rc = 0 ] || [ $rc = 1 ]; then
      valid_dir "$mnt/out" && same_as "$mnt/out" "$work/base_a" || fail "size $size: exit $rc but the reports are wrong"
      note "size $size: the run fit (exit $rc), reports identical"
    elif [ $rc = 2 ] && grep -q "No space left on device" "$work/d.err"; then
      valid_dir "$mnt/out" || fail "size $size: exit 2 but a report file is corrupt"
      note "size $size: exit 2, $(grep -o 'cannot write [^:]*' "$work/d.err" | head -1): No space left on device"
      mount -o remount,size=8m "$mnt"
      "$bin" suite "$suite_a" -q --resume --out "$mnt/out" >/dev/null 2>"$work/d2.err"
      rc2=$?
      if [ $rc2 -le 1 ] && same_as "$mnt/out" "$work/base_a"; then note "  after growing the disk, --resume finished with identical reports"
      else fail "size $size: --resume after ENOSPC: exit $rc2 $(head -c 300 "$work/d2.err")"; fi
      ls -a "$mnt/out" | grep -q '\.tmp\.' && fail "size $size: stale temporary files left: $(ls -a "$mnt/out" | grep '\.tmp\.')"
    else
      fail "size $size: exit $rc: $(head -c 300 "$work/d.err")"
    fi
  done
  umount "$mnt"
else
  echo "  skipped: cannot mount a tmpfs here (needs root)"
fi

rm -rf "$work"
if [ $failures -gt 0 ]; then echo "stress: $failures failure(s)"; exit 1; fi
echo "stress: all rules held"
