"""Claims of your own from Python (docs/python.md, "Your own claim"): the validated curve of
softcert.tube() holds the rigorous tier's enclosures at times inside its segments; a claim stated
in a few lines gets all four verdicts from the engine; hypotheses are tested on instances; a suite
file names the claim's module; Ctrl-C hands back the curve validated so far. Run by CTest's
python_module_pytest.
"""
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import softcert

SOURCE_DIR = os.environ.get("SOFTCERT_SOURCE_DIR",
                            os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..")))
HEADLINE = os.path.join(SOURCE_DIR, "proofs_checks", "instances", "authors", "headline.json")
mpmath = pytest.importorskip("mpmath")


def headline():
    return softcert.Instance.load(HEADLINE)


def test_tube_covers_the_horizon_and_holds_the_rigorous_states():
    inst = headline()
    tube = softcert.tube(inst, 10)
    assert tube.complete and tube.t_reached == 10.0 and tube.stopped == ""
    assert tube.t[0, 0] <= 0 and tube.t[-1, 1] >= 10
    assert all(tube.t[k, 0] <= tube.t[k - 1, 1] for k in range(1, len(tube)))  # no gap
    for t in (0.5, 3, 7.25, 10):
        r = softcert.integrate(inst, t, tier="rigorous")
        in_range = [s for s in tube.segments if s.t.a <= t <= s.t.b]

        def meets(s):  # the exact state is in both enclosures: they intersect
            return all(s.softmax[k].a <= r.upper["softmax"][k] and r.lower["softmax"][k] <= s.softmax[k].b and
                       s.a[k].a <= r.upper["a"][k] and r.lower["a"][k] <= s.a[k].b for k in range(inst.T)) and \
                s.loss.a <= r.upper["loss"] and r.lower["loss"] <= s.loss.b
        # some segment whose range holds t holds the state at t (a range may reach past its own step)
        assert any(meets(s) for s in in_range), t
    low = tube.minimum(lambda s: s.loss)
    assert low.lower <= low.upper <= tube.bound(lambda s: s.loss).upper


def test_a_claim_in_a_few_lines_gets_all_four_verdicts():
    inst = headline()
    tube = softcert.tube(inst, 10)
    # "the loss stays below theta on [0, 10]": theta between the highest segment's ends is undecided
    undecided = (tube.loss[:, 0].max() + tube.loss[:, 1].max()) / 2

    def below(theta):
        return lambda s: theta - s.loss

    verdicts = {}
    for name, theta, tier in (("a", 0.8, "rigorous"), ("b", 0.1, "rigorous"), ("c", undecided, "rigorous"),
                              ("d", 0.8, "fast")):
        claim = softcert.Check("test.loss_below." + name, "loss < theta for all t in [0, H]", below(theta))
        verdicts[name] = claim(inst, tier=tier)
    assert verdicts["a"]["verdict"] == "proved", verdicts["a"]
    assert verdicts["b"]["verdict"] == "violated" and verdicts["b"]["margin"][1].startswith("-")
    assert verdicts["c"]["verdict"] == "inconclusive", verdicts["c"]
    assert verdicts["d"]["verdict"] == "confirmed", verdicts["d"]
    assert any(c["name"] == "test.loss_below.a" for c in softcert.checks())


def test_hypotheses_are_tested_and_can_be_dropped():
    inst = softcert.Instance(V=[[1, 0], [0, 1]], a=[0, 1], beta=[1, -1])
    claim = softcert.Check("test.uniform_start", "loss < 2 for all t in [0, H]", lambda s: 2 - s.loss,
                           hypotheses={"uniform-a0": lambda i: len(set(i.decimals("a"))) == 1}, horizon=1)
    r = claim(inst)
    assert r["verdict"] == "inconclusive" and "uniform-a0" in r["reason"]
    assert claim(inst, drop=["uniform-a0"])["verdict"] == "proved"


def test_margins_must_be_intervals_and_names_unique():
    with pytest.raises(TypeError, match="must be an mpmath interval"):
        softcert.Interval.of(0.5)
    assert softcert.Interval.of(mpmath.iv.mpf([1, 2])) == (1.0, 2.0)
    softcert.Check("test.unique", "x", lambda s: s.loss)
    with pytest.raises(ValueError, match="registered already"):
        softcert.Check("test.unique", "x", lambda s: s.loss)
    claim = softcert.Check("test.float_margin", "x", lambda s: 0.5)
    r = claim(headline())
    assert r["verdict"] == "error" and "mpmath interval" in r["reason"]


def test_a_suite_file_names_the_claims_module(tmp_path):
    (tmp_path / "my_claims.py").write_text(textwrap.dedent("""\
        import softcert
        loss_below = softcert.Check("test.suite.loss_below", "loss < 0.8 on [0, H]", lambda s: 0.8 - s.loss)
        loss_tiny = softcert.Check("test.suite.loss_tiny", "loss < 0.1 on [0, H]", lambda s: 0.1 - s.loss)
        """))
    suite = tmp_path / "mine.toml"
    suite.write_text(textwrap.dedent("""\
        name = "mine"
        [[check]]
        name = "test.suite.loss_below"
        python = "my_claims:loss_below"
        instance_files = ["%s"]
        expect = "holds"
        [[check]]
        name = "test.suite.loss_tiny"
        python = "my_claims:loss_tiny"
        instance_files = ["%s"]
        expect = "refuted"
        """ % (HEADLINE, HEADLINE)))
    out = softcert.suite(suite, out=tmp_path / "out")
    assert out["exit_status"] == 0, out
    assert [r["verdict"] for r in out["records"]] == ["proved", "violated"]
    assert (tmp_path / "out" / "results.jsonl").exists() and (tmp_path / "out" / "junit.xml").exists()
    # the CLI cannot import Python: a usage error naming the way
    binary = os.environ.get("SOFTCERT_BINARY")
    if binary:
        p = subprocess.run([binary, "suite", str(suite)], capture_output=True, text=True)
        assert p.returncode == 2 and "softcert.suite" in p.stderr, p.stderr


def test_search_finds_a_counterexample_to_a_python_claim_and_replay_reproduces_it():
    np = pytest.importorskip("numpy")

    def generate(seed):
        rng = np.random.default_rng(seed)
        scale = (0.05, 0.5, 2.0)[seed % 3]
        return softcert.Instance(V=scale * rng.standard_normal((2, 3)), a=[0, 0, 0], beta=[0.6, 0.8])

    def small_values(inst):
        u = inst.V.T @ inst.beta
        return bool(np.all(np.abs(u) <= 0.1))

    # "the loss stays below 0.8": under |u(0)| <= 0.1 the loss starts below log(1 + e^0.1) < 0.75 and
    # the gradient flow only lowers it; without that hypothesis it can start above 0.8
    claim = softcert.Check("test.search.loss_below", "loss < 0.8 for all t in [0, H]", lambda s: 0.8 - s.loss,
                           hypotheses={"small-values": small_values}, generate=generate, horizon=1)
    record = softcert.search(claim.name, drop=["small-values"], budget=600, max_samples=40)  # samples decide, not time
    assert record["verdict"] == "violated" and "counterexample" in record and record["check"] == claim.name, record
    again = softcert.replay(record)
    assert again["verdict"] == "violated" and again["margin"][1].startswith("-"), again
    with pytest.raises(ValueError, match="^record: "):
        softcert.replay({"check": claim.name})


INTERRUPTED_RUN = textwrap.dedent("""\
    import signal, sys, time
    import softcert
    signal.signal(signal.SIGINT, signal.default_int_handler)  # a background child may start with SIGINT ignored
    inst = softcert.Instance.load(sys.argv[1])
    print("started", flush=True)
    try:
        if sys.argv[2] == "tube":
            softcert.tube(inst, 1e4, precision=192)
        else:
            softcert.integrate(inst, 1e4, tier="rigorous", precision=192)
        print("finished")
    except softcert.Interrupted as e:
        p = e.partial
        print("partial", len(p), p.complete, p.stopped, p.t_reached, flush=True)
    except KeyboardInterrupt:
        print("keyboard", flush=True)
    """)


@pytest.mark.parametrize("what, expect", [("tube", "partial"), ("integrate", "keyboard")])
def test_ctrl_c_stops_a_long_run_within_two_seconds(tmp_path, what, expect):
    script = tmp_path / "run.py"
    script.write_text(INTERRUPTED_RUN)
    child = subprocess.Popen([sys.executable, str(script), HEADLINE, what], stdout=subprocess.PIPE, text=True,
                             env=dict(os.environ))
    assert child.stdout.readline().strip() == "started"
    time.sleep(3)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=60)
    waited = time.monotonic() - sent
    assert waited < 2.0, (waited, out)
    words = out.split()
    assert words[0] == expect, out
    if expect == "partial":
        assert int(words[1]) >= 1 and words[2] == "False" and words[3] == "interrupted" and float(words[4]) > 0
