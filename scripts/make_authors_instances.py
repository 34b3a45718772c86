#!/usr/bin/python3
"""Rebuilds the initial state of every experiment in the authors' notebook as instance files.

Source: github tml-epfl/softmax, visualizations/toy_experiments.ipynb (Varre, Rofin, Flammarion
2026). This script does not run the authors' gradient descent; it replays, with numpy's legacy
RandomState (np.random.seed + randn/rand), exactly the draws the notebook makes before its first
step, in the notebook's order, with the same floating-point operations, so that every number in
the written files is a double the notebook starts from. proofs_checks/instances/authors/README.md
lists the files and how the notebook's models map onto ours.

It also writes the regression experiment's five instances as one sweep file,
proofs_checks/instances/varre2026-regression-authors-sweep.json ({"kappa": ["1", ..., "5"],
"members": [...]}, the input of the checks varre2026.regression.conditioning[.monotone]); its
members are the five regression-kappa*.json instances, field for field and number for number.
It lives outside the authors/ folder, whose files are built into the binary one instance each.

Usage:
    make_authors_instances.py [--out DIR] [--sweep FILE]
                                            write every file into DIR (default:
                                            proofs_checks/instances/authors beside this script's
                                            repository) and the sweep into FILE (default:
                                            proofs_checks/instances/varre2026-regression-authors-
                                            sweep.json), each atomically (temp file + rename)
    make_authors_instances.py --check [DIR] [--sweep FILE]
                                            regenerate in memory and compare with the files in DIR
                                            and with the sweep FILE (whose members must also equal
                                            DIR's regression-kappa*.json exactly); one line per
                                            file; exit 0 if all agree, 1 otherwise, 77 (CTest's
                                            skip code) if numpy is not installed

Every number is written as the exact decimal expansion of its double, in plain positional
notation (format(Decimal(x), 'f')), so the reader recovers the double exactly with no rounding
step; an exact zero (also numpy's -0.0 from 0*randn) is written "0".
"""
import decimal
import json
import os
import struct
import sys
import tempfile

try:
    import numpy as np
except ImportError:  # pragma: no cover - depends on the machine
    np = None

NOTEBOOK = "tml-epfl/softmax visualizations/toy_experiments.ipynb"
DEFAULT_DIR = os.path.normpath(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "proofs_checks", "instances", "authors"))

# The notebook's normalisation classes (cell 5) and our names for them, in the order in which
# cell 5's run_experiment builds its six solvers.
DEFAULT_SWEEP = os.path.normpath(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "proofs_checks", "instances",
    "varre2026-regression-authors-sweep.json"))
REGRESSION_KAPPAS = (1, 2, 3, 4, 5)

NORMALIZATIONS = [
    ("abs", "L1Normalization"),
    ("sum", "SumNormalization"),
    ("square", "L2ActivationNormalization"),
    ("softmax", "SoftmaxNormalization"),
    ("relu", "ReluNormalization"),
    ("sigmoid", "SigmoidNormalization"),
]


# ---------------------------------------------------------------------------------------------
# Number formatting


def exact(x):
    """The exact decimal expansion of the double x, positional notation, "0" for +-0."""
    x = float(x)
    if x == 0.0:
        return "0"
    return format(decimal.Decimal(x), "f")


def vec(v):
    return [exact(x) for x in v]


def mat(m):
    return [[exact(x) for x in row] for row in m]


def decimal_product(a, b):
    """a * b of two decimal literals, exactly, as a plain decimal string (e.g. horizon lr*iters)."""
    p = decimal.Decimal(a) * decimal.Decimal(b)
    s = format(p.normalize(), "f")
    return s


# ---------------------------------------------------------------------------------------------
# The notebook's draws. Each function reproduces one experiment's set-up, operation by operation.


def scipy_softmax(x):
    """scipy.special.softmax of a 1-D array, computed the way scipy computes it."""
    shifted = np.exp(x - np.amax(x))
    return shifted / np.sum(shifted)


