"""Trajectory.to_pandas(): a trajectory as a pandas DataFrame (docs/python.md)."""

_SCALARS = ("loss", "entropy", "max_weight", "score_gap")
_VECTORS = ("a", "u", "softmax", "gaps_to_max")


def to_pandas(self):
    """The trajectory as a pandas DataFrame, one row per time (index "t", float64).

    Rigorous: columns "<q>_lower" and "<q>_upper" (outward-rounded doubles: the exact value lies
    between them) for q in loss, entropy, max_weight, score_gap and, per token k (from 0),
    "a[k]", "u[k]", "softmax[k]", "gaps_to_max[k]"; "argmax" (-1: not certain); "steps".
    Fast: the same quantities as single columns "<q>" (point values, no guarantee), "digits"
    when the reference run was asked for, "steps". V is left out (d x T per time): it is in
    ``trajectory.lower["V"]`` / ``upper["V"]`` / ``state["V"]``. Needs pandas (Debian:
    python3-pandas).
    """
    try:
        import pandas as pd
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("to_pandas() needs pandas (apt-get install python3-pandas)") from e
    cols = {}
    sides = (("lower", self.lower), ("upper", self.upper)) if self.tier == "rigorous" else (("", self.state),)
    for side, d in sides:
        suffix = "_" + side if side else ""
        for q in _SCALARS:
            if d.get(q) is not None:
                cols[q + suffix] = d[q]
        for q in _VECTORS:
            if d.get(q) is None:
                continue
            for k in range(d[q].shape[1]):
                cols["%s[%d]%s" % (q, k, suffix)] = d[q][:, k]
    ref = self.lower if self.tier == "rigorous" else self.state
    cols["argmax"] = ref["argmax"]
    if self.tier == "fast" and getattr(self, "digits", None) is not None:
        cols["digits"] = self.digits
    cols["steps"] = list(self.steps)
    frame = pd.DataFrame(cols, index=pd.Index(self.times, name="t"))
    frame.attrs["tier"] = self.tier
    frame.attrs["t_exact"] = list(self.t)
    return frame
