"""softcert: certified gradient flows of softmax-attention models and theorem checks.

The engine of the ``softcert`` command, from Python (docs/python.md in the repository):

- ``Instance(V=..., a=..., beta=...)``: a problem instance from numpy arrays (every float64 taken
  exactly, as its exact decimal expansion).
- ``integrate(instance, t, tier="fast" | "rigorous")``: the state at time t, with derived
  quantities (entropy, max weight, argmax, score gap). The rigorous tier returns enclosures
  ``[lower, upper]`` that contain the exact value of the exact flow.
- ``trajectory(instance, times, tier=...)``: the state at many times in one pass;
  ``Trajectory.to_pandas()`` and ``plot(trajectory, "entropy")`` draw it with its bands.
- ``check(name, instance)``: a theorem check's record, as ``softcert check --json`` writes it.
- ``tube(instance, H)``: the validated curve over [0, H], segment by segment, for "for all t"
  properties; ``Check(name, statement, margin)`` states a claim of your own that the engine
  judges; ``suite(file)`` runs a suite file with such claims.

Tokens — and so every index: scores a[k], weights softmax[k], argmax — are numbered from 0, as
everywhere in softcert. ``help(softcert.integrate)`` states each tier's guarantee.
"""
from typing import Any, Callable, Optional, Sequence, Union

from . import _core
from ._core import (  # noqa: F401  (the extension: python/softcert_module.cpp)
    FastOverflow,
    FastResult,
    Instance,
    KinkPossible,
    RigorousFailure,
    RigorousResult,
    Trajectory,
    __version__,
    checks,
    exact_decimal,
    git_commit,
)
from ._claims import Check, Interrupted, Interval, Segment, Tube, suite, tube
from ._frames import to_pandas
from ._plot import plot

Number = Union[float, int, str]
Progress = Optional[Callable[[int, float], Any]]


def integrate(instance: Instance, t: Number, *, tier: str = "fast", precision: int = 53, stepper: str = "auto",
              form: str = "full", time: str = "auto", tolerance: Optional[float] = None, reference: bool = True,
              progress: Progress = None) -> Union[FastResult, RigorousResult]:
    """The state of the instance's gradient flow at time ``t``, as ``softcert integrate INSTANCE --t T``.

    Arguments
      instance   a softcert.Instance.
      t          the time, > 0: a float (taken exactly, as its exact decimal expansion), an int, or
                 a decimal string ("0.1" is the real 1/10).
      tier       "fast" (floating point, no guarantee) or "rigorous" (validated enclosures).
      precision  bits, 53 (double) to 65536; the rigorous tier takes at most 4096. Above 53 MPFR
                 runs at the request rounded up to whole decimal digits (256 -> 257 bits); the
                 result's ``precision_bits`` is the precision actually used.
      stepper, form, time, tolerance
                 the CLI's --stepper, --form, --time, --tolerance (fast tier; ``time`` also picks
                 the rigorous tier's time variable: "auto", the plan's — docs/method.md §5c —, "t"
                 or "tau"; a choice no method serves is a ValueError).
      reference  fast tier: also run at 2x the precision and report ``digits`` of agreement
                 (the CLI's default; reference=False is --no-check).
      progress   None or a callable progress(steps, t), called on this thread about every 0.25 s
                 during a long run and once at the end (rigorous tier: validated steps and the
                 time t reached). An exception it raises stops the call as Ctrl-C does and is
                 re-raised. Ctrl-C stops a rigorous run after its current validated step (a
                 fast-tier run finishes first) and raises KeyboardInterrupt.

    Returns
      tier="fast" -> FastResult: ``state`` (dict of numpy arrays "a", "u", "softmax", "V", the
        float "loss", and the derived point values "entropy", "max_weight", "score_gap",
        "gaps_to_max", "argmax"), ``digits`` (agreement with the reference run), ``steps``,
        ``decimals`` and ``json`` (the CLI's --json object). No guarantee: floating point.
      tier="rigorous" -> RigorousResult: ``lower`` and ``upper`` (dicts of the same keys,
        outward-rounded doubles), ``decimals`` (exact [lower, upper] decimal strings),
        ``argmax``, ``derived``, ``max_width`` (largest width over a, u and the loss), ``steps``,
        ``json``.

    Guarantee (rigorous tier): for every key, the exact value of that quantity of the exact
    gradient flow at t, started from the instance's exact decimal data, lies in
    [lower[key], upper[key]] — a, u, softmax (the normalization's weights), V, the loss, and the
    derived quantities, which are enclosed in interval arithmetic from the state's enclosures:
    "entropy" of the weights α/Σα (natural log; NaN when not enclosed, e.g. signed weights of the
    sum normalization), "max_weight" max_k α_k/Σα, "score_gap" the largest score minus the
    second largest, "gaps_to_max" max_k a_k − a_j per token j; ``argmax`` is the token whose
    weight is certainly above every other (None, or -1 in the arrays, when that is not certain).
    A step that cannot be validated raises RigorousFailure (KinkPossible for |x| and relu near a
    kink), never an unproved result. The fast tier raises FastOverflow when floating point
    overflows.

    Models: the rigorous tier uses the reduced logistic form for value_softmax + logistic +
    softmax, else the full state of any model (value_softmax with any loss and normalization,
    tied_value_softmax). For the tied model "V" holds U and "softmax" is softmax(U a).
    Tokens are numbered from 0.
    """
    return _core.integrate(instance, t, tier=tier, precision=precision, stepper=stepper, form=form, time=time,
                           tolerance=tolerance, reference=reference, progress=progress)