def cell3_headline():
    # cell 2's run_experiment(dim=8, ..., seed=123), called by cell 3
    np.random.seed(123)
    W = 0.1 * np.random.randn(8, 8)
    a = 0 * np.random.randn(8)
    beta = np.random.randn(8)
    beta = beta / np.linalg.norm(beta)
    return W, a, beta


def base_solver_init(n_features, n_latent, scale_V, scale_a=1.0):
    # cell 5's BaseSolver.__init__: re-seeds 42 every time a solver is built
    np.random.seed(42)
    V = scale_V * np.random.randn(n_features, n_latent)
    a = scale_a * (np.ones(n_latent) + np.random.randn(n_latent) * 0.1)
    return V, a


def target_beta(n):
    # cell 5's run_experiment and cell 8's loop: seed 42, then normalise in place
    np.random.seed(42)
    b = np.random.randn(n)
    b /= np.linalg.norm(b)
    return b


def cells56_normalization(V_scale):
    # run_experiment draws beta* first; each of the six solvers then re-seeds 42 and draws V, a,
    # so every solver starts from the same V, a (and V's first draws repeat beta*'s raw draws).
    beta = target_beta(10)
    starts = [base_solver_init(10, 10, V_scale) for _ in NORMALIZATIONS]
    for V, a in starts[1:]:
        assert np.array_equal(V, starts[0][0]) and np.array_equal(a, starts[0][1])
    V, a = starts[0]
    return V, a, beta


def cell8_tied(D):
    beta = target_beta(D)
    # TiedUSolver.__init__ calls BaseSolver.__init__ (draws an unused V, then a), then sets U.
    _unused_V, a = base_solver_init(D, D, 1.0)
    U = np.eye(D, D) * 1.0
    return U, a, beta


def cell10_regression(kappa, dim=20, n_samples=20):
    np.random.seed(123)
    W = 0.00001 * np.random.randn(dim, dim)
    a = 0.001 * np.random.randn(dim)
    X_raw = np.random.randn(n_samples, dim)
    U, S, Vt = np.linalg.svd(X_raw, full_matrices=False)
    S_new = np.linspace(1, 1 / kappa, min(n_samples, dim))
    X = U @ np.diag(S_new) @ Vt
    y = np.random.randn(n_samples)
    return W, a, X, y


def cell13_kl(d=10, k=10):
    np.random.seed(123)
    V_nb = 0.1 * np.random.randn(d, k)
    a = 0 * np.random.randn(d)
    raw = np.random.rand(k)
    logits = 10 * raw
    p = scipy_softmax(logits)
    return V_nb, a, logits, p


# ---------------------------------------------------------------------------------------------
# Instances


def authors_run(cell, seed, lr, iterations):
    return {
        "notebook": NOTEBOOK,
        "cell": cell,
        "seed": seed,
        "learning_rate": lr,
        "iterations": iterations,
        "horizon": decimal_product(lr, iterations),
    }


def provenance(cell, seed, draws, lr, iterations, extra=""):
    text = ("%s, %s; seed %d; draw order: %s; the authors ran gradient descent with lr %s for "
            "%d iterations (horizon t = lr x iterations = %s)%s; rebuilt by "
            "scripts/make_authors_instances.py with numpy %s (legacy RandomState); values are "
            "exact decimal expansions of the doubles"
            % (NOTEBOOK, cell, seed, draws, lr, iterations, decimal_product(lr, iterations), extra,
               np.__version__))
    return text


BLAS_NOTE = ("; beta's normalisation divides by np.linalg.norm, a BLAS dot product whose summation "
             "order differs between BLAS builds, so beta may differ from the authors' doubles in "
             "the last bits")


