"""softcert.check(..., drop=[...]) takes hypotheses back as `softcert check --drop` does, with
the same record, and refuses by name what it cannot drop (docs/python.md). Run by CTest's
python_module_pytest.
"""
import json
import os
import subprocess

import pytest

import softcert

SOURCE_DIR = os.environ.get("SOFTCERT_SOURCE_DIR",
                            os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..")))
BINARY = os.environ.get("SOFTCERT_BINARY", os.path.join(SOURCE_DIR, "build", "softcert"))
ORDER = "varre2026.order_preservation"


def nonuniform_start():
    # a(0) = (0, 2): outside uniform-a0; u(0) = (0.01, 0) distinct
    return softcert.Instance(V=[["0.01", "0"]], a=["0", "2"], beta=["1"], id="nonuniform")


def test_check_drop_takes_a_hypothesis_back_as_the_cli_does(tmp_path):
    assumed = softcert.check(ORDER, nonuniform_start(), horizon=5)
    assert assumed["verdict"] == "inconclusive"
    assert assumed["details"]["failed_hypothesis"] == "uniform-a0"
    assert "dropped" not in assumed
    dropped = softcert.check(ORDER, nonuniform_start(), horizon=5, drop=["uniform-a0"])
    assert dropped["verdict"] == "violated" and dropped["dropped"] == ["uniform-a0"]
    assert "counterexample" in dropped
    # from a file, the CLI's record apart from the seconds
    path = tmp_path / "nonuniform.json"
    path.write_text(nonuniform_start().to_json())
    out = tmp_path / "cli.jsonl"
    r = subprocess.run([BINARY, "check", ORDER, "--instance", str(path), "--horizon", "5", "--drop", "uniform-a0",
                        "-q", "--json", str(out)], capture_output=True, text=True, check=False)
    assert r.returncode == 1, r.stdout + r.stderr
    cli = json.loads(out.read_text().splitlines()[0])
    py = softcert.check(ORDER, str(path), horizon=5, drop=("uniform-a0",))
    assert {k: v for k, v in py.items() if k != "seconds"} == {k: v for k, v in cli.items() if k != "seconds"}


@pytest.mark.parametrize("drop, message", [
    (["uniform"], r'^drop: varre2026\.order_preservation has no hypothesis "uniform" '
                  r"\(its hypotheses: uniform-a0, distinct-u0\)$"),
    ("uniform-a0", r"^drop: expected a list of hypothesis names, got str"),
    ([3], r"^drop: expected hypothesis names \(str\), got int"),
])
def test_check_drop_refuses_what_it_cannot_drop_by_name(drop, message):
    with pytest.raises(ValueError, match=message):
        softcert.check(ORDER, nonuniform_start(), horizon=5, drop=drop)
