"""What a user of the module meets first (docs/python.md): to_pandas() of one integrate() result
is a one-row frame (a RigorousResult raised IndexError); Instance == compares the problem, not
where it came from; `pip install .` reuses a build/ configured for this Python. Run by CTest's
python_module_pytest.
"""
import json
import os

import numpy as np
import pytest

import softcert

SOURCE_DIR = os.environ.get("SOFTCERT_SOURCE_DIR",
                            os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..")))
HEADLINE = os.path.join(SOURCE_DIR, "proofs_checks", "instances", "authors", "headline.json")


def test_to_pandas_of_one_result_is_one_row_at_its_time():
    pd = pytest.importorskip("pandas")
    inst = softcert.Instance.load(HEADLINE)
    r = softcert.integrate(inst, 10, tier="rigorous")
    for df in (r.to_pandas(), softcert.to_pandas(r)):
        assert isinstance(df, pd.DataFrame) and len(df) == 1 and df.index.name == "t" and df.index[0] == 10.0
        assert df.attrs["t_exact"] == [r.t] and df.attrs["tier"] == "rigorous"
        for k in range(inst.T):
            assert df["softmax[%d]_lower" % k].iloc[0] == r.lower["softmax"][k]
            assert df["softmax[%d]_upper" % k].iloc[0] == r.upper["softmax"][k]
        assert df["entropy_lower"].iloc[0] == r.lower["entropy"] <= r.upper["entropy"] == df["entropy_upper"].iloc[0]
        assert df["argmax"].iloc[0] == (-1 if r.argmax is None else r.argmax) and df["steps"].iloc[0] == r.steps
    fast = softcert.integrate(inst, 10)
    fdf = fast.to_pandas()
    assert len(fdf) == 1 and fdf["softmax[0]"].iloc[0] == fast.state["softmax"][0]
    assert fdf["digits"].iloc[0] == fast.digits
    # the columns of a trajectory's row at the same time
    tr = softcert.trajectory(inst, [10], tier="rigorous").to_pandas()
    assert list(tr.columns) == list(r.to_pandas().columns)
    with pytest.raises(TypeError, match="^to_pandas: expected a softcert.Trajectory, FastResult or RigorousResult, "
                                        "got Instance"):
        softcert.to_pandas(inst)


def test_instance_equality_is_the_problem_not_where_it_came_from():
    one = softcert.Instance(V=[["0.1", "2"]], a=["0", "0"], beta=["1"], provenance="mine", id="one")
    other = softcert.Instance(V=[["1e-1", "2.0"]], a=["0", "0.00"], beta=["1"], provenance="theirs", id="two", seed=5)
    assert one == other and not (one != other)  # the same reals, another provenance, id and seed
    assert one != softcert.Instance(V=[["0.1", "2.000001"]], a=["0", "0"], beta=["1"])
    assert one != softcert.Instance(V=[["0.1", "2"]], a=["0", "0"], beta=["2"])
    assert one != softcert.Instance(V=[["0.1", "2"]], a=["1", "1"], beta=["1"], normalization="square")
    assert softcert.Instance(V=np.array([[0.1, 2.0]]), a=[0, 0], beta=[1]) != one  # the double 0.1 is not 1/10
    assert (one == 3) is False
    loaded = softcert.Instance.load(HEADLINE)
    assert softcert.Instance.from_json(json.dumps(dict(json.loads(loaded.to_json()), provenance="elsewhere"))) == loaded


def test_pip_backend_reuses_build_when_it_is_configured_for_this_python(tmp_path, monkeypatch):
    import importlib.util
    import sysconfig
    spec = importlib.util.spec_from_file_location(
        "softcert_build_backend", os.path.join(SOURCE_DIR, "python", "build_backend", "softcert_build_backend.py"))
    backend = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(backend)
    monkeypatch.setattr(backend, "SOURCE", str(tmp_path))
    monkeypatch.delenv("SOFTCERT_BUILD_DIR", raising=False)
    own = str(tmp_path / "build" / ("pip-" + "-".join(backend._tag())))
    assert backend._build_dir() == own  # no build/ at all

    def configure(home=str(tmp_path), python="ON", suffix=sysconfig.get_config_var("EXT_SUFFIX")):
        (tmp_path / "build").mkdir(exist_ok=True)
        (tmp_path / "build" / "CMakeCache.txt").write_text(
            "# a CMake cache\nCMAKE_HOME_DIRECTORY:INTERNAL=%s\nSOFTCERT_PYTHON:BOOL=%s\n"
            "PYTHON_MODULE_EXTENSION:INTERNAL=%s\n" % (home, python, suffix))

    configure()
    assert backend._build_dir() == str(tmp_path / "build")
    configure(suffix=".cpython-39-x86_64-linux-gnu.so")  # another interpreter's build
    assert backend._build_dir() == own
    configure(python="OFF")
    assert backend._build_dir() == own
    configure(home=str(tmp_path / "elsewhere"))  # a build of another source tree
    assert backend._build_dir() == own
    configure()
    monkeypatch.setenv("SOFTCERT_BUILD_DIR", str(tmp_path / "given"))
    assert backend._build_dir() == str(tmp_path / "given")