def build_all():
    """Returns [(file name, ordered dict of fields)] in a fixed order."""
    out = []

    W, a, beta = cell3_headline()
    out.append(("headline.json", {
        "model": "value_softmax",
        "loss": "logistic",
        "normalization": "softmax",
        "T": 8,
        "d": 8,
        "V": mat(W),
        "a": vec(a),
        "beta": vec(beta),
        "id": "authors-headline",
        "provenance": provenance(
            "cell 3 (run_experiment defined in cell 2)", 123,
            "np.random.seed(123); W = 0.1*randn(8,8) (V: row i = coordinate i of beta, column j = "
            "token j); a = 0*randn(8) (eight draws consumed, a = 0); beta = randn(8); "
            "beta = beta/np.linalg.norm(beta)",
            "0.1", 1000000, "; run_experiment(dim=8, learning_rate=0.1, num_iterations=int(1e6)) "
            "with the default seed 123" + BLAS_NOTE),
        "authors_run": authors_run(3, 123, "0.1", 1000000),
    }))

    for loss, lr, iters in (("square", "0.1", 5000), ("logistic", "0.5", 100000)):
        V, a, beta = cells56_normalization(0.1)
        for ours, theirs in NORMALIZATIONS:
            out.append(("normalization-%s-%s.json" % (loss, ours), {
                "model": "value_softmax",
                "loss": loss,
                "normalization": ours,
                "T": 10,
                "d": 10,
                "V": mat(V),
                "a": vec(a),
                "beta": vec(beta),
                "id": "authors-normalization-%s-%s" % (loss, ours),
                "provenance": provenance(
                    "cell 6 (run_experiment, BaseSolver and the solvers defined in cell 5)", 42,
                    "cell 5's run_experiment: np.random.seed(42); beta = randn(10); beta /= "
                    "np.linalg.norm(beta); then BaseSolver.__init__ of the %s solver re-seeds: "
                    "np.random.seed(42); V = 0.1*randn(10,10) (so V's first row is 0.1 times "
                    "beta's raw draws); a = 1.0*(np.ones(10) + randn(10)*0.1); the same V, a start "
                    "all six normalisations and both losses" % theirs,
                    lr, iters,
                    "; %s solver with %s, V_scale=0.1, scale_a=1.0"
                    % ("SquareLossSolver" if loss == "square" else "LogisticLossSolver", theirs)
                    + BLAS_NOTE),
                "authors_run": authors_run(6, 42, lr, iters),
            }))

    for D in (10, 20, 50, 100):
        U, a, beta = cell8_tied(D)
        out.append(("tied-D%d.json" % D, {
            "model": "tied_value_softmax",
            "loss": "logistic",
            "normalization": "softmax",
            "T": D,
            "d": D,
            "U": mat(U),
            "a": vec(a),
            "beta": vec(beta),
            "id": "authors-tied-D%d" % D,
            "provenance": provenance(
                "cell 8", 42,
                "np.random.seed(42); beta = randn(%d); beta /= np.linalg.norm(beta); "
                "TiedUSolver.__init__ -> BaseSolver.__init__: np.random.seed(42); V = 1.0*randn(%d,%d) "
                "(drawn, never used); a = 1.0*(np.ones(%d) + randn(%d)*0.1); U = np.eye(%d,%d)*1.0"
                % (D, D, D, D, D, D, D),
                "0.05", 10000,
                "; TiedUSolver with SoftmaxNormalization, scale_V=1.0, scale_a=1.0; "
                "z = U a, alpha = softmax(z), beta = U alpha" + BLAS_NOTE),
            "authors_run": authors_run(8, 42, "0.05", 10000),
        }))

    for kappa in REGRESSION_KAPPAS:
        W, a, X, y = cell10_regression(kappa)
        out.append(("regression-kappa%d.json" % kappa, {
            "model": "value_softmax",
            "loss": "regression",
            "normalization": "softmax",
            "T": 20,
            "d": 20,
            "V": mat(W),
            "a": vec(a),
            "X": mat(X),
            "y": vec(y),
            "id": "authors-regression-kappa%d" % kappa,
            "provenance": provenance(
                "cell 11 (run_experiment defined in cell 10)", 123,
                "np.random.seed(123); W = 0.00001*randn(20,20) (V); a = 0.001*randn(20); "
                "X_raw = randn(20,20); U, S, Vt = np.linalg.svd(X_raw, full_matrices=False); "
                "X = U @ np.diag(np.linspace(1, 1/%d, 20)) @ Vt; y = randn(20) (the notebook's "
                "beta, the regression target); loss ||y - X V softmax(a)||^2 with no 1/2"
                % kappa,
                "0.001", 300000,
                "; run_experiment(dim=20, n_samples=20, learning_rate=0.001, "
                "num_iterations=300000, condition_number=%d) with the default seed 123; "
                "X comes from LAPACK's SVD and BLAS matrix products, so it may differ from the "
                "authors' doubles in the last bits on another LAPACK/BLAS build" % kappa),
            "authors_run": authors_run(11, 123, "0.001", 300000),
        }))

    V_nb, a, logits, p = cell13_kl()
    out.append(("kl.json", {
        "model": "value_softmax",
        "loss": "cross_entropy",
        "normalization": "softmax",
        "T": 10,
        "d": 10,
        "V": mat(V_nb.T),
        "a": vec(a),
        "p": vec(p),
        "p_logits": vec(logits),
        "id": "authors-kl",
        "provenance": provenance(
            "cell 14 (run_experiment defined in cell 13)", 123,
            "np.random.seed(123); V_nb = 0.1*randn(10,10) (the notebook's V, d x k; written "
            "transposed: our V = V_nb^T, row r = class r, column j = score j); a = 0*randn(10) "
            "(ten draws consumed, a = 0); p_logits = 10*rand(10); p = softmax(p_logits) computed "
            "as scipy does, exp(x - max x)/sum",
            "0.1", 10000000,
            "; run_experiment(d=10, k=10, learning_rate=0.1, num_iterations=int(1e7)) with the "
            "default seed 123; p goes through libm's/numpy's exp, so it may differ "
            "from the authors' doubles in the last bits on another build"),
        "authors_run": authors_run(14, 123, "0.1", 10000000),
    }))
    return out


