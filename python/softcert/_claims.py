"""Claims of your own over the validated curve: tube(), Tube, Segment, Interval, Check, suite().

A claim "P(state(t)) for every t in [0, H]" is a margin function m(segment) > 0. tube() gives
the validated segments; on each, the state's enclosures are mpmath intervals (``mpmath.iv``,
outward-rounded arithmetic), so m(segment) evaluated in them encloses m(state(t)) for every t of
the segment. Check(...) registers such a claim with the engine, which judges it with the same
verdict policy as every built-in check (docs/python.md, "Your own claim").
"""
import importlib
import math
import os
import sys
from typing import Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Union

from . import _core

try:  # mpmath's interval context: every operation rounded outward
    import mpmath
    from mpmath import libmp
except ImportError:  # pragma: no cover - mpmath is a dependency (scripts/install-deps.sh)
    mpmath = None


def _need_mpmath() -> None:
    if mpmath is None:
        raise ImportError("softcert's segments need mpmath (apt-get install python3-mpmath)")


class Interval(NamedTuple):
    """A closed interval [lower, upper] of floats that encloses an exact value."""

    lower: float
    upper: float

    @property
    def width(self) -> float:
        return self.upper - self.lower

    def contains(self, x: float) -> bool:
        return self.lower <= x <= self.upper

    def to_mpmath(self) -> "mpmath.iv.mpf":
        """The same interval as an mpmath interval (exact: both ends are floats)."""
        _need_mpmath()
        return mpmath.iv.mpf([self.lower, self.upper])

    @staticmethod
    def of(x: Any) -> "Interval":
        """An mpmath interval, an Interval or an int as an Interval, its ends rounded outward to
        floats. A float is refused: it would carry no guarantee."""
        if isinstance(x, Interval):
            return x
        if isinstance(x, bool) or (not isinstance(x, int) and not hasattr(x, "_mpi_")):
            raise TypeError("a margin must be an mpmath interval (compute it from the segment's values), "
                            "an Interval or an int; got %s" % type(x).__name__)
        if isinstance(x, int):
            x = mpmath.iv.mpf(x)
        lo_mpf, hi_mpf = x._mpi_
        lo = libmp.to_float(lo_mpf, rnd=libmp.round_floor)
        hi = libmp.to_float(hi_mpf, rnd=libmp.round_ceiling)
        if math.isnan(lo) or math.isnan(hi) or lo > hi:
            raise ValueError("a margin's interval is not a proper enclosure: [%r, %r]" % (lo, hi))
        return Interval(lo, hi)


class Segment:
    """One validated step of the curve. Guarantee: for every time t this step covers (all of them
    lie in ``t``, which may reach past them), a(t), u(t), softmax(a(t)) and the loss at t lie in
    ``a``, ``u``, ``softmax``, ``loss`` (mpmath intervals; tokens numbered from 0)."""

    __slots__ = ("index", "t", "a", "u", "softmax", "loss")

    def __init__(self, raw: Dict[str, Any], k: int) -> None:
        iv = mpmath.iv.mpf
        self.index = k
        self.t = iv(list(raw["t"][k]))
        self.a = tuple(iv(list(p)) for p in raw["a"][k])
        self.u = tuple(iv(list(p)) for p in raw["u"][k])
        self.softmax = tuple(iv(list(p)) for p in raw["softmax"][k])
        self.loss = iv(list(raw["loss"][k]))

    def __repr__(self) -> str:
        lo, hi = Interval.of(self.t)  # the range's own float ends, exactly
        return "softcert.Segment(%d, t=[%r, %r])" % (self.index, lo, hi)


