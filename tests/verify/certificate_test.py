#!/usr/bin/env python3
"""softcert-verify accepts a certificate softcert wrote and rejects mutated ones.

Usage: certificate_test.py SOURCE_DIR SOFTCERT SOFTCERT_VERIFY BROKEN_REMAINDER_CERTIFICATE

1. verify/ includes no header of src/ (only its own files and system/third-party headers).
2. `softcert check varre2026.order_preservation --instance headline.json --horizon 100
   --certificate DIR` writes one certificate, and softcert-verify DIR verifies it (exit 0); the
   same for entries into R_k (one_hot.eventual, massive_values, the attention-sink readings).
3. Each mutation below is rejected (exit 1) with a message naming the step and the inclusion
   that failed (or the header field, for the header's mutations).
4. Exact certificates: `softcert check sukenik2026.sink_alignment --instances 20 --certificate DIR`
   writes one per proved record, aligned and non-aligned instances among them; softcert-verify
   verifies them all and rejects each mutation of the exact family, naming what failed; the same
   for `sukenik2026.hard_switch.inputs` (a separator or a Gram certificate of κ > 0), and for
   `sukenik2026.hard_switch` (values), `sukenik2026.sink_representability` and
   `sukenik2026.oversmoothing` (both statements), among them a certificate of one instance
   presented for another; and the all-time orderings (the invariant-quadrant and region lemmas'
   conditions on the exact initial state).
5. A broken integrator: tests/verify/broken_remainder_certificate.cpp runs order preservation
   on the headline instance with the Lohner step's Taylor remainder dropped
   (integrate/fault_injection.hpp). That run still reports `proved`; softcert-verify must reject
   its certificate, naming the step and the inclusion that failed.
"""
import copy
import json
import os
import re
import subprocess
import sys
import tempfile
from fractions import Fraction


def exact_decimal(q):
    """The exact decimal of a dyadic rational."""
    q = Fraction(q)
    sign = "-" if q < 0 else ""
    q = abs(q)
    k = 0
    while (q * 10**k).denominator != 1:
        k += 1
        assert k < 2000, "not dyadic"
    digits = str((q * 10**k).numerator).rjust(k + 1, "0")
    return sign + (digits[:-k] + "." + digits[-k:] if k else digits)


def check_independent(src):
    verify_dir = os.path.join(src, "verify")
    own = set(os.listdir(verify_dir))
    bad = []
    for name in sorted(own):
        if not name.endswith((".cpp", ".hpp")):
            continue
        for line in open(os.path.join(verify_dir, name), encoding="utf-8"):
            m = re.match(r'\s*#\s*include\s*([<"])([^>"]+)[>"]', line)
            if not m:
                continue
            header = m.group(2)
            if m.group(1) == '"' and header not in own:
                bad.append(f"{name}: {line.strip()}")
            top = header.split("/")[0]
            if os.path.isdir(os.path.join(src, "src", top)) and "/" in header:
                bad.append(f"{name}: {line.strip()} (a header of src/)")
    assert not bad, "verify/ must include no header of src/:\n" + "\n".join(bad)


