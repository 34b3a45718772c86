"""to_pandas(): a trajectory, or one integrate() result, as a pandas DataFrame (docs/python.md)."""

_SCALARS = ("loss", "entropy", "max_weight", "score_gap")
_VECTORS = ("a", "u", "softmax", "gaps_to_max")


def _one_row(result):
    """A FastResult / RigorousResult seen as a trajectory of one time: every array gets a leading
    time axis of length 1 (a per-token vector becomes a 1 x T row)."""
    import numpy as np

    def stacked(d):
        out = {}
        for q in _SCALARS:
            if d.get(q) is not None:
                out[q] = np.array([d[q]], dtype=float)
        for q in _VECTORS:
            if d.get(q) is not None:
                out[q] = np.asarray(d[q], dtype=float)[None, :]
        out["argmax"] = np.array([-1 if result.argmax is None else result.argmax])
        return out

    sides = {"lower": stacked(result.lower), "upper": stacked(result.upper)} if result.tier == "rigorous" \
        else {"state": stacked(result.state)}
    digits = getattr(result, "digits", None)
    return (sides, [float(result.t)], [result.t], [result.steps], None if digits is None else [digits])


def to_pandas(self):
    """The trajectory (or one integrate() result) as a pandas DataFrame, one row per time (index
    "t", float64).

    Rigorous: columns "<q>_lower" and "<q>_upper" (outward-rounded doubles: the exact value lies
    between them) for q in loss, entropy, max_weight, score_gap and, per token k (from 0),
    "a[k]", "u[k]", "softmax[k]", "gaps_to_max[k]"; "argmax" (-1: not certain); "steps".
    Fast: the same quantities as single columns "<q>" (point values, no guarantee), "digits"
    when the reference run was asked for, "steps". V is left out (d x T per time): it is in
    ``trajectory.lower["V"]`` / ``upper["V"]`` / ``state["V"]``. A FastResult or RigorousResult
    gives one row, at its time. Needs pandas (Debian: python3-pandas).
    """
    try:
        import pandas as pd
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("to_pandas() needs pandas (apt-get install python3-pandas)") from e
    if hasattr(self, "times"):  # a Trajectory: arrays already stacked on a time axis
        sides = {"lower": self.lower, "upper": self.upper} if self.tier == "rigorous" else {"state": self.state}
        times, t_exact, steps = self.times, list(self.t), list(self.steps)
        digits = getattr(self, "digits", None)
    elif getattr(self, "tier", None) in ("fast", "rigorous") and hasattr(self, "steps"):
        sides, times, t_exact, steps, digits = _one_row(self)
    else:
        raise TypeError("to_pandas: expected a softcert.Trajectory, FastResult or RigorousResult, got "
                        + type(self).__name__)
    cols = {}
    for side, d in sides.items():
        suffix = "" if side == "state" else "_" + side
        for q in _SCALARS:
            if d.get(q) is not None:
                cols[q + suffix] = d[q]
        for q in _VECTORS:
            if d.get(q) is None:
                continue
            for k in range(d[q].shape[1]):
                cols["%s[%d]%s" % (q, k, suffix)] = d[q][:, k]
    ref = sides["lower"] if self.tier == "rigorous" else sides["state"]
    cols["argmax"] = ref["argmax"]
    if self.tier == "fast" and digits is not None:
        cols["digits"] = digits
    cols["steps"] = steps
    frame = pd.DataFrame(cols, index=pd.Index(times, name="t"))
    frame.attrs["tier"] = self.tier
    frame.attrs["t_exact"] = t_exact
    return frame
