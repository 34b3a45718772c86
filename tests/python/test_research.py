"""The Python module where researchers work (docs/python.md): derived quantities with
their enclosures, trajectories in one pass for every model, signatures and docstrings, arguments
refused by name, to_pandas, plot and progress. Run by CTest's python_module_pytest.

The headline test checks the entropy enclosure at t = 1e5 against an independent reference: the
reduced logistic system (docs/models.md; derived again here from the model's gradient flow) in
τ-time, integrated with classical RK4 in mpmath at 40 digits, at two step sizes.
"""
import inspect
import json
import math
import os
import pydoc
import subprocess

import numpy as np
import pytest

import softcert

SOURCE_DIR = os.environ.get("SOFTCERT_SOURCE_DIR",
                            os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..")))
BINARY = os.environ.get("SOFTCERT_BINARY", os.path.join(SOURCE_DIR, "build", "softcert"))
HEADLINE = os.path.join(SOURCE_DIR, "proofs_checks", "instances", "authors", "headline.json")


def headline():
    return softcert.Instance.load(HEADLINE)


def square_instance():
    j = json.load(open(HEADLINE))
    j["loss"] = "square"
    return softcert.Instance.from_json(j)


# --- the independent reference ----------------------------------------------------------------

def reduced_reference_entropy(inst, t_end, steps_per_unit, mp):
    """H(σ(a(t_end))) of the value-softmax logistic flow, from scratch in mpmath.

    Gradient flow of L = log(1 + exp(-β·Vσ(a))): with u = Vᵀβ, c = |β|², s = σ(a),
    γ = 1/(1 + exp(u·s)): da/dt = γ (diag(s) - s sᵀ) u, du/dt = γ c s. In τ (dτ = γ dt):
    da/dτ = s∘(u - s·u), du/dτ = c s, dt/dτ = 1 + exp(u·s). Classical RK4 in τ, then the last
    step shortened (secant on its length) so that t lands on t_end."""
    V = [[mp.mpf(x) for x in row] for row in inst.decimals("V")]
    beta = [mp.mpf(x) for x in inst.decimals("beta")]
    a = [mp.mpf(x) for x in inst.decimals("a")]
    T, d = len(a), len(beta)
    u = [mp.fsum(V[i][k] * beta[i] for i in range(d)) for k in range(T)]
    c = mp.fsum(b * b for b in beta)

    def field(x):
        a, u = x[:T], x[T:2 * T]
        m = max(a)
        e = [mp.exp(v - m) for v in a]
        z = mp.fsum(e)
        s = [v / z for v in e]
        su = mp.fsum(si * ui for si, ui in zip(s, u))
        return [s[k] * (u[k] - su) for k in range(T)] + [c * s[k] for k in range(T)] + [1 + mp.exp(su)]

    def rk4(x, h):
        k1 = field(x)
        k2 = field([xi + h / 2 * ki for xi, ki in zip(x, k1)])
        k3 = field([xi + h / 2 * ki for xi, ki in zip(x, k2)])
        k4 = field([xi + h * ki for xi, ki in zip(x, k3)])
        return [xi + h / 6 * (p + 2 * q + 2 * r + w) for xi, p, q, r, w in zip(x, k1, k2, k3, k4)]

    x = a + u + [mp.mpf(0)]
    h = mp.mpf(1) / steps_per_unit
    target = mp.mpf(t_end)
    while True:
        y = rk4(x, h)
        if y[-1] >= target:
            break
        x = y
    # t(δ) = target on the last step (0, h]: Newton on the step length δ, dt/dτ from the field.
    delta = h * (target - x[-1]) / (y[-1] - x[-1])
    for _ in range(8):
        y = rk4(x, delta)
        delta -= (y[-1] - target) / field(y)[-1]
    y = rk4(x, delta)
    a = y[:T]
    m = max(a)
    e = [mp.exp(v - m) for v in a]
    z = mp.fsum(e)
    return -mp.fsum((v / z) * mp.log(v / z) for v in e)


def test_headline_entropy_enclosure_at_1e5_contains_an_independent_reference():
    mp = pytest.importorskip("mpmath").mp
    inst = headline()
    r = softcert.integrate(inst, 100000, tier="rigorous")
    lo, hi = r.decimals["entropy"]
    assert r.lower["entropy"] <= float(lo) and float(hi) <= r.upper["entropy"]
    width = float(hi) - float(lo)
    assert 0 < width < 1e-6
    with mp.workprec(100):
        h8, h16, h32 = (reduced_reference_entropy(inst, 100000, n, mp) for n in (8, 16, 32))
        # RK4's error is C h^4 + O(h^5): Richardson removes h^4 at two levels, and the two
        # extrapolations differ by about 31 times the error of the finer one.
        r1, r2 = h16 + (h16 - h8) / 15, h32 + (h32 - h16) / 15
        err = abs(r2 - r1) / 31
        assert err < width / 20, (float(err), width)
        assert mp.mpf(lo) + 2 * err < r2 < mp.mpf(hi) - 2 * err, (lo, hi, r2, float(err))


def test_reference_derivation_agrees_with_the_fast_tier_at_t_10():
    mp = pytest.importorskip("mpmath").mp
    inst = headline()
    fast = softcert.integrate(inst, 10, tier="fast", precision=113)
    with mp.workprec(113):
        ref = reduced_reference_entropy(inst, 10, 64, mp)
    assert abs(float(ref) - fast.state["entropy"]) < 1e-12


# --- derived quantities -------------------------------------------------------------------------

def test_derived_at_the_exact_start_are_the_closed_forms():
    # a(0) = 0: σ uniform, so H = log T, max weight 1/T, every gap 0 and no certain argmax.
    tr = softcert.trajectory(headline(), [0, 1], tier="rigorous")
    T = 8
    assert tr.lower["entropy"][0] <= math.log(T) <= tr.upper["entropy"][0]
    assert tr.upper["entropy"][0] - tr.lower["entropy"][0] < 1e-14
    assert tr.lower["max_weight"][0] <= 1 / T <= tr.upper["max_weight"][0]
    assert tr.lower["score_gap"][0] == 0 and tr.upper["score_gap"][0] == 0
    assert tr.results[0].argmax is None and tr.lower["argmax"][0] == -1
    assert np.all(tr.lower["gaps_to_max"][0] == 0)


def test_rigorous_derived_enclose_the_fast_values_and_widths_count_the_loss():
    inst = headline()
    r = softcert.integrate(inst, 1000, tier="rigorous")
    f = softcert.integrate(inst, 1000, tier="fast", precision=113)
    for q in ("entropy", "max_weight", "score_gap", "loss"):
        assert r.lower[q] - 1e-12 <= f.state[q] <= r.upper[q] + 1e-12, q
    assert np.all(r.lower["gaps_to_max"] - 1e-12 <= f.state["gaps_to_max"])
    assert r.argmax == f.argmax == int(np.argmax(f.state["softmax"]))
    assert r.max_width >= max(r.json["widths"]["loss"], max(r.json["widths"]["a"]))
    assert r.json["widths"]["max"] == r.max_width
    assert r.json["derived"]["argmax"] == r.argmax
    # The fast tier's point values are the plain formulas.
    s = f.state["softmax"]
    assert abs(f.state["entropy"] + np.sum(s * np.log(s))) < 1e-12
    assert f.state["max_weight"] == pytest.approx(s.max() / s.sum(), abs=1e-15)


def test_cli_json_prints_the_derived_quantities(tmp_path):
    out = tmp_path / "r.json"
    run = subprocess.run([BINARY, "integrate", HEADLINE, "--t", "100", "--tier", "rigorous", "--json", str(out)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    j = json.loads(out.read_text())
    r = softcert.integrate(headline(), 100, tier="rigorous")
    assert j["derived"] == r.json["derived"] and r.decimals["entropy"] == j["derived"]["entropy"]
    assert "entropy of the weights [" in run.stdout and "argmax" in run.stdout


def test_precision_reported_is_the_one_used(tmp_path):
    r = softcert.integrate(headline(), 1, tier="rigorous", precision=256)
    assert r.precision_bits == 257  # MPFR precisions are set in whole decimal digits (docs/python.md)
    out = tmp_path / "r.json"
    run = subprocess.run([BINARY, "integrate", HEADLINE, "--t", "1", "--tier", "rigorous", "--precision", "256",
                          "--json", str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    j = json.loads(out.read_text())
    assert j["precision_bits"] == 257 and j["precision_requested_bits"] == 256
    assert "257 bits (256 requested" in run.stdout


# --- trajectories ---------------------------------------------------------------------------------

def test_rigorous_trajectory_of_a_full_state_model_is_one_pass():
    inst = square_instance()
    tr = softcert.trajectory(inst, [0.25, 0.5], tier="rigorous")
    assert tr.lower["softmax"].shape == (2, 8) and tr.steps[0] <= tr.steps[1]
    alone = softcert.integrate(inst, 0.5, tier="rigorous")
    for q in ("a", "softmax"):
        assert np.all(tr.lower[q][1] <= alone.upper[q]) and np.all(alone.lower[q] <= tr.upper[q][1])
    assert np.all(tr.lower["entropy"] <= tr.upper["entropy"])


def test_fast_trajectory_of_200_times_is_one_quick_pass():
    inst = headline()
    times = np.logspace(-1, 5, 200)
    tr = softcert.trajectory(inst, times, tier="fast")
    assert tr.seconds < 3, tr.seconds
    assert tr.state["entropy"].shape == (200,) and np.all(np.diff(tr.steps) >= 0)
    rig = softcert.trajectory(inst, times[::20], tier="rigorous")
    # Within the enclosures up to the stepper's tolerance.
    assert np.all(np.abs(tr.state["softmax"][::20] - (rig.lower["softmax"] + rig.upper["softmax"]) / 2) < 1e-6)


# --- discoverability and arguments ----------------------------------------------------------------

def test_signatures_and_docstrings():
    sig = inspect.signature(softcert.integrate)
    assert list(sig.parameters)[:2] == ["instance", "t"] and sig.parameters["tier"].default == "fast"
    assert "progress" in inspect.signature(softcert.trajectory).parameters
    assert list(inspect.signature(softcert.Instance).parameters)[:3] == ["V", "a", "beta"]
    text = pydoc.render_doc(softcert.integrate, renderer=pydoc.plaintext)
    for words in ("tier", "rigorous", "Guarantee", "precision", "numbered from 0", "entropy"):
        assert words in text, words
    stubs = os.path.join(os.path.dirname(softcert.__file__), "__init__.pyi")
    assert os.path.exists(stubs) and "def integrate(" in open(stubs).read()
    assert softcert.RigorousFailure.__module__ == "softcert"


@pytest.mark.parametrize("kwargs, message", [
    (dict(seed=2 ** 70), r"^seed: must be in \[0, 2\*\*64\)"),
    (dict(seed=-1), r"^seed: must be in"),
    (dict(seed="1"), r"^seed: expected an integer"),
    (dict(normalization=5), r"^normalization: expected a string, got int"),
    (dict(loss=None), r"^loss: expected a string"),
])
def test_instance_arguments_are_refused_by_name(kwargs, message):
    W = np.eye(2)
    with pytest.raises(ValueError, match=message):
        softcert.Instance(V=W, a=[0, 0], beta=[1, 0], **kwargs)


@pytest.mark.parametrize("kwargs, message", [
    (dict(precision=-1), r"^precision: must be 53 to 65536 bits, got -1"),
    (dict(precision=2 ** 80), r"^precision: must be 53 to 65536"),
    (dict(precision=64.0), r"^precision: expected an integer, got float"),
    (dict(tier=1), r"^tier: expected a string"),
    (dict(reference="yes"), r"^reference: expected True or False"),
    (dict(tolerance="small"), r"^tolerance: expected a number"),
    (dict(progress=3), r"^progress: expected a callable"),
])
def test_integrate_arguments_are_refused_by_name(kwargs, message):
    with pytest.raises(ValueError, match=message):
        softcert.integrate(headline(), 1, **kwargs)


def test_check_arguments_are_refused_by_name():
    with pytest.raises(ValueError, match=r"^precision: "):
        softcert.check("varre2026.order_preservation", headline(), precision=-1)
    with pytest.raises(ValueError, match=r"^seed: "):
        softcert.check("varre2026.order_preservation", headline(), seed=2 ** 70)
    with pytest.raises(ValueError, match=r"^instance: expected a softcert.Instance"):
        softcert.integrate("headline.json", 1)


def test_from_json_refuses_duplicate_keys_and_nul_bytes_as_load_does(tmp_path):
    text = open(HEADLINE).read()
    dup = text.replace('"loss":', '"loss": "square", "loss":', 1)
    assert dup != text
    with pytest.raises(ValueError, match=r"^instance: duplicate key \"loss\""):
        softcert.Instance.from_json(dup)
    (tmp_path / "dup.json").write_text(dup)
    with pytest.raises(ValueError, match=r"duplicate key \"loss\""):
        softcert.Instance.load(str(tmp_path / "dup.json"))
    with pytest.raises(ValueError, match=r"^instance: contains a NUL byte"):
        softcert.Instance.from_json(text + "\0")
    with pytest.raises(ValueError, match=r"^instance: contains a NUL byte"):
        softcert.Instance.from_json(text.encode() + b"\0garbage")


def test_progress_callback_reports_steps_and_time():
    calls = []
    r = softcert.integrate(square_instance(), 2, tier="rigorous", progress=lambda n, t: calls.append((n, t)))
    assert calls and calls[-1][0] == r.steps and 0 < calls[-1][1] <= 2 + 1e-9

    def stop(n, t):
        raise RuntimeError("enough")
    with pytest.raises(RuntimeError, match="enough"):
        softcert.integrate(square_instance(), 2, tier="rigorous", progress=stop)


def test_to_pandas_and_plot(tmp_path):
    pd = pytest.importorskip("pandas")
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    tr = softcert.trajectory(headline(), np.logspace(-1, 4, 21), tier="rigorous")
    df = tr.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == 21 and df.index.name == "t"
    assert np.all(df["entropy_lower"] <= df["entropy_upper"]) and "softmax[7]_upper" in df and "argmax" in df
    assert df.attrs["t_exact"] == tr.t
    fast = softcert.trajectory(headline(), np.logspace(-1, 4, 21)).to_pandas()
    assert "entropy" in fast and "softmax[0]" in fast
    for q in ("softmax", "entropy", "score_gap"):
        ax = softcert.plot(tr, q)
        ax.figure.savefig(tmp_path / (q + ".png"), dpi=80)
        assert (tmp_path / (q + ".png")).stat().st_size > 5000
    with pytest.raises(ValueError, match="^quantity: "):
        softcert.plot(tr, "nope")