class Tube:
    """The validated curve of softcert.tube(): ``segments`` (Segment objects) and the same as numpy
    arrays of [lower, upper] pairs — ``t`` (K, 2), ``a``, ``u``, ``softmax`` (K, T, 2), ``loss``
    (K, 2).

    Guarantee: every t in [0, t_reached] lies in the time range of some segment whose enclosures
    hold the state at t; a property proved on every segment holds for all t in [0, t_reached].
    ``complete``: the run reached H (t_reached is H rounded down); otherwise ``stopped`` says why
    (interrupted, a step not validated, the budget) and nothing is claimed beyond t_reached."""

    def __init__(self, raw: Dict[str, Any]) -> None:
        _need_mpmath()
        self._raw = raw
        for key in ("t", "a", "u", "softmax", "loss", "complete", "t_reached", "stopped", "precision_bits", "order",
                    "time_variable"):
            setattr(self, key, raw[key])
        self.H = raw.get("H")
        self.seconds = raw.get("seconds")
        self._segments: Optional[List[Segment]] = None

    @property
    def segments(self) -> List[Segment]:
        if self._segments is None:
            self._segments = [Segment(self._raw, k) for k in range(len(self._raw["t"]))]
        return self._segments

    def __len__(self) -> int:
        return len(self._raw["t"])

    def __iter__(self) -> Iterator[Segment]:
        return iter(self.segments)

    def bound(self, f: Callable[[Segment], Any]) -> Interval:
        """An interval holding f(state(t)) for every t in [0, t_reached]: the hull of f over the
        segments (f evaluated in interval arithmetic)."""
        values = [Interval.of(f(s)) for s in self.segments]
        return Interval(min(v.lower for v in values), max(v.upper for v in values))

    def minimum(self, f: Callable[[Segment], Any]) -> Interval:
        """An interval holding min over t in [0, t_reached] of f(state(t))."""
        return Interval(*_judge(f, self._raw))

    def __repr__(self) -> str:
        return "softcert.Tube(%d segments, t in [0, %r], complete=%r%s)" % (
            len(self), self.t_reached, self.complete, "" if self.complete else ", stopped=%r" % self.stopped)


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during tube(): ``partial`` is the Tube validated until the interrupt (complete False)."""

    def __init__(self, partial: Tube) -> None:
        super().__init__("interrupted at t = %r: e.partial holds the curve validated so far" % partial.t_reached)
        self.partial = partial


def _judge(margin: Callable[[Segment], Any], raw: Dict[str, Any]) -> tuple:
    """(lower, upper) enclosing min over the segments of margin(segment) — the engine's margin of a
    claim for all t (python/python_check.hpp)."""
    _need_mpmath()
    if len(raw["t"]) == 0:
        raise ValueError("a curve without segments proves nothing")
    lo = hi = math.inf
    for k in range(len(raw["t"])):
        v = Interval.of(margin(Segment(raw, k)))
        lo, hi = min(lo, v.lower), min(hi, v.upper)
    return lo, hi


def tube(instance: Any, H: Union[float, int, str], *, precision: int = 53, time: str = "auto",
         progress: Optional[Callable[[int, float], Any]] = None) -> Tube:
    """The validated curve of the instance's gradient flow over [0, H], segment by segment.

    For the value-softmax model with logistic loss and softmax (the reduced form; integrate() and
    trajectory() take the other models). ``H`` > 0 as in integrate(); ``precision`` 53 to 4096
    bits; ``time`` "auto" (the plan's), "t" or "tau"; ``progress(steps, t)`` as in integrate().
    Returns a Tube (its guarantee in help(softcert.Tube)). A step that cannot be validated ends the
    curve early (``complete`` False, ``stopped`` says why) instead of raising. Ctrl-C stops the
    run after its current step and raises softcert.Interrupted, whose ``partial`` is the Tube so far.
    """
    raw = _core.tube(instance, H, precision=precision, time=time, progress=progress)
    t = Tube(raw)
    if raw["interrupted"]:
        raise Interrupted(t)
    return t


class Check:
    """A claim of your own, judged by the engine like a built-in check.

    Check(name, statement, margin, *, hypotheses=None, generate=None, horizon=10.0)

    The claim: margin(segment) > 0 for every t in [0, H] (H: the run's horizon, else ``horizon``)
    on the value-softmax model with logistic loss and softmax. ``margin`` takes a Segment and
    returns an mpmath interval computed from its values (e.g. ``lambda s: 0.7 - s.loss``).
    ``hypotheses``: a dict name -> predicate(instance) -> bool, tested on every instance before
    the check runs (drop=[...] does not assume them); ``generate``: seed -> Instance, for
    generated instances. Rigorous tier: proved when the margin's enclosure over every validated
    segment is > 0, violated when it is < 0 on a whole segment (a certified counterexample),
    inconclusive otherwise. Fast tier: the margin at 200 times of two fast runs (53 and 106 bits),
    confirmed when both agree that it is > 0. Once constructed, ``name`` works everywhere a check's
    name does: softcert.check(name, ...), softcert.suite(file) (an entry with
    ``python = "module:attribute"``), checks().
    """

    def __init__(self, name: str, statement: str, margin: Callable[[Segment], Any], *,
                 hypotheses: Optional[Dict[str, Callable[[Any], bool]]] = None,
                 generate: Optional[Callable[[int], Any]] = None, horizon: float = 10.0) -> None:
        _need_mpmath()
        _core.register_check(name, statement, margin, hypotheses, generate, float(horizon))
        self.name, self.statement, self.margin, self.horizon = name, statement, margin, horizon

    def __call__(self, instance: Any, **options: Any) -> dict:
        """softcert.check(self.name, instance, **options): the record."""
        from . import check
        return check(self.name, instance, **options)

    def __repr__(self) -> str:
        return "softcert.Check(%r)" % self.name


def suite(file: Union[str, "os.PathLike[str]"], *, out: Union[None, str, "os.PathLike[str]"] = None,
          jobs: int = 1) -> dict:
    """Runs a suite file as ``softcert suite FILE --out OUT --jobs JOBS`` does, with the claims
    registered from Python: an entry's ``python = "module:attribute"`` is imported first (the
    suite file's folder is searched too) and must be a softcert.Check of the entry's name.
    Returns {"exit_status": 0 | 1 | 3, "records": [...], "notes": [...]}; with ``out`` the reports
    are written there as the CLI writes them."""
    import tomllib
    path = os.fspath(file)
    with open(path, "rb") as f:
        entries = tomllib.load(f).get("check", [])
    folder = os.path.dirname(os.path.abspath(path))
    for e in entries if isinstance(entries, list) else []:
        where = e.get("python") if isinstance(e, dict) else None
        if not isinstance(where, str):
            continue
        module_name, _, attribute = where.partition(":")
        sys.path.insert(0, folder)
        try:
            obj = getattr(importlib.import_module(module_name), attribute)
        finally:
            sys.path.remove(folder)
        if not isinstance(obj, Check) or obj.name != e.get("name"):
            raise ValueError("%s: python = %r is not a softcert.Check named %r" % (path, where, e.get("name")))
    return _core.suite(path, out, jobs)