def trajectory(instance: Instance, times: Sequence[Number], *, tier: str = "fast", precision: int = 53,
               stepper: str = "auto", form: str = "full", time: str = "auto", tolerance: Optional[float] = None,
               reference: bool = False, progress: Progress = None) -> Trajectory:
    """The state at many times, in ONE integration pass, ready for plotting.

    ``times`` strictly increasing and > 0 (the rigorous tier also allows a first time 0: the
    exact start). Arguments as for integrate(); ``reference`` is False by default here.

    tier="rigorous": one validated pass through all times, for every model the rigorous tier
      integrates (the reduced logistic form in τ-time as ``softcert reproduce varre2026-headline``;
      else the full state, validated steps all the way — no PL tail). Each time's enclosures
      carry integrate()'s guarantee; they can differ in their last digits from
      integrate(..., tier="rigorous") at that time (another step sequence) — both contain the
      exact value. Returns a Trajectory with ``lower`` and ``upper`` (dicts of arrays stacked on a
      leading time axis: "softmax" (n, T), "V" (n, d, T), "loss", "entropy", "max_weight",
      "score_gap" (n,), "gaps_to_max" (n, T), "argmax" (n,) with -1 where not certain) and
      ``max_width``.
    tier="fast": one t-time run of the controlled stepper that lands exactly on every time (no
      per-time rerun, no interpolation); ``state`` stacked likewise. With reference=True a second
      pass at twice the precision gives ``digits`` per time. No guarantee.

    Both: ``t`` (the times as exact decimal strings), ``times`` (float64), ``results`` (one
    FastResult/RigorousResult per time), ``steps`` (cumulative), ``seconds``; ``to_pandas()``
    gives a DataFrame, ``softcert.plot(tr, "entropy")`` draws a quantity with its bands.
    Tokens are numbered from 0.
    """
    return _core.trajectory(instance, times, tier=tier, precision=precision, stepper=stepper, form=form, time=time,
                            tolerance=tolerance, reference=reference, progress=progress)


