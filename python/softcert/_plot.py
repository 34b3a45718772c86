"""softcert.plot: a quantity of a trajectory against t, with its enclosure bands (docs/python.md)."""

_SCALARS = ("loss", "entropy", "max_weight", "score_gap")
_VECTORS = ("a", "u", "softmax", "gaps_to_max")


def plot(trajectory, quantity="softmax", *, ax=None, tokens=None, logx=None, label=None, **line_kwargs):
    """Draws ``quantity`` of ``trajectory`` against t on a matplotlib Axes and returns the Axes.

    quantity  "softmax", "a", "u", "gaps_to_max" (one curve per token k, numbered from 0; pick
              some with ``tokens=[...]``) or "entropy", "max_weight", "loss", "score_gap".
    Rigorous trajectories: each curve is a band filled between the outward-rounded lower and
              upper ends — the exact value lies inside it at every plotted time — and a thin line
              at the band's middle (for drawing only). Bands narrower than a line are still
              drawn; see ``trajectory.max_width`` for how narrow they are.
    Fast trajectories: plain lines (no guarantee).
    ax        an Axes to draw on (default: a new figure's); logx: log-scaled t axis (default:
              when the times span more than two decades and start above 0); label: the legend
              label (scalar quantities) or its prefix; other keyword arguments go to ``plot``.
    Needs matplotlib (Debian: python3-matplotlib).
    """
    try:
        import matplotlib.pyplot as plt
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("plot() needs matplotlib (apt-get install python3-matplotlib)") from e
    import numpy as np

    if quantity not in _SCALARS + _VECTORS:
        raise ValueError("quantity: expected one of %s, got %r" % (", ".join(_SCALARS + _VECTORS), quantity))
    rigorous = trajectory.tier == "rigorous"
    source = trajectory.lower if rigorous else trajectory.state
    if source.get(quantity) is None:
        raise ValueError("quantity: %r is not available for this trajectory (no beta: no u)" % quantity)
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4))
    t = np.asarray(trajectory.times)
    if quantity in _VECTORS:
        n = source[quantity].shape[1]
        picks = range(n) if tokens is None else list(tokens)
        for k in picks:
            if not 0 <= k < n:
                raise ValueError("tokens: token %d out of range (0 to %d)" % (k, n - 1))
        curves = [((label or quantity) + "[%d]" % k, k) for k in picks]
    else:
        curves = [(label or quantity, None)]
    for name, k in curves:
        def column(d):
            v = np.asarray(d[quantity], dtype=float)
            return v if k is None else v[:, k]
        if rigorous:
            lo, hi = column(trajectory.lower), column(trajectory.upper)
            line, = ax.plot(t, (lo + hi) / 2, lw=1, label=name, **line_kwargs)
            ax.fill_between(t, lo, hi, color=line.get_color(), alpha=0.3, lw=0.8, edgecolor=line.get_color())
        else:
            ax.plot(t, column(trajectory.state), lw=1, label=name, **line_kwargs)
    if logx is None:
        logx = t.size > 1 and t[0] > 0 and t[-1] / t[0] > 100
    if logx:
        ax.set_xscale("log")
    ax.set_xlabel("t")
    ax.set_ylabel(quantity)
    ax.set_title("%s (%s tier%s)" % (quantity, trajectory.tier, ": enclosure bands" if rigorous else ", no guarantee"))
    if len(curves) <= 12:
        ax.legend(fontsize=8)
    return ax
