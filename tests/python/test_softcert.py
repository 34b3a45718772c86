"""Tests of the Python module `softcert` (docs/python.md), run by CTest (python_module_pytest)
with PYTHONPATH at build/python, SOFTCERT_BINARY the CLI and SOFTCERT_SOURCE_DIR the sources.

What they pin down: numpy arrays enter exactly (a double is its exact decimal expansion), the
instance survives JSON both ways, the same instance gives the CLI's numbers (fast and rigorous
`softcert integrate --json`) and the CLI's check records (`softcert check --json`) apart from
timings, bad arrays raise ValueError naming the field, long runs release the GIL and Ctrl-C
ends in a clean KeyboardInterrupt, and the docs example runs as written.
"""
import decimal
import fractions
import json
import os
import re
import struct
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import softcert

SOURCE_DIR = os.environ.get("SOFTCERT_SOURCE_DIR",
                            os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..")))
BINARY = os.environ.get("SOFTCERT_BINARY", os.path.join(SOURCE_DIR, "build", "softcert"))
HEADLINE = os.path.join(SOURCE_DIR, "proofs_checks", "instances", "authors", "headline.json")
TIMING = {"seconds"}


def python_exact(x):
    """scripts/make_authors_instances.py's writer: the exact decimal of a double, '0' for +-0."""
    return "0" if x == 0.0 else format(decimal.Decimal(float(x)), "f")


def numpy_headline():
    """The authors' headline draws (notebook cell 3, seed 123), as in scripts/make_authors_instances.py."""
    np.random.seed(123)
    W = 0.1 * np.random.randn(8, 8)
    a = 0 * np.random.randn(8)
    beta = np.random.randn(8)
    beta /= np.linalg.norm(beta)
    return W, a, beta


def headline_json():
    with open(HEADLINE) as f:
        return json.load(f)


def child_env():
    """The environment for a child Python: the directory holding this package first on PYTHONPATH."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(os.path.dirname(os.path.abspath(softcert.__file__)))] +
                                        ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    return env


def cli(*args):
    return subprocess.run([BINARY, *args], capture_output=True, text=True, check=False)


def cli_json(tmp_path, *args):
    out = tmp_path / "out.json"
    r = cli(*args, "--json", str(out))
    assert r.returncode in (0, 1), r.stderr
    return out.read_text()


def without(d, keys):
    return {k: v for k, v in d.items() if k not in keys}


def fast_without_timing(j):
    j = without(j, TIMING)
    if "reference" in j:
        j["reference"] = without(j["reference"], TIMING)
    return j


# --- numbers in, exactly ---------------------------------------------------------------------

def test_exact_decimal_is_the_exact_value_of_the_double():
    rng = np.random.default_rng(7)
    bits = rng.integers(0, 2**64, size=2000, dtype=np.uint64)
    specials = [0.1, -0.1, 1.0, -2.5, 1e300, -1e-300, 5e-324, 2.2250738585072014e-308,
                2.0**70, 123456789.0, 0.0, -0.0, 1.7976931348623157e308]
    values = specials + [struct.unpack("<d", struct.pack("<Q", int(b)))[0] for b in bits]
    for x in values:
        if not np.isfinite(x):
            continue
        s = softcert.exact_decimal(x)
        assert s == python_exact(x), x
        assert fractions.Fraction(decimal.Decimal(s)) == fractions.Fraction(x)


def test_point_one_survives_as_its_exact_value():
    inst = softcert.Instance(V=np.array([[0.1, 0.2]]), a=np.array([0.0, 0.0]), beta=np.array([1.0]))
    assert inst.decimals("V")[0][0] == "0.1000000000000000055511151231257827021181583404541015625"
    assert decimal.Decimal(inst.decimals("V")[0][1]) == decimal.Decimal(0.2)
    back = softcert.Instance.from_json(inst.to_json())
    assert back.decimals("V") == inst.decimals("V")
    assert back.V[0, 0] == 0.1 and back.V[0, 1] == 0.2
    assert inst.T == 2 and inst.d == 1 and inst.provenance == "python"


def test_numpy_headline_is_the_authors_instance_file():
    W, a, beta = numpy_headline()
    inst = softcert.Instance(V=W, a=a, beta=beta, loss="logistic", normalization="softmax")
    f = headline_json()
    j = json.loads(inst.to_json())
    assert j["V"] == f["V"] and j["a"] == f["a"] and j["beta"] == f["beta"]
    assert (j["T"], j["d"], j["loss"], j["normalization"]) == (8, 8, "logistic", "softmax")
    assert np.array_equal(inst.V, W) and np.array_equal(inst.beta, beta)


def test_round_trip_numpy_instance_json_instance():
    W, a, beta = numpy_headline()
    inst = softcert.Instance(V=W, a=a, beta=beta, provenance="test", id="rt", seed=123)
    text = inst.to_json()
    back = softcert.Instance.from_json(text)
    assert back == inst
    for field in ("V", "a", "beta"):
        assert back.decimals(field) == inst.decimals(field)
    assert back.to_json() == text
    assert softcert.Instance.from_json(json.loads(text)) == inst  # a dict too
    assert (back.id, back.seed, back.provenance) == ("rt", 123, "test")


def test_instance_file_round_trips_unchanged():
    inst = softcert.Instance.load(HEADLINE)
    assert json.loads(inst.to_json()) == headline_json()
    assert softcert.Instance.from_json(open(HEADLINE).read()) == inst


def test_decimal_strings_are_taken_as_given():
    inst = softcert.Instance(V=[["1e-3", "0.1"], ["-2", "3.50"]], a=["0", "0"], beta=["1", "0"])
    assert inst.decimals("V") == [["1e-3", "0.1"], ["-2", "3.50"]]
    assert inst.V[0, 1] == 0.1
    mixed = softcert.Instance(V=[[0.1, "0.1"]], a=[0, 1], beta=[2.0])
    assert mixed.decimals("V")[0] == [python_exact(0.1), "0.1"]
    assert mixed.decimals("a") == ["0", "1"] and mixed.decimals("beta") == ["2"]


def test_other_losses_take_their_fields():
    X = np.array([[1.0, 0.5], [0.25, -1.0], [0.0, 2.0]])
    inst = softcert.Instance(V=np.eye(2), a=np.ones(2), X=X, y=np.array([1.0, -1.0, 1.0]), loss="logistic_dataset",
                             normalization="sum")
    assert inst.loss == "logistic_dataset" and np.array_equal(inst.X, X) and inst.beta is None
    ce = softcert.Instance(V=np.eye(3), a=np.zeros(3), p=np.array([0.5, 0.25, 0.25]), loss="cross_entropy")
    assert ce.decimals("p") == ["0.5", "0.25", "0.25"]


# --- bad input: ValueError naming the field ---------------------------------------------------

def headline_arrays():
    W, a, beta = numpy_headline()
    return dict(V=W, a=a, beta=beta)


@pytest.mark.parametrize("change, field", [
    (lambda k: k["V"].__setitem__((2, 3), np.nan), r"V\[2\]\[3\]: not a decimal number: \"nan\""),
    (lambda k: k["beta"].__setitem__(5, np.inf), r"beta\[5\]: not a decimal number: \"inf\""),
    (lambda k: k.__setitem__("a", k["a"][:7]), r"a: expected 8 entries, got 7"),
    (lambda k: k.__setitem__("beta", np.zeros(9)), r"beta: expected 8 entries, got 9"),
    (lambda k: k.__setitem__("V", k["V"][:, 0]), r"V: expected a 2-dimensional array, got shape \(8,\)"),
    (lambda k: k.__setitem__("a", k["a"].reshape(2, 4)), r"a: expected a 1-dimensional array, got shape \(2, 4\)"),
    (lambda k: k.__setitem__("V", k["V"].astype(np.float32)), r"V: dtype float32 not accepted"),
    (lambda k: k.__setitem__("beta", k["beta"].astype(complex)), r"beta: dtype complex128 not accepted"),
    (lambda k: k.__setitem__("a", np.zeros(8, dtype=bool)), r"a: dtype bool not accepted"),
    (lambda k: k.__setitem__("a", [0.0, None] + [0.0] * 6), r"a\[1\]: expected a float64, an integer or a decimal string, got NoneType"),
    (lambda k: k.__setitem__("a", [0.0, np.float32(1)] + [0.0] * 6), r"a\[1\]: expected a float64, an integer or a decimal string, got numpy.float32"),
    (lambda k: k.__setitem__("V", [list(r) for r in k["V"][:, :]][:7] + [[0.0] * 7]), r"V\[7\]: expected 8 entries, got 7"),
    (lambda k: k.__setitem__("beta", np.zeros(8)), r"beta: must not be the zero vector"),
    (lambda k: k.__setitem__("beta", ["0.1", "x"] + ["0"] * 6), r"beta\[1\]: not a decimal number: \"x\""),
    (lambda k: k.__setitem__("V", "0.1"), r"V: expected an array, got a string"),
    (lambda k: k.__setitem__("V", np.zeros((0, 3))), r"V: expected at least one row"),
    (lambda k: k.__setitem__("loss", "hinge"), r"loss: unknown loss \"hinge\""),
    (lambda k: k.__setitem__("normalization", "max"), r"normalization: unknown normalization \"max\""),
    # a(0) = 0 under x^2: the weights f(a)/sum f(a_j) are 0/0 at the start
    (lambda k: k.__setitem__("normalization", "square"), r"a: normalization \"square\" divides by sum_j a_j\(0\)\^2 = 0"),
    (lambda k: k.pop("beta"), r"beta: missing field"),
])
def test_bad_arrays_raise_value_error_naming_the_field(change, field):
    kw = headline_arrays()
    change(kw)
    with pytest.raises(ValueError, match="^" + field):
        softcert.Instance(**kw)


def test_bad_json_raises_value_error():
    with pytest.raises(ValueError, match="^instance: not valid JSON"):
        softcert.Instance.from_json("{")
    j = headline_json()
    j["V"][0][0] = 0.5  # a number, not a decimal string, as in a file
    with pytest.raises(ValueError, match=r"^V\[0\]\[0\]: expected a decimal string, got number"):
        softcert.Instance.from_json(j)


def test_bad_arguments_raise_value_error():
    inst = softcert.Instance.load(HEADLINE)
    with pytest.raises(ValueError, match="^t: the horizon must be positive"):
        softcert.integrate(inst, -1)
    with pytest.raises(ValueError, match="^t: not a decimal number"):
        softcert.integrate(inst, "ten")
    with pytest.raises(ValueError, match="^tier: "):
        softcert.integrate(inst, 1, tier="exact")
    with pytest.raises(ValueError, match="^precision: "):
        softcert.integrate(inst, 1, precision=24)
    with pytest.raises(ValueError, match="^times: "):
        softcert.trajectory(inst, [], tier="rigorous")
    with pytest.raises(ValueError, match="^horizon: must be a positive finite number"):
        softcert.check("varre2026.order_preservation", inst, horizon=float("inf"))
    with pytest.raises(ValueError, match="no check named 'nope'"):
        softcert.check("nope", inst)
    with pytest.raises(ValueError, match="^precision: the rigorous tier takes at most 4096 bits"):
        softcert.integrate(inst, 1, tier="rigorous", precision=8192)
    square = softcert.Instance(V=inst.V, a=inst.a, beta=inst.beta, loss="square")
    with pytest.raises(ValueError, match="^time: "):
        softcert.integrate(square, 1, tier="rigorous", time="tau")  # τ-time needs the logistic loss
    with pytest.raises(ValueError, match=r"^times\[2\]: times must be strictly increasing"):
        softcert.trajectory(square, [1, 2, 2], tier="rigorous")


def test_rigorous_integrate_of_another_model_equals_the_cli(tmp_path):
    j = headline_json()
    j["loss"] = "square"  # the full-state rigorous tier (not the reduced logistic form)
    path = tmp_path / "square.json"
    path.write_text(json.dumps(j))
    expected = json.loads(cli_json(tmp_path, "integrate", str(path), "--t", "0.5", "--tier", "rigorous"))
    r = softcert.integrate(softcert.Instance.from_json(j), 0.5, tier="rigorous")
    assert without(r.json, TIMING) == without(expected, TIMING)
    assert np.all(r.lower["softmax"] <= r.upper["softmax"])


def test_rigorous_relu_stopped_at_its_kink_raises_kink_possible_with_the_cli_report():
    # The instance of tests/integrate/kink_report_test.cpp: the second score reaches relu's kink at
    # t ≈ 0.0261166 (300-bit fast tier); the rigorous tier certifies no kink before it stops.
    inst = softcert.Instance(V=[["0.5", "-3"]], a=["1", "0.05"], beta=["1"], loss="square", normalization="relu")
    with pytest.raises(softcert.KinkPossible) as caught:
        softcert.integrate(inst, 10, tier="rigorous")
    e = caught.value
    assert isinstance(e, softcert.RigorousFailure)
    assert str(e).startswith("kink possible at t ∈ [")
    assert e.info["normalization"] == "relu"
    assert e.info["nearest_score"] == 1
    assert 0.026 < float(e.info["kink_free_until"]) < 0.0262
    assert e.info["stopped_at"][0] == e.info["kink_free_until"]


# --- the CLI's numbers ------------------------------------------------------------------------

def test_fast_integrate_equals_the_cli(tmp_path):
    inst = softcert.Instance.load(HEADLINE)
    expected = json.loads(cli_json(tmp_path, "integrate", HEADLINE, "--t", "10"))
    r = softcert.integrate(inst, 10, tier="fast")
    assert fast_without_timing(r.json) == fast_without_timing(expected)
    assert r.t == "10" and r.steps == expected["steps"] and r.digits == expected["digits_of_agreement"]
    assert r.decimals["softmax"] == expected["softmax"]
    assert list(r.state["softmax"]) == [float(s) for s in expected["softmax"]]
    assert r.state["V"].shape == (8, 8) and r.digits > 10


def test_fast_integrate_from_numpy_equals_the_cli_on_the_file(tmp_path):
    W, a, beta = numpy_headline()
    inst = softcert.Instance(V=W, a=a, beta=beta)
    expected = json.loads(cli_json(tmp_path, "integrate", HEADLINE, "--t", "10", "--precision", "64"))
    r = softcert.integrate(inst, "10", tier="fast", precision=64)
    assert fast_without_timing(r.json) == fast_without_timing(expected)


def test_rigorous_integrate_equals_the_cli(tmp_path):
    inst = softcert.Instance.load(HEADLINE)
    expected = json.loads(cli_json(tmp_path, "integrate", HEADLINE, "--t", "10", "--tier", "rigorous"))
    r = softcert.integrate(inst, 10, tier="rigorous")
    assert without(r.json, TIMING) == without(expected, TIMING)
    assert r.decimals["softmax"] == expected["softmax"] and r.steps == expected["steps"]
    # At 53 bits the doubles are the enclosure's ends themselves, and the decimals those ends
    # written outward (within one unit of their 17th digit).
    for field in ("a", "u", "softmax"):
        for k, (lo, hi) in enumerate(expected[field]):
            L, H = fractions.Fraction(r.lower[field][k]), fractions.Fraction(r.upper[field][k])
            dlo, dhi = fractions.Fraction(decimal.Decimal(lo)), fractions.Fraction(decimal.Decimal(hi))
            assert dlo <= L <= H <= dhi
            assert L - dlo <= abs(L) * fractions.Fraction(1, 10**16) and dhi - H <= abs(H) * fractions.Fraction(1, 10**16)
            assert r.upper[field][k] - r.lower[field][k] < 1e-12
    assert r.lower["V"].shape == (8, 8) and r.lower["loss"] <= r.upper["loss"]


def test_rigorous_intervals_for_mpmath():
    mpmath = pytest.importorskip("mpmath")
    inst = softcert.Instance.load(HEADLINE)
    r = softcert.integrate(inst, 1, tier="rigorous", precision=80)
    iv = r.intervals("softmax")
    assert len(iv) == 8

    def exact(t):  # mpmath's raw (sign, mantissa, exponent, bits) as a fraction
        v = fractions.Fraction(t[1]) * fractions.Fraction(2) ** t[2]
        return -v if t[0] else v

    for k, (lo, hi) in enumerate(r.decimals["softmax"]):
        a, b = iv[k]._mpi_
        assert exact(a) <= fractions.Fraction(decimal.Decimal(lo)) and exact(b) >= fractions.Fraction(decimal.Decimal(hi))
        assert float(exact(b) - exact(a)) < 1e-15
    assert mpmath.iv.prec == 53  # restored


def overlaps(p, q):
    return fractions.Fraction(decimal.Decimal(p[0])) <= fractions.Fraction(decimal.Decimal(q[1])) and \
        fractions.Fraction(decimal.Decimal(q[0])) <= fractions.Fraction(decimal.Decimal(p[1]))


def test_rigorous_trajectory_is_one_pass_and_agrees_with_integrate(tmp_path):
    inst = softcert.Instance.load(HEADLINE)
    tr = softcert.trajectory(inst, [0, 0.5, 2, "10"], tier="rigorous")
    assert tr.t == ["0", "0.5", "2", "10"] and list(tr.times) == [0, 0.5, 2, 10]
    assert tr.lower["softmax"].shape == (4, 8) and tr.upper["V"].shape == (4, 8, 8) and tr.lower["loss"].shape == (4,)
    assert np.all(tr.lower["softmax"] <= tr.upper["softmax"])
    assert np.all(tr.lower["softmax"][0] == 0.125) and np.all(tr.upper["softmax"][0] == 0.125)  # a(0) = 0
    assert tr.steps[0] == 0 and tr.steps[1] <= tr.steps[2] <= tr.steps[3]
    at10 = json.loads(cli_json(tmp_path, "integrate", HEADLINE, "--t", "10", "--tier", "rigorous"))
    for field in ("a", "u", "softmax"):
        for p, q in zip(tr.results[-1].decimals[field], at10[field]):
            assert overlaps(p, q)


def test_fast_trajectory_is_one_pass_agreeing_with_the_cli(tmp_path):
    inst = softcert.Instance.load(HEADLINE)
    tr = softcert.trajectory(inst, np.array([1.0, 10.0]), tier="fast", reference=True)
    assert tr.state["softmax"].shape == (2, 8) and len(tr.digits) == 2 and min(tr.digits) > 8
    assert tr.steps[0] < tr.steps[1]  # one run: the step count is cumulative
    # The CLI runs to t = 10 alone (another step sequence): the same state to the stepper's accuracy.
    expected = json.loads(cli_json(tmp_path, "integrate", HEADLINE, "--t", "10", "--time", "t"))
    assert np.allclose(tr.state["softmax"][1], [float(s) for s in expected["softmax"]], rtol=0, atol=1e-10)
    assert np.allclose(tr.state["a"][1], [float(s) for s in expected["a"]], rtol=0, atol=1e-9)
    assert softcert.trajectory(inst, [1, 10], tier="fast").digits is None  # no reference run unless asked


def test_trajectory_refuses_too_many_times_before_computing():
    # 10^5 times of the headline took 3.2 GB before the refusal existed; now refused at once
    import resource
    inst = softcert.Instance.load(HEADLINE)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for tier in ("fast", "rigorous"):
        with pytest.raises(ValueError, match="at most 10000 times in one trajectory, got 100000"):
            softcert.trajectory(inst, np.linspace(1.0, 10.0, 100000), tier=tier)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200 * 1024  # KiB: no GBs
    assert softcert.trajectory(inst, np.linspace(1.0, 2.0, 1000), tier="fast").state["a"].shape == (1000, 8)


# --- the CLI's check records --------------------------------------------------------------------

def cli_record(tmp_path, name, *args):
    text = cli_json(tmp_path, "check", name, "--instance", HEADLINE, "-q", *args)
    lines = text.splitlines()
    assert len(lines) == 1
    return json.loads(lines[0])


@pytest.mark.parametrize("name, args, kwargs", [
    ("varre2026.order_preservation", ("--horizon", "10"), dict(horizon=10)),
    ("varre2026.one_hot.finite", ("--horizon", "10"), dict(horizon=10.0)),  # violated: carries the counterexample
    ("varre2026.one_hot.finite", ("--horizon", "10", "--param", "eps=0.9"), dict(horizon=10, params={"eps": 0.9})),
])
def test_check_record_equals_the_cli(tmp_path, name, args, kwargs):
    expected = cli_record(tmp_path, name, *args)
    # From the same file: the very same record apart from the timing.
    by_path = softcert.check(name, HEADLINE, **kwargs)
    assert without(by_path, TIMING) == without(expected, TIMING)
    # From an Instance in memory: also the same, but for how the instance is named.
    inst = softcert.Instance.load(HEADLINE)
    rec = softcert.check(name, inst, **kwargs)
    assert rec["instance"] == "authors-headline" and "instance_file" not in rec
    # ("run": the run identity names instance files by content hash; an in-memory instance has none)
    named = {"instance", "instance_file", "run"}
    assert without(rec, TIMING | named) == without(expected, TIMING | named)
    assert isinstance(rec["seconds"], float)


def test_checks_lists_every_registered_check():
    listed = softcert.checks()
    # the CLI's list: every check but the claims other tests registered from Python (softcert.Check)
    names = [c["name"] for c in listed if not c["paper"].startswith("ours: a claim stated in Python")]
    assert names == sorted(names) and "varre2026.order_preservation" in names
    out = cli("list", "--verbose").stdout  # one unindented name line per check, then its fields
    assert names == [line for line in out.splitlines() if line and not line.startswith(" ")]
    for c in listed:
        assert c["paper"] and c["statement"] and isinstance(c["hypotheses"], list)


# --- the GIL and Ctrl-C -----------------------------------------------------------------------

def test_long_runs_release_the_gil():
    inst = softcert.Instance.load(HEADLINE)
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.005)

    t = threading.Thread(target=tick)
    t.start()
    start = time.monotonic()
    softcert.check("varre2026.order_preservation", inst, horizon=100000)  # ~0.5 s
    elapsed = time.monotonic() - start
    done.set()
    t.join()
    # The ticker kept running while the check ran (holding the GIL would have stopped it).
    assert elapsed > 0.2 and len(ticks) > 0.3 * elapsed / 0.005


def test_ctrl_c_raises_keyboard_interrupt_cleanly():
    # The interrupt must reach the engine while it runs: run_interruptible
    # (python/softcert_module.cpp) waits for its worker thread with the GIL released and checks
    # for signals every 50 ms. A SIGINT that lands while the main thread still runs Python code
    # (before the call, or after it) raises KeyboardInterrupt there and the engine never sees it
    # — the timing a fixed timer relied on. So the signal is sent only once the engine's worker
    # thread exists (a new entry in /proc/self/task); from then on the main thread runs no
    # Python code before its first check. The work (11 integrations up to t = 1000 at 113 bits)
    # takes seconds, so the engine is still running then; should it ever have finished first,
    # the attempt is repeated (the engine must report the interrupt within three attempts).
    script = textwrap.dedent(f"""
        import os, signal, sys, threading, time, softcert
        inst = softcert.Instance.load({HEADLINE!r})

        class Tee:  # the engine's message goes through sys.stderr (PySys_WriteStderr)
            def __init__(self, inner):
                self.inner, self.text = inner, ""
            def write(self, s):
                self.text += s
                return self.inner.write(s)
            def flush(self):
                self.inner.flush()
        tee = Tee(sys.stderr)
        sys.stderr = tee

        def interrupt_once_the_engine_runs(before, done):
            me = str(threading.get_native_id())
            while not done.is_set():
                if set(os.listdir("/proc/self/task")) - before - {{me}}:  # the engine's worker
                    os.kill(os.getpid(), signal.SIGINT)
                    return
                time.sleep(0.001)

        for attempt in range(3):
            done = threading.Event()
            before = set(os.listdir("/proc/self/task"))  # main and any older threads
            sender = threading.Thread(target=interrupt_once_the_engine_runs, args=(before, done), daemon=True)
            sender.start()
            seen = len(tee.text)
            start = time.monotonic()
            try:
                softcert.trajectory(inst, [0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000], tier="fast", precision=113)
                print("finished")
                time.sleep(1)  # a signal sent as the run ended lands here
            except KeyboardInterrupt:
                print("interrupted after", round(time.monotonic() - start, 1), "s")
            done.set()
            sender.join()
            if "softcert: interrupted" in tee.text[seen:]:
                print("engine reported the interrupt on attempt", attempt + 1)
                break
        print("alive", softcert.integrate(inst, 1).steps > 0)
    """)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=900,
                       env=child_env())
    assert r.returncode == 0, r.stderr
    assert "engine reported the interrupt" in r.stdout, r.stdout + r.stderr
    assert "interrupted after" in r.stdout and "alive True" in r.stdout, r.stdout + r.stderr
    assert "softcert: interrupted" in r.stderr


# --- docs/python.md ---------------------------------------------------------------------------

def docs_example():
    text = open(os.path.join(SOURCE_DIR, "docs", "python.md")).read()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    example = [b for b in blocks if "np.random.seed(123)" in b]
    assert len(example) == 1
    return example[0]


STUB_MATPLOTLIB = textwrap.dedent("""
    # matplotlib is not installed: a stand-in that accepts every call, so that the example's
    # plotting lines run too (their arguments are still computed and checked for shape).
    import sys, types
    import numpy as np
    calls = []
    class Stub(types.ModuleType):
        def __getattr__(self, name):
            def call(*args, **kwargs):
                for x in args:
                    np.asarray(x)
                calls.append(name)
                return Stub(name)
            return call
    sys.modules["matplotlib"] = Stub("matplotlib")
    sys.modules["matplotlib.pyplot"] = sys.modules["matplotlib"].pyplot = Stub("matplotlib.pyplot")
""")


@pytest.mark.parametrize("plotting", ["without matplotlib", "with matplotlib"])
def test_docs_example_runs_as_written(tmp_path, plotting):
    code = docs_example()
    assert len(code.strip().splitlines()) < 20
    if plotting == "with matplotlib":
        pytest.importorskip("matplotlib")
        prelude = "import matplotlib\nmatplotlib.use('Agg')\n"
    else:
        prelude = STUB_MATPLOTLIB
    r = subprocess.run([sys.executable, "-c", prelude + code], capture_output=True, text=True, cwd=tmp_path,
                       timeout=600, env=child_env())
    assert r.returncode == 0, r.stdout + r.stderr
    assert "softcert.Trajectory(tier='rigorous', 61 times" in r.stdout
    if plotting == "with matplotlib":
        assert (tmp_path / "headline.png").stat().st_size > 10000


def test_a_loss_formula_from_python_is_the_built_in_loss_in_the_same_run():
    # docs/formulas.md: the logistic loss written out gives the built-in enclosures; the formula
    # is part of the problem (==) and of the JSON.
    W, a, beta = numpy_headline()
    written = softcert.Instance(V=W, a=a, beta=beta, loss="formula", loss_formula="log(1 + exp(-z))")
    other = softcert.Instance(V=W, a=a, beta=beta, loss="formula", loss_formula="log(2 + exp(-z))")
    assert written != other
    assert json.loads(written.to_json())["loss_formula"] == "log(1 + exp(-z))"
    assert softcert.Instance.from_json(written.to_json()) == written
    square = softcert.Instance(V=W, a=a, beta=beta, loss="square")
    square_written = softcert.Instance(V=W, a=a, beta=beta, loss="formula", loss_formula="(beta - target)^2 / 2")
    r, rw = (softcert.integrate(i, 2, tier="rigorous") for i in (square, square_written))
    for part in ("a", "softmax"):
        assert np.array_equal(r.lower[part], rw.lower[part]) and np.array_equal(r.upper[part], rw.upper[part])
    with pytest.raises(ValueError, match=r"loss_formula: unknown name \"zz\""):
        softcert.Instance(V=W, a=a, beta=beta, loss="formula", loss_formula="log(1 + exp(-zz))")