def check(name: str, instance: Union[Instance, str, "os.PathLike[str]"], *, horizon: Optional[float] = None,
          tier: str = "rigorous", precision: int = 0, params: Optional[dict] = None, seed: int = 1,
          drop: Optional[Sequence[str]] = None) -> dict:
    """Runs the theorem check ``name`` on one instance; returns its record as a dict.

    The record is the one ``softcert check NAME --instance FILE --json OUT`` writes
    (docs/reports.md): "verdict" (proved / violated / inconclusive / error / ...), "margin",
    "reason", "details", "counterexample" (on violated), "seconds". ``instance`` is a
    softcert.Instance or a path to an instance file. ``horizon``, ``tier``, ``precision`` (0: the
    check's default), ``params`` (the CLI's --param key=value) and ``drop`` (a list of hypothesis
    names, the CLI's --drop: not assumed, so not tested on the instance; the record carries
    "dropped") are the CLI's options. Every hypothesis not dropped is tested on the instance
    first: one that fails gives "inconclusive" naming it. A "proved" verdict rests on rigorous
    enclosures or exact certificates; a bad instance gives verdict "error"; an unknown check,
    an unknown hypothesis or a bad option raises ValueError naming it. softcert.checks() lists
    the checks and their hypotheses.
    """
    return _core.check(name, instance, horizon=horizon, tier=tier, precision=precision, params=params, seed=seed,
                       drop=drop)


def search(name: str, *, drop: Optional[Sequence[str]] = None, seed: int = 1, budget: float = 60.0,
           max_samples: int = 0, horizon: Optional[float] = None, params: Optional[dict] = None) -> dict:
    """A counterexample search, as ``softcert search NAME --drop H ... --budget SECONDS``
    (docs/search.md), for any registered check — the claims stated with softcert.Check too.

    Samples the check's generator (a Check needs ``generate``) with the hypotheses in ``drop``
    not assumed, optimises locally, shrinks what it finds and certifies it in the rigorous tier.
    Returns the record ``softcert search --out`` writes: when found, the "counterexample" with its
    certified "verdict" "violated", "margin" and "reason" — the fields softcert.replay() and
    ``softcert replay`` read; else "verdict" "none found" and the "closest" instance. "search"
    holds the search's facts. Reproducible for a seed.
    """
    return _core.search(name, drop=drop, seed=seed, budget=budget, max_samples=max_samples, horizon=horizon,
                        params=params)


def replay(record: dict) -> dict:
    """Re-decides a saved counterexample (a search record, or a check record with verdict
    violated) in the rigorous tier, as ``softcert replay FILE``: {"verdict", "margin", "reason"};
    "violated" reproduces it. A record that is not replayable raises ValueError saying why."""
    return _core.replay(record)


for _cls in (Trajectory, FastResult, RigorousResult):
    _cls.to_pandas = to_pandas

# Instance's keyword-only constructor, visible to inspect.signature and help().
import inspect as _inspect  # noqa: E402

Instance.__signature__ = _inspect.Signature([
    _inspect.Parameter(_n, _inspect.Parameter.KEYWORD_ONLY, default=_d) for _n, _d in (
        ("V", None), ("a", None), ("beta", None), ("loss", "logistic"), ("normalization", "softmax"), ("X", None),
        ("y", None), ("p", None), ("provenance", "python"), ("U", None), ("model", None), ("id", None),
        ("seed", None), ("p_logits", None), ("authors_run", None), ("loss_formula", None),
        ("normalization_formula", None))])
del _inspect
for _cls in (FastResult, RigorousResult, Trajectory, Instance):
    _cls.__module__ = __name__
for _exc in (RigorousFailure, KinkPossible, FastOverflow):
    _exc.__module__ = __name__
del _cls, _exc

import os  # noqa: E402  (for the annotation above)

for _cls in (Check, Interrupted, Interval, Segment, Tube):
    _cls.__module__ = __name__
del _cls

__all__ = [
    "Check", "FastOverflow", "FastResult", "Instance", "Interrupted", "Interval", "KinkPossible", "RigorousFailure",
    "RigorousResult", "Segment", "Trajectory", "Tube", "check", "checks", "exact_decimal", "integrate", "plot",
    "replay", "search", "suite", "to_pandas", "trajectory", "tube",
]
