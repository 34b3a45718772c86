# Type stubs of the softcert package (python/softcert/__init__.py and its extension
# python/softcert_module.cpp); docs/python.md describes every name. Tokens are numbered from 0.
import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str
git_commit: str

Number = Union[float, int, str]
ArrayLike = Union[npt.NDArray[Any], Sequence[Any]]
Progress = Optional[Callable[[int, float], Any]]

class RigorousFailure(RuntimeError): ...

class KinkPossible(RigorousFailure):
    info: Dict[str, Any]

class FastOverflow(RuntimeError): ...

class Instance:
    def __init__(self, *, V: Optional[ArrayLike] = ..., a: Optional[ArrayLike] = ..., beta: Optional[ArrayLike] = ...,
                 loss: str = ..., normalization: str = ..., X: Optional[ArrayLike] = ..., y: Optional[ArrayLike] = ...,
                 p: Optional[ArrayLike] = ..., provenance: str = ..., U: Optional[ArrayLike] = ...,
                 model: Optional[str] = ..., id: Optional[str] = ..., seed: Optional[int] = ...,
                 p_logits: Optional[ArrayLike] = ..., authors_run: Optional[Mapping[str, Any]] = ...) -> None: ...
    @staticmethod
    def from_json(json: Union[str, bytes, Mapping[str, Any]]) -> Instance: ...
    @staticmethod
    def load(path: str) -> Instance: ...
    def to_json(self, indent: int = ...) -> str: ...
    def decimals(self, field: str) -> Any: ...
    model: str
    loss: str
    normalization: str
    T: int
    d: int
    provenance: str
    id: Optional[str]
    seed: Optional[int]
    V: npt.NDArray[np.float64]
    U: Optional[npt.NDArray[np.float64]]
    a: npt.NDArray[np.float64]
    beta: Optional[npt.NDArray[np.float64]]
    X: Optional[npt.NDArray[np.float64]]
    y: Optional[npt.NDArray[np.float64]]
    p: Optional[npt.NDArray[np.float64]]

class FastResult:
    tier: str
    t: str
    tau: Optional[str]
    precision_bits: int
    stepper: str
    form: str
    tolerance: float
    steps: int
    rejected_steps: int
    seconds: float
    state: Dict[str, Any]
    argmax: Optional[int]
    decimals: Dict[str, Any]
    digits: Optional[float]
    digits_by_field: Dict[str, float]
    reference: Optional[Dict[str, Any]]
    json: Dict[str, Any]
    def to_pandas(self) -> Any: ...

class RigorousResult:
    tier: str
    t: str
    precision_bits: int
    order: int
    time_variable: str
    steps: int
    max_width: float
    tau: Optional[Tuple[str, str]]
    seconds: Optional[float]
    lower: Dict[str, Any]
    upper: Dict[str, Any]
    argmax: Optional[int]
    derived: Dict[str, Any]
    decimals: Dict[str, Any]
    json: Dict[str, Any]
    def intervals(self, field: str) -> Any: ...
    def to_pandas(self) -> Any: ...

class Trajectory:
    tier: str
    t: List[str]
    times: npt.NDArray[np.float64]
    results: List[Union[FastResult, RigorousResult]]
    steps: List[int]
    seconds: float
    lower: Dict[str, Any]
    upper: Dict[str, Any]
    state: Dict[str, Any]
    max_width: float
    digits: Optional[npt.NDArray[np.float64]]
    reference: bool
    def to_pandas(self) -> Any: ...

def integrate(instance: Instance, t: Number, *, tier: str = ..., precision: int = ..., stepper: str = ...,
              form: str = ..., time: str = ..., tolerance: Optional[float] = ..., reference: bool = ...,
              progress: Progress = ...) -> Union[FastResult, RigorousResult]: ...
def trajectory(instance: Instance, times: Sequence[Number], *, tier: str = ..., precision: int = ...,
               stepper: str = ..., form: str = ..., time: str = ..., tolerance: Optional[float] = ...,
               reference: bool = ..., progress: Progress = ...) -> Trajectory: ...
def check(name: str, instance: Union[Instance, str, os.PathLike[str]], *, horizon: Optional[float] = ...,
          tier: str = ..., precision: int = ..., params: Optional[Mapping[str, Any]] = ..., seed: int = ...,
          drop: Optional[Sequence[str]] = ...) -> Dict[str, Any]: ...
def checks() -> List[Dict[str, Any]]: ...
def exact_decimal(x: float) -> str: ...
def to_pandas(self: Union[Trajectory, FastResult, RigorousResult]) -> Any: ...
def plot(trajectory: Trajectory, quantity: str = ..., *, ax: Any = ..., tokens: Optional[Sequence[int]] = ...,
         logx: Optional[bool] = ..., label: Optional[str] = ..., **line_kwargs: Any) -> Any: ...

class Interval(Tuple[float, float]):
    lower: float
    upper: float
    @property
    def width(self) -> float: ...
    def contains(self, x: float) -> bool: ...
    def to_mpmath(self) -> Any: ...
    @staticmethod
    def of(x: Any) -> Interval: ...

class Segment:
    index: int
    t: Any
    a: Tuple[Any, ...]
    u: Tuple[Any, ...]
    softmax: Tuple[Any, ...]
    loss: Any

class Tube:
    segments: List[Segment]
    t: npt.NDArray[np.float64]
    a: npt.NDArray[np.float64]
    u: npt.NDArray[np.float64]
    softmax: npt.NDArray[np.float64]
    loss: npt.NDArray[np.float64]
    complete: bool
    t_reached: float
    stopped: str
    precision_bits: int
    order: int
    time_variable: str
    H: str
    seconds: float
    def __len__(self) -> int: ...
    def bound(self, f: Callable[[Segment], Any]) -> Interval: ...
    def minimum(self, f: Callable[[Segment], Any]) -> Interval: ...

class Interrupted(KeyboardInterrupt):
    partial: Tube

class Check:
    name: str
    statement: str
    horizon: float
    def __init__(self, name: str, statement: str, margin: Callable[[Segment], Any], *,
                 hypotheses: Optional[Dict[str, Callable[[Instance], bool]]] = ...,
                 generate: Optional[Callable[[int], Instance]] = ..., horizon: float = ...) -> None: ...
    def __call__(self, instance: Union[Instance, str, os.PathLike[str]], **options: Any) -> Dict[str, Any]: ...

def tube(instance: Instance, H: Number, *, precision: int = ..., time: str = ..., progress: Progress = ...) -> Tube: ...
def suite(file: Union[str, os.PathLike[str]], *, out: Union[None, str, os.PathLike[str]] = ..., jobs: int = ...) -> Dict[str, Any]: ...
def search(name: str, *, drop: Optional[Sequence[str]] = ..., seed: int = ..., budget: float = ...,
           max_samples: int = ..., horizon: Optional[float] = ..., params: Optional[Dict[str, Any]] = ...) -> Dict[str, Any]: ...
def replay(record: Dict[str, Any]) -> Dict[str, Any]: ...