def build_sweep(files):
    """The regression sweep: the regression-kappa*.json instances of `files` as its members."""
    by_name = dict(files)
    members = [by_name["regression-kappa%d.json" % k] for k in REGRESSION_KAPPAS]
    return {
        "model": "value_softmax_sweep",
        "id": "authors-regression-sweep",
        "provenance": (
            "%s, cell 11 (run_experiment defined in cell 10): the regression experiment's five "
            "runs, condition_number = %s, as one sweep; its members are the instances "
            "proofs_checks/instances/authors/regression-kappa{1,2,3,4,5}.json, the same fields "
            "and the same numbers (exact decimal expansions of the doubles); they share W(0) (our "
            "V), a(0) and y (all drawn after np.random.seed(123) in the same order for every "
            "kappa) and differ only in X; written by scripts/make_authors_instances.py"
            % (NOTEBOOK, ", ".join(str(k) for k in REGRESSION_KAPPAS))),
        "kappa": [str(k) for k in REGRESSION_KAPPAS],
        "members": members,
    }


MATRIX_FIELDS = ("V", "U", "X")


def render(inst):
    """One line per field, one line per matrix row (a matrix reads, and diffs, as a matrix)."""
    lines = []
    for key, value in inst.items():
        if key in MATRIX_FIELDS:
            rows = ",\n   ".join(json.dumps(row) for row in value)
            lines.append(" %s: [\n   %s\n ]" % (json.dumps(key), rows))
        else:
            lines.append(" %s: %s" % (json.dumps(key), json.dumps(value)))
    return "{\n" + ",\n".join(lines) + "\n}\n"


