#!/usr/bin/env python3
"""Bench (a figure, not a test): varre2026.kl.loss_reaches_infimum, rigorous tier, on the authors'
instance at their t = 1e6, with the defaults and (--before) with the Lohner set and no tail
(docs/method.md §5d, docs/performance.md "The cross-entropy tail").

Runs through the CLI (`softcert check ... --tier rigorous --horizon H --json`), CPU seconds from
the child's rusage, side by side:
  after   the defaults: the ball step with 2 pieces, the loss gap by its mean value form, and the
          cross-entropy tail lemma once it closes the claim
  before  (--before) the Lohner set and no tail, walking until L - L* <= delta is certain at a
          step's end (params set = "lohner", tail = false, max_steps = 200000; ~27 CPU-min,
          so off by default)
and prints verdict, steps, the t where the claim was closed, CPU seconds and the ratio
before/after. The two runs of a pair run one after the other (not concurrently); the machine load
(`uptime`) is printed first: on a shared machine ratios are what to compare, not seconds.

Usage: bench/kl_tail.py [--softcert build/softcert] [--horizon 1e6] [--before] [INSTANCE.json]
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time


def run(softcert, inst, horizon, params):
    fd, out = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    cmd = [softcert, "check", "varre2026.kl.loss_reaches_infimum", "--instance", inst, "--tier", "rigorous",
           "--horizon", str(horizon), "--json", out]
    for p in params:
        cmd += ["--param", p]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(out) as f:
        j = json.load(f)
    os.unlink(out)
    r = j["results"][0] if "results" in j else j
    d = r.get("details", {})
    return {"verdict": r.get("verdict"), "steps": d.get("steps"), "t_closed": d.get("t_reached"),
            "closed_by": "tail" if "tail" in d else ("loss" if r.get("verdict") == "proved" else "-"), "cpu_s": round(after.ru_utime - before.ru_utime, 1),
            "wall_s": round(wall, 1)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("instance", nargs="?", default="proofs_checks/instances/authors/kl.json")
    ap.add_argument("--softcert", default="build/softcert")
    ap.add_argument("--horizon", default="1e6")
    ap.add_argument("--before", action="store_true", help="also run the Lohner set without the tail (~27 CPU-min)")
    a = ap.parse_args()
    print("load:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    rows = [("after", run(a.softcert, a.instance, a.horizon, []))]
    if a.before:
        rows.append(("before", run(a.softcert, a.instance, a.horizon,
                                   ['set="lohner"', "tail=false", "max_steps=200000"])))
    print("| run | verdict | steps | last t | closed by | CPU s | wall s |")
    print("|---|---|---|---|---|---|---|")
    for name, r in rows:
        print(f"| {name} | {r['verdict']} | {r['steps']} | {r['t_closed']} | {r['closed_by']} | {r['cpu_s']} | {r['wall_s']} |")
    if len(rows) == 2 and rows[0][1]["cpu_s"] > 0:
        print(f"ratio before/after (CPU): {rows[1][1]['cpu_s'] / rows[0][1]['cpu_s']:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
