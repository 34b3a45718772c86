#!/usr/bin/python3
"""Table 5 of docs/performance.md: instances per second per check, at quick settings
(bench/suites/bench.toml), with --jobs 1 and --jobs 2, from one `softcert suite` run each.

Per check: n instances, the sum of their `seconds` (results.jsonl: time inside the check, per
instance), and the rate n / Σ seconds (instances per second per core). Per run: the whole
process's wall time. Also times the quick suite (proofs_checks/suites/quick.toml, goal < 2 min
on 2 cores) at --jobs 2 unless --no-quick-suite. Writes OUT/suites.csv. Usage:
    bench/suite_throughput.py --build BUILD [--out DIR] [--no-quick-suite]
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import time
from collections import OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run_suite(binary, suite, out, jobs):
    shutil.rmtree(out, ignore_errors=True)
    t0 = time.perf_counter()
    r = subprocess.run([binary, "suite", suite, "--out", out, "--jobs", str(jobs)], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    if r.returncode not in (0, 1, 3):
        sys.exit("suite run failed (exit %d): %s" % (r.returncode, r.stderr[-2000:]))
    per = OrderedDict()
    with open(os.path.join(out, "results.jsonl")) as f:
        for line in f:
            rec = json.loads(line)
            key = rec.get("entry", rec["check"])
            n, s, verdicts = per.get(key, (0, 0.0, {}))
            verdicts[rec["verdict"]] = verdicts.get(rec["verdict"], 0) + 1
            per[key] = (n + 1, s + float(rec["seconds"]), verdicts)
    return per, wall, r.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "bench"))
    ap.add_argument("--no-quick-suite", action="store_true")
    args = ap.parse_args()
    binary = os.path.join(args.build, "softcert")
    suite = os.path.join(HERE, "suites", "bench.toml")
    os.makedirs(args.out, exist_ok=True)
    runs = {}
    for jobs in (1, 2):
        runs[jobs] = run_suite(binary, suite, os.path.join(args.out, "suite-j%d" % jobs), jobs)
        print("suites: bench.toml --jobs %d: %.1f s wall" % (jobs, runs[jobs][1]), flush=True)
    with open(os.path.join(args.out, "suites.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["entry", "instances", "verdicts", "j1_check_s", "j1_per_s", "j2_check_s", "j2_per_s"])
        for key, (n, s1, verdicts) in runs[1][0].items():
            _, s2, _ = runs[2][0].get(key, (n, float("nan"), {}))
            w.writerow([key, n, " ".join("%s:%d" % kv for kv in sorted(verdicts.items())), "%.3f" % s1,
                        "%.3g" % (n / s1 if s1 > 0 else float("inf")), "%.3f" % s2,
                        "%.3g" % (n / s2 if s2 > 0 else float("inf"))])
        total = sum(n for n, _, _ in runs[1][0].values())
        w.writerow(["(whole run, wall)", total, "", "%.2f" % runs[1][1], "%.3g" % (total / runs[1][1]),
                    "%.2f" % runs[2][1], "%.3g" % (total / runs[2][1])])
        if not args.no_quick_suite:
            quick = os.path.join(ROOT, "proofs_checks", "suites", "quick.toml")
            per, wall, rc = run_suite(binary, quick, os.path.join(args.out, "suite-quick-j2"), 2)
            n = sum(v[0] for v in per.values())
            w.writerow(["(quick.toml, --jobs 2, wall; goal < 120 s)", n, "exit %d" % rc, "", "", "%.2f" % wall,
                        "%.3g" % (n / wall)])
            print("suites: quick.toml --jobs 2: %.1f s wall (exit %d)" % (wall, rc), flush=True)


if __name__ == "__main__":
    sys.exit(main())
