#!/usr/bin/python3
"""Collects the CSV / JSON files one `make bench` run wrote into OUT (default out/bench) into
one Markdown file OUT/results.md: the five tables of docs/performance.md, the kernel
micro-benchmarks, fitted growth exponents, and the machine load recorded before each part.
Usage: bench/tables.py [--out DIR]
"""
import argparse
import csv
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def read_csv(path):
    if not os.path.exists(path):
        return None
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def md_table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out) + "\n"


def fit_exponent(xs, ys):
    """Least-squares slope of log y against log x."""
    pts = [(math.log(x), math.log(y)) for x, y in zip(xs, ys) if x > 0 and y > 0]
    if len(pts) < 2:
        return float("nan")
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    return sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx


def table1(rows):
    head = ["digits", "t", "softcert s (bits, tol)", "digits", "mpmath.odefun s", "digits", "Odeint dopri5 mpfr s",
            "digits", "× mpmath", "× dopri5"]
    body = []
    for r in rows:
        dop = ("~" if r["dopri5_how"] == "extrapolated" else "") + r["dopri5_s"]
        body.append([r["digits"], r["t"], "%s (%s, %s)" % (r["softcert_s"], r["softcert_bits"], r["softcert_tol"]),
                     r["softcert_digits"], r["mpmath_s"], r["mpmath_digits"], dop, r["dopri5_digits"],
                     "**%s×**" % r["vs_mpmath"], "%s×" % r["vs_dopri5"]])
    return md_table(head, body)


def table2(rows):
    head = ["method", "s (in process)", "s (process)", "correct digits at t = 1e5", "enclosure width", "steps",
            "speed-up vs GD"]
    return md_table(head, [[r["method"], r["seconds"], r["process_s"], r["digits"], r["width"], r["steps"],
                            "**%s×**" % r["speedup_vs_gd"]] for r in rows])


def table_tiers(rows):
    head = ["t", "bits", "fast s", "fast steps", "fast digits", "rigorous s", "rigorous steps", "rigorous width",
            "rigorous / fast", "exp, log from MPFR: s", "steps", "width", "/ fast"]
    return md_table(head, [[r["t"], r["bits"], r["fast_s"], r["fast_steps"], r["fast_digits"], r["rigorous_s"],
                            r["rigorous_steps"], r["rigorous_width"], "**%s×**" % r["ratio"], r["rigorous_mpfr_exp_s"],
                            r["rigorous_mpfr_exp_steps"], r["rigorous_mpfr_exp_width"], "%s×" % r["ratio_mpfr_exp"]] for r in rows])


def table3(rows):
    head = ["sweep", "form", "kind", "Jacobian", "bits", "T", "n", "order", "steps", "ms/step", "mean h", "width at t = 1"]
    body = [[r["sweep"], r["form"], r["kind"], r["jacobian"], r["bits"], r["T"], r["n"], r["order"], r["steps"], r["ms_per_step"],
             r["mean_h"], r["width"] or "—"] for r in rows]
    fits = []

    def sel(**kw):
        return [r for r in rows if all(r[k] == v for k, v in kw.items())]

    # the reduced form's derivative pass from the pairwise softmax ("double") and from the O(T)
    # quotient ("quotient", what softcert integrate runs)
    for form, jac in (("reduced", "double"), ("reduced", "quotient"), ("full", "double")):
        s = sel(sweep="dimension", form=form, jacobian=jac)
        label = form + (", Jacobian " + jac if form == "reduced" else "")
        if s:
            fits.append(["ms/step vs n, %s (n = %s…%s)" % (label, s[0]["n"], s[-1]["n"]),
                         "%.2f" % fit_exponent([float(r["n"]) for r in s], [float(r["ms_per_step"]) for r in s])])
            big = [r for r in s if float(r["n"]) >= 16]
            if len(big) >= 2:
                fits.append(["ms/step vs n, %s, n ≥ 16" % label,
                             "%.2f" % fit_exponent([float(r["n"]) for r in big], [float(r["ms_per_step"]) for r in big])])
    s = sel(sweep="order")
    if s:
        fits.append(["ms/step vs order p (T = 8)",
                     "%.2f" % fit_exponent([float(r["order"]) for r in s], [float(r["ms_per_step"]) for r in s])])
        reached = [r for r in s if r["width"]]
        if reached:
            fits.append(["ms per unit time vs order p",
                         "%.2f" % fit_exponent([float(r["order"]) for r in s],
                                               [float(r["ms_per_step"]) / float(r["mean_h"]) for r in s])])
    for jac in ("mpfi", "double"):
        s = [r for r in sel(sweep="precision", order="20", jacobian=jac) if r["kind"] == "interval-mpfr"]
        if len(s) >= 2:
            fits.append(["ms/step vs bits, MPFI, order 20, Jacobian in %s (%s…%s bits)" % (jac, s[0]["bits"], s[-1]["bits"]),
                         "%.2f" % fit_exponent([float(r["bits"]) for r in s], [float(r["ms_per_step"]) for r in s])])
    return md_table(head, body) + "\nFitted growth exponents (least squares on log–log):\n\n" + md_table(
        ["quantity", "exponent"], fits)


