#!/usr/bin/env python3
"""Bench (a figure, not a test): long square-loss horizons with and without the PL tail
(src/integrate/pl_tail.hpp, docs/method.md §5b; docs/performance.md, "Long horizons near equilibria").

For each instance, through the CLI (`softcert integrate X --tier rigorous`, IntervalD, order 20):
  to100   --t 100   --tail off : validated steps to t = 100 (where "from t = 100" starts)
  tail    --t END   --tail auto: validated steps until the PL ball is small, then the ball
  plain   --t END   --tail off : validated steps all the way (today; slow: --plain)
and reports steps, steps after t = 100, the largest width over the full state (V, a) at END,
and the wall time. Writes CSV to stdout; --markdown prints a table.

Usage: bench/square_tail.py [--softcert build/softcert] [--end 10000] [--plain] [--markdown]
                            [--json-dir DIR] INSTANCE.json ...
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from decimal import Decimal, getcontext

getcontext().prec = 60


def max_width(j):
    w = Decimal(0)
    for row in j["V"]:
        for lo, hi in row:
            w = max(w, Decimal(hi) - Decimal(lo))
    for lo, hi in j["a"]:
        w = max(w, Decimal(hi) - Decimal(lo))
    return w


def run(softcert, inst, end, tail, json_dir):
    fd, out = tempfile.mkstemp(suffix=".json", dir=json_dir)
    os.close(fd)
    t0 = time.monotonic()
    p = subprocess.run([softcert, "integrate", inst, "--t", str(end), "--tier", "rigorous", "--tail", tail, "--json", out],
                       capture_output=True, text=True)
    secs = time.monotonic() - t0
    if p.returncode != 0:
        sys.stderr.write(f"{inst} t={end} tail={tail}: exit {p.returncode}\n{p.stderr}\n")
        return None
    with open(out) as f:
        j = json.load(f)
    if json_dir is None:
        os.unlink(out)
    j["_seconds"] = secs
    return j


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("instances", nargs="+")
    ap.add_argument("--softcert", default="build/softcert")
    ap.add_argument("--end", default="10000")
    ap.add_argument("--plain", action="store_true", help="also step to END without the tail (today's cost)")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--json-dir", default=None)
    a = ap.parse_args()
    rows = []
    print("instance,mode,end,steps,steps_after_100,max_width,seconds,tail_used,tail_from_t,tail_radius,tail_mu")
    for inst in a.instances:
        name = os.path.basename(inst).removesuffix(".json")
        r100 = run(a.softcert, inst, 100, "off", a.json_dir)
        s100 = r100["steps"] if r100 else None
        modes = [("tail", "auto")] + ([("plain", "off")] if a.plain else [])
        for mode, tail in modes:
            j = run(a.softcert, inst, a.end, tail, a.json_dir)
            if j is None:
                continue
            t = j.get("tail", {})
            row = dict(instance=name, mode=mode, end=a.end, steps=j["steps"],
                       after=max(0, j["steps"] - s100) if s100 is not None else "", width=f"{max_width(j):.3g}",
                       seconds=f"{j['_seconds']:.1f}", used=t.get("used", False),
                       from_t=t.get("from_t", ["", ""])[1] if t.get("used") else "",
                       radius=f"{t['radius']:.3g}" if t.get("used") else "", mu=f"{t['mu']:.3g}" if t.get("used") else "")
            rows.append(row)
            print(",".join(str(v) for v in row.values()), flush=True)
        if r100:
            print(f"{name},to100,100,{s100},0,{max_width(r100):.3g},{r100['_seconds']:.1f},False,,,", flush=True)
    if a.markdown:
        print("\n| instance | mode | steps to END | steps after t = 100 | max width at END | s | tail from t | R | μ |")
        print("|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['instance']} | {r['mode']} | {r['steps']} | {r['after']} | {r['width']} | {r['seconds']} | "
                  f"{float(r['from_t']):.4g} | {r['radius']} | {r['mu']} |" if r['from_t'] else
                  f"| {r['instance']} | {r['mode']} | {r['steps']} | {r['after']} | {r['width']} | {r['seconds']} |  |  |  |")


if __name__ == "__main__":
    main()
