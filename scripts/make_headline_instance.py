#!/usr/bin/python3
"""Writes proofs_checks/instances/varre2026-headline.json, the paper's headline instance.

Run once with Debian's python3-numpy (/usr/bin/python3, numpy 1.24): the draws replay the
authors' notebook (github tml-epfl/softmax, visualizations/toy_experiments.ipynb,
run_experiment(dim=8, seed=123)):

    np.random.seed(123)
    W = 0.1 * np.random.randn(8, 8)   # V(0): d rows of T entries, used as beta = W @ softmax(a)
    a = 0 * np.random.randn(8)        # a(0) = 0; consumes eight draws
    beta = np.random.randn(8)
    beta = beta / np.linalg.norm(beta)

Every value is written as repr() of the double numpy produced (shortest round-trip decimal), so
the file holds exactly the doubles the notebook starts from.
"""
import json
import os
import sys

import numpy as np


def main(out_path):
    np.random.seed(123)
    W = 0.1 * np.random.randn(8, 8)
    a = 0 * np.random.randn(8)
    beta = np.random.randn(8)
    beta = beta / np.linalg.norm(beta)
    inst = {
        "model": "value_softmax",
        "loss": "logistic",
        "normalization": "softmax",
        "T": 8,
        "d": 8,
        "V": [[repr(float(W[i, j])) for j in range(8)] for i in range(8)],
        "a": [repr(float(x) + 0.0) for x in a],
        "beta": [repr(float(x)) for x in beta],
        "id": "varre2026-headline",
        "provenance": (
            "scripts/make_headline_instance.py with Debian python3-numpy %s: np.random.seed(123); "
            "V = 0.1*np.random.randn(8,8) (row i = coordinate i of beta, column j = token j); "
            "a = 0*np.random.randn(8); beta = np.random.randn(8); beta /= np.linalg.norm(beta); "
            "values are repr() of the doubles (tml-epfl/softmax visualizations/toy_experiments.ipynb)"
            % np.__version__
        ),
    }
    # One line per field and per row of V, so that the file reads (and diffs) as a matrix.
    lines = []
    for key, value in inst.items():
        if key == "V":
            rows = ",\n   ".join(json.dumps(row) for row in value)
            lines.append(' "V": [\n   %s\n ]' % rows)
        else:
            lines.append(" %s: %s" % (json.dumps(key), json.dumps(value)))
    with open(out_path, "w") as f:
        f.write("{\n" + ",\n".join(lines) + "\n}\n")


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.join(here, "..", "proofs_checks", "instances", "varre2026-headline.json")
    main(sys.argv[1] if len(sys.argv) > 1 else default)