def render_sweep(sweep):
    """The sweep's own fields one per line; each member laid out as render() does, indented."""
    lines = []
    for key, value in sweep.items():
        if key == "members":
            body = ",\n".join("  " + render(m).rstrip("\n").replace("\n", "\n  ") for m in value)
            lines.append(" %s: [\n%s\n ]" % (json.dumps(key), body))
        else:
            lines.append(" %s: %s" % (json.dumps(key), json.dumps(value)))
    return "{\n" + ",\n".join(lines) + "\n}\n"


def write_atomically(path, text):
    out_dir = os.path.dirname(path) or "."
    os.makedirs(out_dir, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", dir=out_dir)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    print("wrote %s" % path)


def write_all(out_dir, sweep_path):
    files = build_all()
    for name, inst in files:
        write_atomically(os.path.join(out_dir, name), render(inst))
    write_atomically(sweep_path, render_sweep(build_sweep(files)))
    return 0


# ---------------------------------------------------------------------------------------------
# --check

# Fields whose doubles come out of a computation that is not fixed by IEEE 754 alone:
#   X          LAPACK's dgesdd (SVD) and BLAS dgemm: blocking, FMA use and summation order differ
#              between reference LAPACK/BLAS, OpenBLAS, MKL, ...;
#   p          np.exp is libm's or numpy's own SIMD exp, neither correctly rounded, and versions
#              differ in the last bit;
#   beta       divided by np.linalg.norm = sqrt(BLAS ddot): the sqrt and the division are
#              correctly rounded, but the dot product's summation order is the BLAS build's.
# They are compared within MAX_ULP units in the last place; everything else (raw draws times a
# constant, 1 + 0.1*draw, exact zeros and ones, 10*rand) is correctly rounded IEEE arithmetic on
# the same Mersenne-Twister draws and must agree as text, character for character.
TOLERANT_FIELDS = ("X", "p", "beta")
MAX_ULP = 4


def ordered_bits(x):
    """Maps doubles to integers so that adjacent doubles differ by 1 (for ulp distances)."""
    (i,) = struct.unpack("<q", struct.pack("<d", x))
    return i if i >= 0 else -(i & 0x7FFFFFFFFFFFFFFF)


def compare_number(field, where, want, got):
    """None if the file's text `got` is acceptable for the regenerated text `want`."""
    if not isinstance(got, str):
        return "%s%s is %r, not a decimal string" % (field, where, got)
    if field not in TOLERANT_FIELDS:
        if got != want:
            return "%s%s is %s, regenerated %s" % (field, where, got, want)
        return None
    try:
        d = decimal.Decimal(got)
    except decimal.InvalidOperation:
        return "%s%s is %r, not a decimal" % (field, where, got)
    x = float(d)
    if decimal.Decimal(x) != d or got != exact(x):
        return "%s%s is %s, not the exact expansion of a double" % (field, where, got)
    dist = abs(ordered_bits(x) - ordered_bits(float(want)))
    if dist > MAX_ULP:
        return "%s%s is %s, regenerated %s (%d ulp apart, at most %d allowed)" % (
            field, where, got, want, dist, MAX_ULP)
    return None


def compare_value(field, where, want, got):
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return "%s%s has shape/length %s, regenerated %d" % (
                field, where, len(got) if isinstance(got, list) else type(got).__name__, len(want))
        for i, (w, g) in enumerate(zip(want, got)):
            msg = compare_value(field, "%s[%d]" % (where, i), w, g)
            if msg:
                return msg
        return None
    if isinstance(want, str) and field in MATRIX_FIELDS + ("a", "beta", "y", "p", "p_logits"):
        return compare_number(field, where, want, got)
    if got != want:
        return "%s%s is %s, regenerated %s" % (field, where, json.dumps(got), json.dumps(want))
    return None


def compare_instance(inst, have):
    """None if the file's instance `have` is acceptable for the regenerated `inst`."""
    if not isinstance(have, dict):
        return "not a JSON object"
    if list(have.keys()) != list(inst.keys()):
        return "fields are %s, regenerated %s" % (list(have.keys()), list(inst.keys()))
    for key, want in inst.items():
        if key == "provenance":
            # Names the numpy version that wrote it; only its presence is checked.
            if not isinstance(have[key], str) or NOTEBOOK not in have[key]:
                return "provenance does not name the notebook"
            continue
        msg = compare_value(key, "", want, have[key])
        if msg:
            return msg
    return None


def read_json(path):
    with open(path) as f:
        return json.load(f)


def compare_sweep(sweep, have, committed):
    """None if the sweep file `have` is acceptable: its own fields as regenerated, each member
    as regenerated (compare_instance) and equal, field for field, to the committed per-kappa
    file (`committed`: name -> parsed JSON, or an error string)."""
    if not isinstance(have, dict) or list(have.keys()) != list(sweep.keys()):
        return "fields are %s, regenerated %s" % (
            list(have.keys()) if isinstance(have, dict) else type(have).__name__, list(sweep.keys()))
    for key in ("model", "id", "kappa"):
        if have[key] != sweep[key]:
            return "%s is %s, regenerated %s" % (key, json.dumps(have[key]), json.dumps(sweep[key]))
    if not isinstance(have["provenance"], str) or NOTEBOOK not in have["provenance"]:
        return "provenance does not name the notebook"
    members = have["members"]
    if not isinstance(members, list) or len(members) != len(sweep["members"]):
        return "members: expected %d" % len(sweep["members"])
    for i, (kappa, want, got) in enumerate(zip(REGRESSION_KAPPAS, sweep["members"], members)):
        msg = compare_instance(want, got)
        if msg:
            return "members[%d]: %s" % (i, msg)
        name = "regression-kappa%d.json" % kappa
        file_inst = committed.get(name)
        if isinstance(file_inst, str):
            return "members[%d]: cannot compare with %s (%s)" % (i, name, file_inst)
        if got != file_inst:
            return "members[%d] differs from %s" % (i, name)
    return None


def check_all(in_dir, sweep_path):
    bad = 0
    files = build_all()
    committed = {}
    for name, inst in files:
        path = os.path.join(in_dir, name)
        try:
            have = read_json(path)
        except (OSError, ValueError) as e:
            print("%s: DIFFERS: cannot read (%s)" % (name, e))
            committed[name] = "cannot read: %s" % e
            bad += 1
            continue
        committed[name] = have
        msg = compare_instance(inst, have)
        if msg:
            print("%s: DIFFERS: %s" % (name, msg))
            bad += 1
        else:
            print("%s: ok" % name)
    name = os.path.basename(sweep_path)
    try:
        msg = compare_sweep(build_sweep(files), read_json(sweep_path), committed)
    except (OSError, ValueError) as e:
        msg = "cannot read (%s)" % e
    if msg:
        print("%s: DIFFERS: %s" % (name, msg))
        bad += 1
    else:
        print("%s: ok" % name)
    return 1 if bad else 0


USAGE = "usage: make_authors_instances.py [--out DIR] [--sweep FILE] | --check [DIR] [--sweep FILE]"


def main(argv):
    args = argv[1:]
    check = False
    out_dir = DEFAULT_DIR
    sweep_path = DEFAULT_SWEEP
    if "--sweep" in args:
        i = args.index("--sweep")
        if i + 1 >= len(args):
            sys.exit(USAGE)
        sweep_path = args[i + 1]
        args = args[:i] + args[i + 2:]
    if args and args[0] == "--check":
        check = True
        if len(args) > 2:
            sys.exit(USAGE)
        if len(args) == 2:
            out_dir = args[1]
    elif args and args[0] == "--out":
        if len(args) != 2:
            sys.exit(USAGE)
        out_dir = args[1]
    elif args:
        sys.exit(USAGE)
    if np is None:
        print("SKIP: numpy not available (python3-numpy); the committed instance files were not "
              "re-derived")
        return 77
    if check:
        return check_all(out_dir, sweep_path)
    return write_all(out_dir, sweep_path)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
