#!/usr/bin/env bash
# Stress test for suite runs on one --out directory. NOT run by ctest: it takes
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
# 4. hostile input: a symlinked lock, /dev/zero, a FIFO, a sparse 3 GB file, a symlink
#    loop, 100 entries of 10^6 instances under a 1 GB memory limit, a tampered merge, ulimit -f 1,
#    empty --json / --out: each exit 2 within seconds with a message naming the thing, targets
#    untouched, no temporary file left.
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

echo "== 4. hostile input"
h="$work/hostile"
mkdir -p "$h"
headline="$root/proofs_checks/instances/authors/headline.json"
# expect_2 NAME MESSAGE CMD...: exit 2 within 10 s, stderr containing MESSAGE, no "internal error"
expect_2() {
  local name=$1 msg=$2
  shift 2
  local start=$SECONDS
  timeout 10 "$@" >/dev/null 2>"$h/err"
  local rc=$?
  local took=$((SECONDS - start))
  if [ $rc != 2 ]; then fail "$name: exit $rc (want 2): $(head -c 300 "$h/err")"
  elif ! grep -qF -- "$msg" "$h/err"; then fail "$name: message lacks '$msg': $(head -c 300 "$h/err")"
  elif grep -q "internal error" "$h/err"; then fail "$name: internal error: $(head -c 300 "$h/err")"
  else note "$name: exit 2 in ${took} s: $(head -c 160 "$h/err" | tr '\n' ' ')"; fi
}
echo precious >"$h/target"
mkdir -p "$h/lockout"; ln -s "$h/target" "$h/lockout/.softcert.lock"
expect_2 "symlinked lock (suite)" "is a symbolic link" "$bin" suite "$suite_b" -q --out "$h/lockout"
"$bin" suite "$suite_b" -q --shard 1/2 --out "$h/s1" >/dev/null 2>&1
"$bin" suite "$suite_b" -q --shard 2/2 --out "$h/s2" >/dev/null 2>&1
mkdir -p "$h/mergeout"; ln -s "$h/target" "$h/mergeout/.softcert.lock"
expect_2 "symlinked lock (merge)" "is a symbolic link" "$bin" merge --out "$h/mergeout" "$h/s1" "$h/s2"
[ "$(cat "$h/target")" = precious ] || fail "the symlinked lock's target was changed"
expect_2 "/dev/zero" "is a character device" "$bin" integrate /dev/zero --t 1
mkfifo "$h/fifo.json"
expect_2 "FIFO" "is a FIFO" "$bin" integrate "$h/fifo.json" --t 1
truncate -s 3G "$h/sparse.json"
expect_2 "sparse 3 GB file" "-byte limit" "$bin" integrate "$h/sparse.json" --t 1
ln -s "$h/loop.json" "$h/loop.json"
expect_2 "symlink loop" "symbolic links" "$bin" integrate "$h/loop.json" --t 1
printf 'name = "z"\n[[check]]\nname = "sukenik2026.hard_switch"\ninstance_files = ["/dev/zero"]\n' >"$h/zero.toml"
timeout 20 "$bin" suite "$h/zero.toml" -q --out "$h/zout" >/dev/null 2>&1
rc=$?
if [ $rc = 1 ] && grep -q "is a character device" "$h/zout/results.jsonl"; then note "instance_files = [/dev/zero]: one error record, exit 1"
else fail "instance_files = [/dev/zero]: exit $rc"; fi
python3 - "$h/huge.toml" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write('name = "huge"\n')
    for i in range(100):
        f.write('[[check]]\nname = "sukenik2026.hard_switch"\nlabel = "e%d"\ninstances = 1000000\n' % i)
PY
expect_2 "100 entries x 10^6 instances (ulimit -v 1 GB)" "instances: the suite plans" bash -c "ulimit -v 1048576; exec $bin suite $h/huge.toml -q"
"$bin" merge --out "$h/m0" "$h/s1" "$h/s2" >/dev/null 2>&1 || fail "clean merge failed"
python3 - "$h/s1/results.jsonl" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
r = json.loads(lines[1]); r["verdict"] = "proved"; r["margin"] = ["-5", "-4"]; lines[1] = json.dumps(r)
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
expect_2 "tampered merge (proved, margin [-5, -4])" "results.jsonl:2: verdict proved" "$bin" merge --out "$h/m1" "$h/s1" "$h/s2"
rm "$h/s2/run.json"
"$bin" suite "$suite_b" -q --shard 1/2 --out "$h/s1" >/dev/null 2>&1
expect_2 "merge without a shard's run.json" "s2/run.json" "$bin" merge --out "$h/m2" "$h/s1" "$h/s2"
mkdir -p "$h/ul"
expect_2 "ulimit -f 1" "File too large" bash -c "ulimit -f 1; exec $bin integrate $headline --t 1 --json $h/ul/out.json"
ls -a "$h/ul" | grep -q 'tmp' && fail "ulimit -f 1: temporary file left: $(ls -a "$h/ul")"
expect_2 "empty --json" "--json: must not be empty" "$bin" integrate "$headline" --t 1 --json ""
expect_2 "empty --out" "--out: must not be empty" "$bin" suite "$suite_b" -q --out ""

rm -rf "$work"
if [ $failures -gt 0 ]; then echo "stress: $failures failure(s)"; exit 1; fi
echo "stress: all rules held"