def run_verify(verifier, path):
    p = subprocess.run([verifier, path], capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout + p.stderr


def expect_rejections(verifier, tmp, family, cases, also=""):
    """Each case (base certificate lines, mutate) written mutated must be rejected by the verifier,
    naming what mutate returns (and `also`, when given); every failure is reported."""
    failures = []
    for base, mutate in cases:
        ls = copy.deepcopy(base)
        want = mutate(ls)
        path = os.path.join(tmp, family + "_" + mutate.__name__ + ".jsonl")
        with open(path, "w", encoding="utf-8") as f:
            f.write("".join(json.dumps(l, ensure_ascii=False) + "\n" for l in ls))
        code, out = run_verify(verifier, path)
        ok = code == 1 and "REJECTED" in out and want in out and also in out
        print(("ok   " if ok else "FAIL ") + family + " " + mutate.__name__ + ": " + out.splitlines()[0].split(": ", 1)[-1])
        if not ok:
            failures.append(f"{family} {mutate.__name__}: wanted a rejection naming {want!r}, got:\n{out}")
    assert not failures, "\n".join(failures)


def negate(v):
    return ["-" + x if not x.startswith("-") else x[1:] for x in v]


def main():
    src, softcert, verifier, broken = sys.argv[1:5]
    check_independent(src)
    tmp = tempfile.mkdtemp(prefix="softcert-cert-")
    cdir = os.path.join(tmp, "certificates")
    instance = os.path.join(src, "proofs_checks/instances/authors/headline.json")
    subprocess.run([softcert, "check", "varre2026.order_preservation", "--instance", instance, "--horizon", "100",
                    "--certificate", cdir, "--quiet"], check=True, timeout=600, stdout=subprocess.DEVNULL)
    files = sorted(f for f in os.listdir(cdir) if f.endswith(".jsonl"))
    assert len(files) == 1, f"expected one certificate, got {files}"
    original = os.path.join(cdir, files[0])
    code, out = run_verify(verifier, cdir)
    assert code == 0 and "1 verified, 0 rejected" in out, out
    print(out.strip())

    lines = [json.loads(l) for l in open(original, encoding="utf-8") if l.strip()]
    steps = len(lines) - 2
    m = steps // 2          # a middle step
    ml = 2 + m              # its line

    def shrink_box(ls):
        ls[ml]["box"] = [[lo, lo] for lo, _ in ls[ml]["box"]]
        return f"step {m}: (c) end box inclusion"

    def drop_last(ls):
        ls.pop()
        return f"step {steps - 2}: (d) the last box"

    def stretch(ls):
        t0, h = Fraction(ls[ml]["t0"]), Fraction(ls[ml]["h"]) * Fraction(3, 2)
        ls[ml]["h"], ls[ml]["t1"] = exact_decimal(h), exact_decimal(t0 + h)
        return f"step {m}: ("

    def lower_order(ls):
        ls[ml]["order"] = 6
        ls[ml]["jacobian_order"] = 6
        return f"step {m}: ("

    def change_coefficient(ls):
        c = ls[ml]["set"]["c"]
        c[0] = exact_decimal(Fraction(c[0]) + Fraction(1, 2**20))
        return f"step {m}: (c) Lohner inclusion"

    def other_instance(ls):
        inst = ls[0]["instance"]
        inst["beta"][0] = exact_decimal(Fraction(inst["beta"][0]) * Fraction(1025, 1024))
        return "(d) the start set does not contain the instance's initial state"

    def negative_margin(ls):
        ls[0]["margin"] = ["-0.001", "inf"]
        return "the margin"

    def reversed_pair(ls):
        i, j = ls[0]["claim"]["pairs"][0]
        ls[0]["claim"]["pairs"].append([j, i])
        return "step 0: (e) claim: u_i − u_j"

    mutations = [shrink_box, drop_last, stretch, lower_order, change_coefficient, other_instance, negative_margin,
                 reversed_pair]
    expect_rejections(verifier, tmp, "tube", [(lines, m) for m in mutations], also="0 verified, 1 rejected")
    check_broken_build(broken, verifier, instance, tmp)
    check_hostile_arguments(verifier, original, tmp)
    check_region_family(softcert, verifier, tmp)
    check_full_model_family(softcert, verifier, tmp)
    check_one_hot_finite_family(softcert, verifier, tmp)
    check_tied_family(softcert, verifier, tmp)
    check_rank_one_family(softcert, verifier, tmp)
    check_gd_family(softcert, verifier, tmp)
    check_reproduce_certificates(softcert, verifier, tmp)
    check_exact_family(softcert, verifier, tmp)


def check_hostile_arguments(verifier, certificate, tmp):
    """Arguments that name no certificate exit 2 naming them; inside a folder, a *.jsonl that is a
    symlink or a FIFO is rejected unread (a FIFO would block), the real certificate still verified."""
    folder = os.path.join(tmp, "hostile")
    os.makedirs(folder)
    real = os.path.join(folder, "real.jsonl")
    with open(certificate, encoding="utf-8") as src, open(real, "w", encoding="utf-8") as dst:
        dst.write(src.read())
    os.symlink(real, os.path.join(folder, "link.jsonl"))
    os.mkfifo(os.path.join(folder, "pipe.jsonl"))
    p = subprocess.run([verifier, folder], capture_output=True, text=True, timeout=60)
    assert p.returncode == 1 and "1 verified, 2 rejected" in p.stdout and p.stdout.count("not a regular file") == 2, p.stdout
    empty = os.path.join(tmp, "empty")
    os.makedirs(empty)
    for args, want in ((["/nonexistent/x.jsonl"], "no such file"), ([empty], "no certificate"),
                       ([os.path.join(folder, "pipe.jsonl")], "not a regular file"),
                       ([os.path.join(folder, "link.jsonl")], "not a regular file")):
        p = subprocess.run([verifier, *args], capture_output=True, text=True, timeout=60)
        assert p.returncode == 2 and want in p.stderr, (args, p.returncode, p.stdout, p.stderr)
    print("ok   hostile arguments: missing, empty folder, FIFO, symlink (exit 2); in a folder rejected unread")


def check_broken_build(broken, verifier, instance, tmp):
    path = os.path.join(tmp, "broken_remainder.jsonl")
    p = subprocess.run([broken, instance, "100", path], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.strip() == "proved", "the broken run should claim proved: " + p.stdout
    code, out = run_verify(verifier, path)
    first = out.splitlines()[0]
    ok = code == 1 and re.search(r"REJECTED .*: step \d+: \((a|b|c)\) ", first) is not None
    print(("ok   " if ok else "FAIL ") + "broken build (Taylor remainder dropped): " + first.split(": ", 1)[-1])
    assert ok, "the certificate of the remainder-free integrator must be rejected at a step's inclusion:\n" + out


def check_full_model_family(softcert, verifier, tmp):
    """The full value-softmax model in τ-time (normalization.polarizes, .spread, .open_gates under
    logistic loss): the verifier derives the field of the instance's normalization and the claim's
    tokens itself, so another normalization, claim, ε or horizon must fail."""
    certs = []
    for norm in ("softmax", "square"):
        certs += certificates_of(softcert, verifier, tmp, "varre2026.normalization.polarizes", 2, "--param", "loss=logistic",
                                 "--param", "normalization=" + norm, "--param", "T=[2,4]", "--horizon", "5e4")
    spread = certificates_of(softcert, verifier, tmp, "varre2026.normalization.spread", 2, "--param", "normalization=sigmoid",
                             "--param", "positive=[1,4]")
    gates = certificates_of(softcert, verifier, tmp, "varre2026.normalization.open_gates", 2, "--param", "normalization=sigmoid",
                            "--param", "positive=[1,4]")
    softmax = next(c for c in certs if c[0]["instance"]["normalization"] == "softmax")
    square = next(c for c in certs if c[0]["instance"]["normalization"] == "square")
    assert all(c[0]["model"] == "value_softmax_tau" and c[0]["claim"]["kind"] == "polarized_at_horizon" for c in certs)

    def other_normalization(ls):
        # the same steps read as x² instead of softmax: the verifier's own field must not fit them
        ls[0]["instance"]["normalization"] = "square"
        return ": (a) a priori inclusion fails"

    def square_read_as_sigmoid(ls):
        ls[0]["instance"]["normalization"] = "sigmoid"
        return "inclusion fails"

    def epsilon_too_small(ls):
        ls[0]["claim"]["epsilon"] = "1e-30"
        return "(e) claim: t = H may lie in this step"

    def later_horizon(ls):
        ls[0]["horizon"] = "1e9"
        return "(d) the last box has t"

    def shrink_middle_box(ls):
        m = (len(ls) - 2) // 2
        ls[2 + m]["box"] = [[lo, lo] for lo, _ in ls[2 + m]["box"]]
        return f"step {m}: (c) end box inclusion"

    def other_values(ls):
        row = ls[0]["instance"]["V"][0]
        row[0] = exact_decimal(Fraction(row[0]) + Fraction(1, 1000))
        return "(d) the start set does not contain the instance's initial state"

    def spread_read_as_polarized(ls):
        # the claim of another check on the same steps: the check's name fixes the claim
        ls[0]["claim"]["kind"] = "polarized_at_horizon"
        return "has no claim polarized_at_horizon"

    def spread_epsilon_too_large(ls):
        # 1 − ε below the largest share: the claim fails where t = H may be
        ls[0]["claim"]["epsilon"] = "0.99"
        return "(e) claim: t = H may lie in this step"

    def gates_all_closed(ls):
        # every column of V(0) set to −β*: every u_i(0) = −‖β*‖² < 0, no token for the claim
        inst = ls[0]["instance"]
        inst["V"] = [negate([b] * len(inst["a"])) for b in inst["beta"]]
        return "no token has a positive value projection"

    expect_rejections(verifier, tmp, "full_model", [(softmax, other_normalization), (square, square_read_as_sigmoid),
                                                    (softmax, epsilon_too_small), (square, later_horizon),
                                                    (softmax, shrink_middle_box), (square, other_values),
                                                    (spread[0], spread_read_as_polarized), (spread[0], spread_epsilon_too_large),
                                                    (gates[0], gates_all_closed)])


def check_one_hot_finite_family(softcert, verifier, tmp):
    """one_hot.finite (max_k σ_k(a(H)) ≥ 1 − ε) on the reduced model's τ-walk: the verifier reads
    σ over every step that may hold t = H, so a smaller ε, a later horizon, the steps presented
    under another check or as a full-model claim must fail."""
    certs = certificates_of(softcert, verifier, tmp, "varre2026.one_hot.finite", 2, "--horizon", "1e4")
    assert all(c[0]["model"] == "logistic_reduced_tau" and c[0]["claim"]["kind"] == "max_attention_at_horizon" for c in certs)

    def epsilon_too_small(ls):
        ls[0]["claim"]["epsilon"] = "1e-30"
        return "(e) claim: t = H may lie in this step, and there the max_attention_at_horizon margin"

    def later_horizon(ls):
        ls[0]["horizon"] = "1e9"
        return "(d) the last box has t"

    def other_check(ls):
        ls[0]["check"] = "varre2026.normalization.polarizes"
        return "has no claim max_attention_at_horizon"

    def full_model(ls):
        ls[0]["model"] = "value_softmax_tau"
        return "is stated on the logistic_reduced_tau model"

    expect_rejections(verifier, tmp, "one_hot_finite", [(certs[0], epsilon_too_small), (certs[0], later_horizon),
                                                        (certs[0], other_check), (certs[-1], full_model)])


def check_tied_family(softcert, verifier, tmp):
    """tied.attended_column_grows on the tied model's τ-walk: the verifier derives the tied field
    from the instance and, on every step that may hold t = H, reads α = softmax(U a) and the column
    U e_k itself, so another k, a later horizon, the steps read as the full model, another check, a
    shrunk box or a k that is not a token must fail. .monotone: the rate d/dτ ‖U e_k‖² on every
    step, so another k, the endpoint claim on the monotone check or a shrunk box must fail."""
    certs = certificates_of(softcert, verifier, tmp, "varre2026.tied.attended_column_grows", 1, "--param", "D=3",
                            "--tier", "rigorous", "--horizon", "500")
    assert all(c[0]["model"] == "tied_value_softmax_tau" and c[0]["claim"]["kind"] == "attended_column_at_horizon" for c in certs)
    D = len(certs[0][0]["instance"]["a"])

    def other_k(ls):
        # a column the attention does not pick at t = H
        ls[0]["claim"]["k"] = (ls[0]["claim"]["k"] + 1) % D
        return "(e) claim: t = H may lie in this step, and there α_k − α_j"

    def later_horizon(ls):
        ls[0]["horizon"] = exact_decimal(Fraction(ls[0]["horizon"]) * 100)
        return "(d) the last box has t"

    def full_model(ls):
        # the steps read as the full value-softmax model: the instance is not one
        ls[0]["model"] = "value_softmax_tau"
        return 'instance: "model" must be "value_softmax"'

    def other_check(ls):
        ls[0]["check"] = "varre2026.tied.attended_column_grows.monotone"
        return "has no claim attended_column_at_horizon"

    def shrink_middle_box(ls):
        m = (len(ls) - 2) // 2
        ls[2 + m]["box"] = [[lo, lo] for lo, _ in ls[2 + m]["box"]]
        return f"step {m}: (c) end box inclusion"

    def k_out_of_range(ls):
        ls[0]["claim"]["k"] = D
        return "is not a token"

    def k_not_an_integer(ls):
        ls[0]["claim"]["k"] = str(ls[0]["claim"]["k"])
        return "is not a token"

    expect_rejections(verifier, tmp, "tied", [(certs[0], m) for m in (other_k, later_horizon, full_model, other_check,
                                                                       shrink_middle_box, k_out_of_range, k_not_an_integer)])

    # .monotone: d/dτ ‖U e_k‖² > 0 on every step, re-derived from the tied field over each step's ranges
    mono = certificates_of(softcert, verifier, tmp, "varre2026.tied.attended_column_grows.monotone", 3, "--param", "D=3",
                           "--tier", "rigorous", "--horizon", "500")
    assert all(c[0]["claim"]["kind"] == "attended_column_monotone" for c in mono)

    def other_k_monotone(ls):
        # another column: its rate is not positive on some step, or it is not the argmax at t = H
        ls[0]["claim"]["k"] = (ls[0]["claim"]["k"] + 1) % D
        return "(e) claim:"

    def endpoint_claim_on_monotone_check(ls):
        ls[0]["claim"]["kind"] = "attended_column_at_horizon"
        return "has no claim attended_column_at_horizon"

    expect_rejections(verifier, tmp, "tied-monotone", [(mono[0], m) for m in (other_k_monotone, endpoint_claim_on_monotone_check,
                                                                               shrink_middle_box)])


def check_rank_one_family(softcert, verifier, tmp):
    """square_rank_one.partial_polarization: the verifier builds the τ-orbit from the instance only
    when V(0) is exactly rank one along β* and ρ(0) > 0, finds the steps where ρ may vanish itself
    and needs ρ < 0 at the end; a larger ε, a V off rank one, a start with ρ(0) < 0, a dropped
    last step or the instance read as logistic loss must fail."""
    certs = certificates_of(softcert, verifier, tmp, "varre2026.square_rank_one.partial_polarization", 3)
    assert all(c[0]["model"] == "rank_one_square_tau" and c[0]["claim"]["kind"] == "partial_polarization" for c in certs)

    def epsilon_too_large(ls):
        ls[0]["claim"]["epsilon"] = "0.99"
        return "(e) claim: rho may vanish in this step"

    def off_rank_one(ls):
        row = ls[0]["instance"]["V"][0]
        row[0] = exact_decimal(Fraction(row[0]) + Fraction(1, 10**12))
        return "V is not exactly rank one along beta"

    def rho_start_negative(ls):
        # V scaled so that uᵀσ(a(0))/c = mean(w0)·k > 1 (a(0) = 0): still rank one, ρ(0) < 0
        inst = ls[0]["instance"]
        beta = [Fraction(b) for b in inst["beta"]]
        c = sum(b * b for b in beta)
        T = len(inst["a"])
        mean_w = sum(Fraction(inst["V"][r][i]) * beta[r] for r in range(len(beta)) for i in range(T)) / c / T
        k = 1 if mean_w > 0 else -1  # a power of ten keeps the decimals exact
        while mean_w * k <= 1:
            k *= 10
        inst["V"] = [[exact_decimal(Fraction(x) * k) for x in row] for row in inst["V"]]
        return "rho(0) = 1 - u(0)ᵀσ(a(0))/c is not certainly positive"

    def drop_last(ls):
        del ls[-1]
        return "is not certainly negative: the steps need not reach tau*"

    def read_as_logistic(ls):
        ls[0]["model"] = "logistic_reduced_tau"
        return 'instance: "loss" must be "logistic"'

    expect_rejections(verifier, tmp, "rank_one", [(certs[0], epsilon_too_large), (certs[0], off_rank_one),
                                                  (certs[1], rho_start_negative), (certs[-1], drop_last),
                                                  (certs[0], read_as_logistic)])


def check_gd_family(softcert, verifier, tmp):
    """gd.order_preservation: the iterates' doubletons; the verifier derives the map from the
    instance and lr, so another lr, instance or count, a shrunk set or an unbacked margin fail."""
    certs = certificates_of(softcert, verifier, tmp, "varre2026.gd.order_preservation", 2, "--param", "iterations=200")
    assert all(c[0]["certificate"] == "softcert.gd.v1" and len(c) == 202 for c in certs)

    def shrink_middle_set(ls):
        ls[101]["set"]["r"] = [[lo, lo] for lo, _ in ls[101]["set"]["r"]]
        return "iterate 99: the image is not inside iterate 100's set"

    def other_lr(ls):
        ls[0]["lr"] = "0.2"
        return "iterate 0: the image is not inside iterate 1's set"

    def fewer_iterates(ls):
        del ls[-1]
        return "the certificate has 200 iterates, the header says 0 … 200"

    def other_start(ls):
        a = ls[0]["instance"]["a"]
        a[0] = exact_decimal(Fraction(a[0]) + Fraction(1, 1000))
        return "iterate 0: the set does not contain the instance's initial state"

    def unbacked_margin(ls):
        ls[0]["margin"] = ["-1e-9", "1e-9"]
        return "is not positive, so it does not back proved"

    expect_rejections(verifier, tmp, "gd", [(certs[0], shrink_middle_set), (certs[0], other_lr), (certs[1], fewer_iterates),
                                            (certs[1], other_start), (certs[0], unbacked_margin)])


def check_reproduce_certificates(softcert, verifier, tmp):
    """`reproduce varre2026-normalizations` leaves one certificate per proved pair whose check
    writes one (logistic loss with softmax, x², sigmoid), and softcert-verify verifies them all."""
    out = os.path.join(tmp, "reproduce-normalizations")
    p = subprocess.run([softcert, "reproduce", "varre2026-normalizations", "--out", out, "--jobs", "2"], timeout=600,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert p.returncode == 0, p.stderr
    with open(os.path.join(out, "numbers.json"), encoding="utf-8") as f:
        rows = json.load(f)["numbers"]["pairs"]
    want = sorted(f"certificate.{r['normalization']}.{r['loss']}.jsonl" for r in rows
                  if r["verdict"] == "proved" and r["loss"] == "logistic" and r["normalization"] in ("softmax", "square", "sigmoid"))
    have = sorted(f for f in os.listdir(out) if f.endswith(".jsonl"))
    assert want and have == want, (want, have)
    code, text = run_verify(verifier, out)
    assert code == 0 and f"{len(want)} verified, 0 rejected" in text, text
    print(f"reproduce varre2026-normalizations: {len(want)} certificates verified")


def check_region_family(softcert, verifier, tmp):
    """Entries into R_k (one_hot.eventual, massive_values, the attention-sink readings): the walk's
    steps up to the entry, or the header alone when the start is in R_k."""
    eventual = certificates_of(softcert, verifier, tmp, "varre2026.one_hot.eventual", 6)
    certificates_of(softcert, verifier, tmp, "varre2026.massive_values", 3)
    sink = certificates_of(softcert, verifier, tmp, "varre2026.attention_sink", 6)
    at_start = certificates_of(softcert, verifier, tmp, "varre2026.attention_sink.agreeing", 3)
    certificates_of(softcert, verifier, tmp, "varre2026.attention_sink.values_at_zero", 3)
    assert all(c[0]["claim"]["kind"] == "region_entry" for c in eventual + sink)
    assert all(len(c) == 1 and c[0]["claim"]["kind"] == "region_at_start" for c in at_start)
    T = lambda c: len(c[0]["instance"]["a"])

    def other_winner(ls):
        k = ls[0]["claim"]["winner"]
        ls[0]["claim"]["winner"] = (k + 1) % T(ls)
        return "(e) claim: at the step's end"

    def not_the_argmax(ls):
        # attention_sink names argmax u(0); another token's entry would not be that claim
        k = ls[0]["claim"]["winner"]
        ls[0]["claim"]["winner"] = (k + 1) % T(ls)
        return "needs the winner argmax u(0)"

    def shrink_entry_box(ls):
        ls[-1]["apriori"] = [[lo, lo] for lo, _ in ls[-1]["apriori"]]
        return "(a) a priori"

    def unknown_check(ls):
        ls[0]["check"] = "varre2026.order_preservation"
        return "has no region-entry claim"

    def start_outside(ls):
        k = ls[0]["claim"]["winner"]
        a = ls[0]["instance"]["a"]
        j = (k + 1) % len(a)
        a[j] = exact_decimal(Fraction(a[k]) + 1)
        return "needs the winner argmax a(0)"

    basin = certificates_of(softcert, verifier, tmp, "varre2026.one_hot.t2_basin", 6)

    def basin_other_winner(ls):
        # the other token: the sign of E − 1 names the recorded one, and the entry shows it
        ls[0]["claim"]["winner"] = 1 - ls[0]["claim"]["winner"]
        return "claim: "

    expect_rejections(verifier, tmp, "region", [(eventual[0], other_winner), (sink[0], not_the_argmax),
                                                (eventual[0], shrink_entry_box), (eventual[0], unknown_check),
                                                (at_start[0], start_outside), (basin[0], basin_other_winner)])


def check_exact_family(softcert, verifier, tmp):
    edir = os.path.join(tmp, "exact")
    subprocess.run([softcert, "check", "sukenik2026.sink_alignment", "--instances", "20", "--certificate", edir,
                    "--quiet"], check=True, timeout=600, stdout=subprocess.DEVNULL)
    files = sorted(os.path.join(edir, f) for f in os.listdir(edir) if f.endswith(".jsonl"))
    assert len(files) == 20, files
    code, out = run_verify(verifier, edir)
    assert code == 0 and "20 verified, 0 rejected" in out, out
    certs = [[json.loads(l) for l in open(f, encoding="utf-8") if l.strip()] for f in files]
    aligned = next(c for c in certs if "separator" in c[1]["queries"])
    apart = next(c for c in certs if "zero_combination" in c[1]["queries"])

    def queries_separator(ls):
        ls[1]["queries"]["separator"] = negate(ls[1]["queries"]["separator"])
        return "queries: u·x_0 is not > 0"

    def keys_separator(ls):
        ls[1]["sink_minus_keys"]["separator"] = negate(ls[1]["sink_minus_keys"]["separator"])
        return "keys: v·(x_0 − x_1) is not > 0"

    def margin_too_large(ls):
        ls[0]["margin"] = ["10", "11"]
        return "above every certified depth bound"

    def token_is_the_sink(ls):
        ls[0]["instance"]["tokens"][0] = ls[0]["instance"]["sink"]
        return "keys: v·(x_0 − x_1) is not > 0"

    def zero_combination(ls):
        lam = ls[1]["queries"]["zero_combination"]
        lam[0] = str(Fraction(lam[0]) + Fraction(1, 2))
        return "the zero combination is not a convex combination"

    def unknown_claim(ls):
        ls[0]["claim"]["kind"] = "representable"
        return "header: no exact claim"

    expect_rejections(verifier, tmp, "exact", [(aligned, queries_separator), (aligned, keys_separator),
                                               (aligned, margin_too_large), (aligned, token_is_the_sink),
                                               (apart, zero_combination), (apart, unknown_claim)])
    # the two other statements: the same evidence, other margins
    pairwise = certificates_of(softcert, verifier, tmp, "sukenik2026.sink_alignment", 20, "--param", "statement=pairwise-necessary")
    mean = certificates_of(softcert, verifier, tmp, "sukenik2026.sink_alignment", 20, "--param", "statement=mean-sufficient")

    def pairwise_margin(ls):
        ls[0]["margin"] = ["2", "3"]  # above any cosine of unit vectors and any depth
        return "above every certified depth bound"

    def mean_without_evidence(ls):
        del ls[1]["queries"]
        return "malformed"

    expect_rejections(verifier, tmp, "alignment", [(pairwise[0], pairwise_margin), (mean[0], mean_without_evidence)])
    check_switch_family(softcert, verifier, tmp)


def check_switch_family(softcert, verifier, tmp):
    sdir = os.path.join(tmp, "switch")
    subprocess.run([softcert, "check", "sukenik2026.hard_switch.inputs", "--instances", "12", "--certificate", sdir,
                    "--quiet"], check=True, timeout=600, stdout=subprocess.DEVNULL)
    files = sorted(os.path.join(sdir, f) for f in os.listdir(sdir) if f.endswith(".jsonl"))
    assert len(files) == 12, files
    code, out = run_verify(verifier, sdir)
    assert code == 0 and "12 verified, 0 rejected" in out, out
    certs = [[json.loads(l) for l in open(f, encoding="utf-8") if l.strip()] for f in files]
    separated = next(c for c in certs if "half_space" in c[1])
    gram = next(c for c in certs if "full_rank" in c[1])

    def separator_negated(ls):
        ls[1]["half_space"]["w"] = negate(ls[1]["half_space"]["w"])
        return "half-space: w·Px_1 is not > 0"

    def sigma_too_large(ls):
        ls[1]["full_rank"]["sigma_min_sq_lower"] = "1000000"
        return "full-rank: G − s²I is not positive semidefinite"

    def margin_too_large(ls):
        ls[0]["margin"] = ["10", "11"]
        return "above every certified depth bound"

    expect_rejections(verifier, tmp, "switch", [(separated, separator_negated), (gram, sigma_too_large),
                                                (separated, margin_too_large)])
    check_more_exact_families(softcert, verifier, tmp)


def certificates_of(softcert, verifier, tmp, check, count, *args, allow_none=False):
    """Runs `check` on `count` generated instances with --certificate; every certificate written
    must verify (and some must be written, unless allow_none). Returns them, parsed."""
    out_dir = os.path.join(tmp, check + "".join(a.replace("=", "-") for a in args))
    # exit 1 (some outcome not the default expectation) is fine here: only proved records matter
    p = subprocess.run([softcert, "check", check, "--instances", str(count), "--certificate", out_dir, "--quiet", *args],
                       timeout=600, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert p.returncode in (0, 1), p.stderr
    files = sorted(os.path.join(out_dir, f) for f in os.listdir(out_dir) if f.endswith(".jsonl")) if os.path.isdir(out_dir) else []
    assert files or allow_none, f"{check}: no certificate written"
    if not files:
        print(f"{' '.join([check, *args])}: no certificate written")
        return []
    code, out = run_verify(verifier, out_dir)
    assert code == 0 and f"{len(files)} verified, 0 rejected" in out, out
    print(f"{' '.join([check, *args])}: {len(files)} certificates verified")
    return [[json.loads(l) for l in open(f, encoding="utf-8") if l.strip()] for f in files]


def check_more_exact_families(softcert, verifier, tmp):
    values = certificates_of(softcert, verifier, tmp, "sukenik2026.hard_switch", 12)
    represented = certificates_of(softcert, verifier, tmp, "sukenik2026.sink_representability", 12)
    smooths = certificates_of(softcert, verifier, tmp, "sukenik2026.oversmoothing", 12)
    counter = certificates_of(softcert, verifier, tmp, "sukenik2026.oversmoothing", 12, "--drop", "smoothing-sign",
                              "--param", "statement=counteracts")
    separated = next(c for c in values if "half_space" in c[1])

    def values_separator_negated(ls):
        ls[1]["half_space"]["w"] = negate(ls[1]["half_space"]["w"])
        return "half-space: w·v_1 is not > 0"

    def queries_separator(ls):
        ls[1]["queries"]["separator"] = negate(ls[1]["queries"]["separator"])
        return "queries: u·x_1 is not > 0"

    def representability_margin(ls):
        ls[0]["margin"] = ["10", "11"]
        return "above every certified depth bound"

    def other_instance(ls):
        # the evidence of this instance under the header of another of the same sizes: the tokens negated
        ls[0]["instance"]["tokens"] = [negate(x) for x in ls[0]["instance"]["tokens"]]
        return "queries: u·x_1 is not > 0"

    def lambda_in_the_window(ls):
        # λ between −2/(2 − α) and 0: dense attention de-smooths, so the claim fails
        ls[0]["instance"]["lambda"] = "-0.5"
        ls[0]["instance"]["alpha"] = "1"
        return "the claim: ρ'(α) − ρ'(0)"

    def smoothing_margin(ls):
        ls[0]["margin"] = ["10", "11"]
        return "above the recomputed gain"

    def claim_swapped(ls):
        ls[0]["claim"]["kind"] = "counteracts"
        return "the claim: ρ'(0) − ρ'(α)"

    general = certificates_of(softcert, verifier, tmp, "sukenik2026.oversmoothing.general", 8)
    certificates_of(softcert, verifier, tmp, "sukenik2026.oversmoothing.general", 8, "--drop", "positive-scalar-map",
                    "--param", "statement=counteracts")

    def general_claim_swapped(ls):
        ls[0]["claim"]["kind"] = "counteracts"
        return "the claim: S(Y_0) − S(Y_α)"

    def general_margin(ls):
        ls[0]["margin"] = ["10", "11"]
        return "above the recomputed gain"

    expect_rejections(verifier, tmp, "general", [(general[0], general_claim_swapped), (general[0], general_margin)])
    co_ordered = certificates_of(softcert, verifier, tmp, "varre2026.order_preservation.all_time", 8)
    leader = certificates_of(softcert, verifier, tmp, "varre2026.repulsion.leader.all_time", 8)
    # The tube check's leader reading carries the same all-time certificate; with a(0) not uniform
    # it writes one only where the leader's a(0) is the largest and the margin is 0 (every file
    # written verifies).
    tube_leader = certificates_of(softcert, verifier, tmp, "varre2026.repulsion.leader", 3)
    certificates_of(softcert, verifier, tmp, "varre2026.repulsion.leader", 6, "--drop", "uniform-a0", allow_none=True)
    wide = next(c for c in co_ordered if len(c[0]["instance"]["a"]) >= 3)

    def u0(inst):
        beta = [Fraction(b) for b in inst["beta"]]
        return [sum(Fraction(row[j]) * b for row, b in zip(inst["V"], beta)) for j in range(len(inst["a"]))]

    def ordered_against(ls):
        # a(0) reordered against u(0): the largest a on the smallest u
        inst = ls[0]["instance"]
        u = u0(inst)
        lo, hi = u.index(min(u)), u.index(max(u))
        inst["a"][lo], inst["a"][hi] = exact_decimal(Fraction(max(map(Fraction, inst["a"]))) + 1), exact_decimal(Fraction(min(map(Fraction, inst["a"]))) - 1)
        return "not co-ordered, Lemma 3 does not apply"

    def gap_margin(ls):
        ls[0]["margin"] = ["10", "inf"]
        return "above the smallest u-gap at t = 0"

    def leader_behind(ls):
        inst = ls[0]["instance"]
        u = u0(inst)
        k = u.index(max(u))
        inst["a"][(k + 1) % len(u)] = exact_decimal(Fraction(inst["a"][k]) + 1)
        return "Lemma 1 does not apply"

    def strict_leader_margin(ls):
        ls[0]["margin"] = ["0.001", "0.001"]
        return "is above 0"

    relu = certificates_of(softcert, verifier, tmp, "varre2026.elementwise_relu.no_polarization", 6)

    def one_survivor(ls):
        # every score but the first made negative: only one token can survive, the limit is one-hot
        a = ls[0]["instance"]["a"]
        for j in range(1, len(a)):
            a[j] = "-1"
        return "token(s) survive, so the limit is one-hot or absent"

    def relu_margin(ls):
        ls[0]["margin"] = ["0.99", "1"]
        return "is above 1 − max p∞"

    expect_rejections(verifier, tmp, "relu", [(relu[0], one_survivor), (relu[0], relu_margin)])
    expect_rejections(verifier, tmp, "all_time", [(wide, ordered_against), (wide, gap_margin),
                                                  (leader[0], leader_behind), (leader[0], strict_leader_margin),
                                                  (tube_leader[0], leader_behind)])
    expect_rejections(verifier, tmp, "values", [(separated, values_separator_negated)])
    expect_rejections(verifier, tmp, "representability", [(represented[0], queries_separator),
                                                           (represented[0], representability_margin),
                                                           (represented[0], other_instance)])
    expect_rejections(verifier, tmp, "oversmoothing", [(smooths[0], lambda_in_the_window), (smooths[0], smoothing_margin),
                                                       (smooths[0], claim_swapped), (counter[0], smoothing_margin)])
    check_cost_scaling_family(softcert, verifier, tmp)


def check_cost_scaling_family(softcert, verifier, tmp):
    """sukenik2026.cost_scaling on orthonormal embeddings: the sink's factors, the diagonal's
    multipliers and μ ≥ ‖Z‖₂ for every T, re-checked exactly; each broken piece is named."""
    cost = certificates_of(softcert, verifier, tmp, "sukenik2026.cost_scaling", 2, "--param", "embedding=orthonormal")

    def mu_halved(ls):
        d = ls[1]["cases"][-1]["diagonal"]
        d["mu"] = exact_decimal(Fraction(d["mu"]) / 2)
        return "diagonal: μ²I − ZZᵀ is not shown positive definite"

    def multiplier_negative(ls):
        y = ls[1]["cases"][0]["diagonal"]["y"]
        y[0] = negate([y[0]])[0]
        return "diagonal: a multiplier is negative"

    def sink_rows_equal(ls):
        b = ls[1]["cases"][0]["sink"]["B"]
        b[0] = list(b[1])
        return "sink: the factors' least margin A_t·(B_0 − B_s) is not positive"

    def other_t(ls):
        ls[1]["cases"][1]["T"] = ls[1]["cases"][0]["T"]
        return "the evidence is for another T"

    def case_dropped(ls):
        ls[1]["cases"].pop()
        return "not one case for each of the instance's cases"

    def not_orthonormal(ls):
        ls[0]["instance"]["embedding"] = "gaussian"
        return "not orthonormal"

    def margin_too_large(ls):
        ls[0]["margin"] = ["0.33", "0.34"]  # the record's is 0.3195 (T = 2)
        return "above every certified depth bound"

    expect_rejections(verifier, tmp, "cost_scaling", [(cost[0], m) for m in (mu_halved, multiplier_negative, sink_rows_equal,
                                                                             other_t, case_dropped, not_orthonormal,
                                                                             margin_too_large)])

if __name__ == "__main__":
    main()
