#!/usr/bin/python3
"""Tables 1 and 2 of docs/performance.md: softcert against the tools its users would otherwise
use, side by side in one run, on the paper's headline instance
(proofs_checks/instances/authors/headline.json, reduced logistic system (a, u) of docs/models.md).

Table 1 (fast tier, equal digits), for 30 and 60 digits and t = 1, 10:
  softcert `integrate --form reduced --stepper taylor --no-check` at P bits and tolerance TOL
  (taylor is what `auto` picks above 64 bits),
  mpmath.odefun (Debian python3-mpmath, Taylor method) at mp.dps = D,
  a plain Boost.Odeint dopri5 on mpfr_float written as a user would (bench/odeint_user_dopri5.cpp),
  its tolerance lowered 10^-5 at a time until it reaches the digits mpmath reached (or its
  time budget runs out: then its time at those digits is extrapolated from the last run by
  dopri5's law, ×10 time per 5 digits, and marked "~").
Table 2 (the paper's own method): numpy gradient descent, lr 0.1, 1e6 steps (t = 1e5), against
  softcert's rigorous tier to t = 1e5 (`integrate --tier rigorous`, 53 bits, τ-time) and, for
  reference, the fast tier at 53 and 128 bits.

Times: seconds inside the process around the integration (softcert: the "seconds" its JSON
reports; mpmath: around odefun's evaluation; GD: around the loop), and for softcert also the
whole process. Digits: min over a and u of correct digits against a softcert run (taylor) at
twice the precision with a tolerance 10^-15 below; mpmath's and the Odeint peer's digits are
measured against the same reference, an independent check of it.
Writes CSV files into OUT (default out/bench). Usage:
    bench/peers.py --build BUILD [--out DIR] [--quick]
--quick: 30 digits only, GD 1e5 steps scaled ×10, user dopri5 budget 10 s.
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import mpmath
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
INSTANCE = os.path.join(ROOT, "proofs_checks", "instances", "authors", "headline.json")

# digits → (softcert bits, softcert tolerance, reference bits, reference tolerance)
FAST_SETTINGS = {30: (128, "1e-32", 256, "1e-47"), 60: (224, "1e-62", 448, "1e-77")}


def softcert(binary, args):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = f.name
    t0 = time.perf_counter()
    subprocess.run([binary, "integrate", INSTANCE, *args, "--json", out], check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    with open(out) as f:
        result = json.load(f)
    os.unlink(out)
    return result, wall


def midpoints(values):
    """Decimal strings, or [lower, upper] pairs (rigorous tier) → midpoints as strings."""
    out = []
    with mpmath.workdps(120):
        for v in values:
            if isinstance(v, list):
                out.append(mpmath.nstr((mpmath.mpf(v[0]) + mpmath.mpf(v[1])) / 2, 100))
            else:
                out.append(v)
    return out


def digits(values, reference):
    """Correct digits: min over entries of −log10(|x − ref| / max(|ref|, 1e-30))."""
    worst = 100.0
    with mpmath.workdps(120):
        for x, r in zip(values, reference):
            x, r = mpmath.mpf(x), mpmath.mpf(r)
            if x != r:
                worst = min(worst, float(-mpmath.log10(abs(x - r) / max(abs(r), mpmath.mpf("1e-30")))))
    return worst


def load_instance():
    with open(INSTANCE) as f:
        return json.load(f)


def mpmath_reduced(inst, times, dps):
    """odefun on (a, u); returns {t: (values, cumulative seconds)} for increasing times."""
    mpmath.mp.dps = dps
    T = inst["T"]
    V = [[mpmath.mpf(v) for v in row] for row in inst["V"]]
    beta = [mpmath.mpf(b) for b in inst["beta"]]
    a0 = [mpmath.mpf(x) for x in inst["a"]]
    u0 = [mpmath.fsum(V[i][j] * beta[i] for i in range(len(beta))) for j in range(T)]
    c = mpmath.fsum(b * b for b in beta)

    def F(t, y):
        a, u = y[:T], y[T:]
        m = max(a)
        e = [mpmath.exp(x - m) for x in a]
        z = mpmath.fsum(e)
        s = [x / z for x in e]
        su = mpmath.fsum(si * ui for si, ui in zip(s, u))
        g = 1 / (1 + mpmath.exp(su))
        return [g * s[i] * (u[i] - su) for i in range(T)] + [g * c * s[i] for i in range(T)]

    out = {}
    t0 = time.perf_counter()
    sol = mpmath.odefun(F, 0, a0 + u0)
    for t in times:
        y = sol(t)
        out[t] = ([mpmath.nstr(v, dps + 5) for v in y], time.perf_counter() - t0)
    mpmath.mp.dps = 15
    return out


def user_dopri5(binary, t_end, dps, tol_exp):
    # 10 guard digits, as a careful user would: at exactly dps digits the rounding errors of
    # thousands of steps stall it below dps correct digits.
    r = subprocess.run([binary, INSTANCE, str(t_end), str(dps + 10), "1e-%d" % tol_exp], check=True,
                       capture_output=True, text=True)
    return json.loads(r.stdout)


def dopri5_at_digits(binary, t_end, dps, target, reference, budget):
    """Lowers the tolerance until `target` digits; returns (seconds, digits, steps, tol, how).
    When the next run would exceed the budget, extrapolates from the last run with dopri5's
    own law (steps ∝ tol^(-1/5): ×10 time per 5 more digits)."""
    last = None
    for tol_exp in range(10, dps + 6, 5):
        r = user_dopri5(binary, t_end, dps, tol_exp)
        dg = digits(r["a"] + r["u"], reference)
        last = (r["seconds"], dg, r["steps"], tol_exp)
        if dg >= target:
            return r["seconds"], dg, r["steps"], "1e-%d" % tol_exp, "measured"
        if r["seconds"] * 10 > budget:
            break
    s2, d2, n2, e2 = last
    return s2 * 10 ** ((target - d2) / 5), target, n2, "1e-%d" % e2, "extrapolated"


def numpy_gd(inst, lr, steps):
    W = np.array([[float(v) for v in row] for row in inst["V"]])
    a = np.array([float(x) for x in inst["a"]])
    beta = np.array([float(b) for b in inst["beta"]])

    def softmax(x):
        e = np.exp(x - np.max(x))
        return e / e.sum()

    t0 = time.perf_counter()
    for _ in range(steps):
        s = softmax(a)
        z = beta @ (W @ s)
        sig = 0.5 * (1 - math.tanh(z / 2))  # sigmoid(−z), what the authors' expit(−z) computes
        gW = -sig * np.outer(beta, s)
        v = -sig * (W.T @ beta)
        ga = s * v - s * np.dot(s, v)
        W -= lr * gW
        a -= lr * ga
    wall = time.perf_counter() - t0
    u = W.T @ beta
    return [repr(float(x)) for x in list(a) + list(u)], wall


def table1(args, inst, writer):
    sc, peer = os.path.join(args.build, "softcert"), os.path.join(args.build, "bench", "odeint_user_dopri5")
    for dps in ([30] if args.quick else [30, 60]):
        bits, tol, rbits, rtol = FAST_SETTINGS[dps]
        mp = mpmath_reduced(inst, [1, 10], dps)
        for t in (1, 10):
            ref, _ = softcert(sc, ["--t", str(t), "--form", "reduced", "--precision", str(rbits), "--stepper", "taylor",
                                   "--tolerance", rtol, "--no-check"])
            refv = ref["a"] + ref["u"]
            run, wall = softcert(sc, ["--t", str(t), "--form", "reduced", "--precision", str(bits), "--stepper", "taylor",
                                      "--tolerance", tol, "--no-check"])
            d_sc = digits(run["a"] + run["u"], refv)
            mp_vals, mp_s = mp[t]
            d_mp = digits(mp_vals, refv)
            target = min(d_mp, d_sc)
            ds, dd, dn, dtol, how = dopri5_at_digits(peer, t, dps, target, refv, args.dopri5_budget)
            writer.writerow({"digits": dps, "t": t, "softcert_bits": bits, "softcert_tol": tol,
                             "softcert_s": "%.4g" % run["seconds"], "softcert_process_s": "%.4g" % wall,
                             "softcert_steps": run["steps"], "softcert_digits": "%.1f" % d_sc,
                             "mpmath_s": "%.4g" % mp_s, "mpmath_digits": "%.1f" % d_mp,
                             "dopri5_s": "%.4g" % ds, "dopri5_digits": "%.1f" % dd, "dopri5_steps": dn,
                             "dopri5_tol": dtol, "dopri5_how": how,
                             "vs_mpmath": "%.0f" % (mp_s / run["seconds"]), "vs_dopri5": "%.0f" % (ds / run["seconds"])})
            print("table1: %d digits t=%d: softcert %.4g s (%.1f digits), mpmath %.4g s (%.1f), dopri5 %.4g s %s" %
                  (dps, t, run["seconds"], d_sc, mp_s, d_mp, ds, how), flush=True)


def table2(args, inst, writer):
    sc = os.path.join(args.build, "softcert")
    ref, _ = softcert(sc, ["--t", "1e5", "--form", "reduced", "--precision", "256", "--stepper", "taylor",
                           "--tolerance", "1e-47", "--no-check"])
    refv = ref["a"] + ref["u"]
    steps = 100000 if args.quick else 1000000
    gd_vals, gd_s = numpy_gd(inst, 0.1, steps)
    scale = 1000000 / steps
    gd_s *= scale
    d_gd = digits(gd_vals, refv) if scale == 1 else float("nan")
    rows = [("numpy GD, lr 0.1, 1e6 steps" + (" (1e5 steps ×10)" if scale != 1 else ""), gd_s, gd_s, d_gd, "", "")]
    rig, rig_wall = softcert(sc, ["--t", "1e5", "--tier", "rigorous", "--precision", "53"])
    rows.append(("softcert rigorous, 53 bits (τ-time)", rig_wall, rig_wall, digits(midpoints(rig["a"] + rig["u"]), refv),
                 "%.3g" % rig["widths"]["max"], rig["steps"]))
    for bits in (53, 128):
        run, wall = softcert(sc, ["--t", "1e5", "--form", "reduced", "--precision", str(bits), "--no-check"])
        rows.append(("softcert fast, %d bits (τ-time)" % bits, run["seconds"], wall, digits(run["a"] + run["u"], refv),
                     "", run["steps"]))
    for name, s, wall, dg, width, nsteps in rows:
        writer.writerow({"method": name, "seconds": "%.4g" % s, "process_s": "%.4g" % wall,
                         "digits": "%.1f" % dg if dg == dg else "", "width": width, "steps": nsteps,
                         "speedup_vs_gd": "%.1f" % (gd_s / wall)})
        print("table2: %s: %.4g s (process %.4g s), %.1f digits, speed-up vs GD %.1f×" % (name, s, wall, dg, gd_s / wall),
              flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "bench"))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", choices=["1", "2"])
    args = ap.parse_args()
    args.dopri5_budget = 10.0 if args.quick else 60.0
    os.makedirs(args.out, exist_ok=True)
    inst = load_instance()
    if args.only in (None, "1"):
        with open(os.path.join(args.out, "fast_vs_peers.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=["digits", "t", "softcert_bits", "softcert_tol", "softcert_s",
                                              "softcert_process_s", "softcert_steps", "softcert_digits", "mpmath_s",
                                              "mpmath_digits", "dopri5_s", "dopri5_digits", "dopri5_steps", "dopri5_tol",
                                              "dopri5_how", "vs_mpmath", "vs_dopri5"])
            w.writeheader()
            table1(args, inst, w)
    if args.only in (None, "2"):
        with open(os.path.join(args.out, "gd_vs_rigorous.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=["method", "seconds", "process_s", "digits", "width", "steps",
                                              "speedup_vs_gd"])
            w.writeheader()
            table2(args, inst, w)


if __name__ == "__main__":
    sys.exit(main())
