#!/usr/bin/env python3
"""The authors' regression claim in the rigorous tier with default options, side by side with
each member's tail at its default stop rule (docs/performance.md, "The regression check's tail
stops when its margin is decided"). Runs

    softcert check varre2026.regression.conditioning --instance <sweep> --tier rigorous
                   [--param stop_when_decided=false]

("after": the default; "before": stop_when_decided=false) and reports user + system CPU seconds,
wall seconds, the verdict, the margin and the members' steps, and the ratio before / after.
Figures, not a test.
Usage: bench/regression_claim.py [--build BUILD] [--out OUT] [--check NAME] [--only after|before]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(binary, check, instance, extra):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        cmd = [binary, "check", check, "--instance", instance, "--tier", "rigorous", "--json", out, "-q"] + extra
        t0 = time.monotonic()
        before = os.times()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        after = os.times()
        wall = time.monotonic() - t0
        cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
        rec = {}
        if os.path.exists(out):
            with open(out) as f:
                lines = [json.loads(l) for l in f if l.strip()]
            rec = lines[-1] if lines else {}
        return {"cmd": " ".join(cmd), "exit": proc.returncode, "cpu_s": cpu, "wall_s": wall, "record": rec}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "bench"))
    ap.add_argument("--check", default="varre2026.regression.conditioning")
    ap.add_argument("--only", choices=["after", "before"])
    a = ap.parse_args()
    binary = os.path.join(a.build, "softcert")
    instance = os.path.join(ROOT, "proofs_checks", "instances", "varre2026-regression-authors-sweep.json")
    variants = [("after", []), ("before", ["--param", "stop_when_decided=false"])]
    rows = {}
    for name, extra in variants:
        if a.only and a.only != name:
            continue
        r = run(binary, a.check, instance, extra)
        rec = r["record"]
        det = rec.get("details", {})
        r["verdict"] = rec.get("verdict")
        r["margin"] = rec.get("margin")
        r["steps"] = det.get("steps")
        rows[name] = r
        print(f"{name}: verdict {r['verdict']}, margin {r['margin']}, steps {r['steps']}, "
              f"CPU {r['cpu_s']:.1f} s, wall {r['wall_s']:.1f} s", flush=True)
    if "after" in rows and "before" in rows and rows["after"]["cpu_s"] > 0:
        print(f"ratio before/after: CPU {rows['before']['cpu_s'] / rows['after']['cpu_s']:.2f}, "
              f"wall {rows['before']['wall_s'] / rows['after']['wall_s']:.2f}")
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "regression_claim.json"), "w") as f:
        json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
