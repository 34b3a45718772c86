#!/usr/bin/python3
"""Side-by-side benchmark of softcert's fast tier against two peers, on the paper's headline
instance (proofs_checks/instances/varre2026-headline.json). Not part of ctest.

  1. t = 10 at 30 correct digits: `softcert integrate --form reduced --precision 128 --stepper bs`
     against mpmath.odefun (Debian python3-mpmath, Taylor method) at mp.dps = 30, on the same
     reduced logistic system (a, u) of THEORY.md §A.
  2. t = 1e5: `softcert integrate` (τ-time, reduced model, 128 bits) against the paper's own method,
     numpy gradient descent with learning rate 0.1 for 1e6 steps (the authors' notebook code).

Correct digits are measured against a softcert run at 256 bits (tolerance 1e-45), which itself is
checked against mpmath at t = 10. Times are wall-clock seconds of the whole process (softcert:
also its own integration time). Usage:
    bench/fast_tier_vs_mpmath.py [--softcert build/softcert] [--quick]
--quick skips GD's 1e6 steps (runs 1e5 steps and scales the time by 10).
"""
import argparse
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
INSTANCE = os.path.join(ROOT, "proofs_checks", "instances", "varre2026-headline.json")


def run_softcert(binary, args):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = f.name
    t0 = time.perf_counter()
    subprocess.run([binary, "integrate", INSTANCE, *args, "--no-check", "--json", out], check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    with open(out) as f:
        result = json.load(f)
    os.unlink(out)
    return result, wall


def digits(values, reference):
    """Correct digits: min over entries of −log10(|x − ref| / max(|ref|, 1e-30))."""
    worst = 100.0
    with mpmath.workdps(80):
        for x, r in zip(values, reference):
            x, r = mpmath.mpf(x), mpmath.mpf(r)
            if x != r:
                worst = min(worst, float(-mpmath.log10(abs(x - r) / max(abs(r), mpmath.mpf("1e-30")))))
    return worst


def mpmath_reduced(inst, t_end, dps):
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

    t0 = time.perf_counter()
    sol = mpmath.odefun(F, 0, a0 + u0)
    y = sol(t_end)
    wall = time.perf_counter() - t0
    return [mpmath.nstr(v, dps + 5) for v in y], wall


def numpy_gd_plain(inst, lr, steps):
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
        sig = 0.5 * (1 - math.tanh(z / 2))  # sigmoid(−z), what expit(−z) computes
        gW = -sig * np.outer(beta, s)
        v = -sig * (W.T @ beta)
        ga = s * v - s * np.dot(s, v)
        W -= lr * gW
        a -= lr * ga
    wall = time.perf_counter() - t0
    return W, a, wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--softcert", default=os.path.join(ROOT, "build", "softcert"))
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    with open(INSTANCE) as f:
        inst = json.load(f)
    T = inst["T"]
    rows = []

    # ---- 1. t = 10, 30 digits: softcert vs mpmath.odefun -------------------------------------
    ref10, _ = run_softcert(args.softcert, ["--t", "10", "--form", "reduced", "--precision", "256",
                                            "--stepper", "bs", "--tolerance", "1e-45"])
    sc10, sc10_wall = run_softcert(args.softcert, ["--t", "10", "--form", "reduced", "--precision", "128",
                                                   "--stepper", "bs", "--tolerance", "1e-33"])
    mp10, mp10_wall = mpmath_reduced(inst, 10, 30)
    ref_au = ref10["a"] + ref10["u"]
    d_sc = digits(sc10["a"] + sc10["u"], ref_au)
    d_mp = digits(mp10, ref_au)
    rows.append(("t = 10 (reduced, 30 digits)", "mpmath.odefun dps=30", mp10_wall, d_mp, sc10_wall,
                 sc10["seconds"], d_sc))

    # ---- 2. t = 1e5: softcert vs numpy GD (lr 0.1, 1e6 steps) ---------------------------------
    ref5, _ = run_softcert(args.softcert, ["--t", "1e5", "--form", "reduced", "--precision", "256",
                                           "--stepper", "bs", "--tolerance", "1e-45"])
    sc5, sc5_wall = run_softcert(args.softcert, ["--t", "1e5", "--form", "reduced", "--precision", "128",
                                                 "--stepper", "bs", "--tolerance", "1e-33"])
    steps = 100000 if args.quick else 1000000
    W, a, gd_wall = numpy_gd_plain(inst, 0.1, steps)
    if args.quick:
        gd_wall *= 10
    u = W.T @ np.array([float(b) for b in inst["beta"]])
    gd_vals = [repr(float(x)) for x in list(a) + list(u)]
    d_gd = digits(gd_vals, ref5["a"] + ref5["u"]) if not args.quick else float("nan")
    d_sc5 = digits(sc5["a"] + sc5["u"], ref5["a"] + ref5["u"])
    rows.append(("t = 1e5 (reduced, τ-time)", "numpy GD lr=0.1, 1e6 steps", gd_wall, d_gd, sc5_wall, sc5["seconds"],
                 d_sc5))

    print("Fast tier vs peers on varre2026-headline (wall seconds; digits = correct digits of a and u")
    print("against a 256-bit softcert run; softcert's 256-bit run agrees with mpmath to %.1f digits at t = 10)\n"
          % d_mp)
    print("%-30s %-28s %10s %7s %10s %10s %7s %9s" % ("case", "peer", "peer s", "digits", "softcert s",
                                                     "(integr.)", "digits", "speed-up"))
    for name, peer, pw, pd, sw, si, sd in rows:
        print("%-30s %-28s %10.3f %7.1f %10.3f %10.3f %7.1f %8.0fx" % (name, peer, pw, pd, sw, si, sd, pw / sw))
    print("\nspeed-up = peer wall time / softcert wall time (process start-up included).")
    if not args.quick:
        print("GD at t = 1e5 is off by %.2g in max |a_i| (O(lr) discretisation error of the paper's method)."
              % max(abs(float(x) - float(y)) for x, y in zip(gd_vals[:T], ref5["a"])))


if __name__ == "__main__":
    sys.exit(main())