def table4(bench):
    kinds = ["double", "interval-double", "interval-double-fast", "mpfr-direct", "mpfr", "mpfi-direct", "interval-mpfr"]
    rates = {}
    for b in bench:
        parts = b["name"].split("/")
        if parts[0] != "arith" or "items_per_second" not in b:
            continue
        _, op, kind, bits = parts[:4]
        rates[(op, int(bits), kind)] = b["items_per_second"] / 1e6
    body = []
    for op in ("add", "mul", "div", "exp", "log"):
        for bits in (53, 128, 256, 1024):
            row = [op, bits]
            have = False
            for k in kinds:
                v = rates.get((op, bits, k))
                row.append("%.3g" % v if v else "")
                have = have or v is not None
            direct = rates.get((op, bits, "mpfi-direct"))
            wrapped = rates.get((op, bits, "interval-mpfr"))
            row.append("%.2f" % (direct / wrapped) if direct and wrapped else "")
            if have:
                body.append(row)
    return md_table(["op", "bits"] + kinds + ["mpfi-direct / interval-mpfr"], body)


def kernels(bench):
    to_us = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
    body = []
    for b in bench:
        if not b["name"].startswith("kernel/"):
            continue
        f = to_us[b["time_unit"]]
        body.append([b["name"][len("kernel/"):], "%.3g" % (b["real_time"] * f), "%.3g" % (b["cpu_time"] * f)])
    return md_table(["kernel (headline instance, T = 8)", "µs per call (wall)", "µs per call (CPU)"], body)


def table5(rows):
    head = ["entry", "instances", "verdicts", "J=1 Σ check s", "J=1 inst/s/core", "J=2 Σ check s", "J=2 inst/s/core"]
    return md_table(head, [[r["entry"], r["instances"], r["verdicts"], r["j1_check_s"], r["j1_per_s"], r["j2_check_s"],
                            r["j2_per_s"]] for r in rows])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "bench"))
    args = ap.parse_args()
    o = args.out
    parts = ["# softcert benchmark results\n"]
    if os.path.exists(os.path.join(o, "run.txt")):
        with open(os.path.join(o, "run.txt")) as f:
            parts.append("```\n" + f.read().rstrip() + "\n```\n")
    t1 = read_csv(os.path.join(o, "fast_vs_peers.csv"))
    if t1:
        parts.append("## 1. Fast tier vs mpmath.odefun and a user's Odeint dopri5 (equal digits)\n\n" + table1(t1))
    t2 = read_csv(os.path.join(o, "gd_vs_rigorous.csv"))
    if t2:
        parts.append("## 2. The paper's numpy GD vs softcert to t = 1e5\n\n" + table2(t2))
    tt = read_csv(os.path.join(o, "tiers.csv"))
    if tt:
        parts.append("## Rigorous vs fast tier at the same precision (headline instance)\n\n" + table_tiers(tt))
    t3 = read_csv(os.path.join(o, "rigorous_cost.csv"))
    if t3:
        parts.append("## 3. Rigorous tier: cost per validated step\n\n" + table3(t3))
    mb = os.path.join(o, "microbench.json")
    if os.path.exists(mb):
        with open(mb) as f:
            bench = json.load(f)["benchmarks"]
        parts.append("## 4. Arithmetic: million operations per second\n\n" + table4(bench))
        parts.append("## Kernels\n\n" + kernels(bench))
    t5 = read_csv(os.path.join(o, "suites.csv"))
    if t5:
        parts.append("## 5. Suites: instances per second per check (bench/suites/bench.toml)\n\n" + table5(t5))
    with open(os.path.join(o, "results.md"), "w") as f:
        f.write("\n".join(parts))
    print("wrote %s" % os.path.join(o, "results.md"))


if __name__ == "__main__":
    sys.exit(main())
