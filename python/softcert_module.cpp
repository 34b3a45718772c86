// The extension softcert._core of the Python package `softcert` (python/softcert/, docs/python.md):
// instances from numpy arrays, the fast and the rigorous tier, trajectories and theorem checks,
// from the same engine as the CLI. The public functions, their docstrings and signatures are
// python/softcert/__init__.py's; every keyword arrives here as a Python object and is converted
// with an error naming it (str_arg, int_arg, ...).
//
// Every path goes through the engine function the CLI uses, so that the numbers are the CLI's:
//   Instance(...)   builds the instance file's JSON and calls instances::parse_instance (the same
//                   validation and messages); float64 values enter as their EXACT decimal
//                   expansion (a double is m·2^e, a terminating decimal), strings as given.
//   integrate()     fast: integrate::integrate_fast with the options of `softcert integrate`;
//                   rigorous: as run_rigorous in src/cli/cmd_integrate.cpp, the reduced form
//                   (rigorous_integrate) where it applies, else rigorous_integrate_model.
//   trajectory()    rigorous: one validated pass, integrate::rigorous_integrate_at (reduced form,
//                   τ-time, as `softcert reproduce varre2026-headline`) or
//                   rigorous_integrate_model_at (full state); fast: integrate::integrate_fast_at,
//                   one t-time run landing on every time.
//   derived         integrate/derived_enclosures.hpp (entropy, max weight, argmax, gaps), the
//                   CLI's "derived" object.
//   check()         engine::run_item, the function that builds each JSONL record of `softcert
//                   check --json`, on a one-entry suite built as src/cli/cmd_check.cpp builds it.
//
// Long computations run in a worker thread with the GIL released; the calling thread waits in
// short intervals and checks for signals. The engine has no cancellation points: on Ctrl-C the
// current run (one integration or one check) finishes first, then KeyboardInterrupt is raised
// and its result is discarded.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gmp.h>
#include <mpfr.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <limits>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/registry.hpp"
#include "engine/run_identity.hpp"
#include "engine/runner.hpp"
#include "engine/suite.hpp"
#include "instances/instance.hpp"
#include "integrate/fast_integrate.hpp"
#include "integrate/rigorous_integrate.hpp"
#include "integrate/rigorous_model.hpp"
#include "integrate/run_knobs.hpp"
#include "integrate/run_plan.hpp"
#include "numerics/decimal.hpp"
#include "numerics/strict_json.hpp"
#include "integrate/derived_enclosures.hpp"
#include "softcert_build_config.hpp"
#include "instance_equality.hpp"

namespace py = pybind11;
using nlohmann::json;
using softcert::instances::Instance;

namespace {

namespace integ = softcert::integrate;
namespace inst_ns = softcert::instances;
namespace engine = softcert::engine;

[[noreturn]] void value_error(const std::string& message) { throw py::value_error(message); }

// ---------------------------------------------------------------------------------------------
// Numbers

// The exact decimal expansion of a double in plain positional notation, "0" for ±0 (the format
// of scripts/make_authors_instances.py: format(Decimal(x), 'f')). |x| = M·2^(−k) with M odd
// when k > 0, so |x| = M·5^k / 10^k: the digits of M·5^k with the point k places from the right.
// NaN and ±inf are written "nan", "inf", "-inf", which instance validation rejects by field.
std::string exact_decimal(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  if (x == 0) return "0";
  int e = 0;
  const double m = std::frexp(std::fabs(x), &e);  // |x| = m·2^e, m ∈ [1/2, 1): exact also for subnormals
  auto M = static_cast<std::uint64_t>(std::ldexp(m, 53));  // exact: 53 bits
  long k = 53 - static_cast<long>(e);                      // |x| = M·2^(−k)
  while (k > 0 && (M & 1u) == 0) {
    M >>= 1;
    --k;
  }
  mpz_t n, p;
  mpz_init_set_ui(n, static_cast<unsigned long>(M));
  mpz_init(p);
  if (k <= 0) {
    mpz_mul_2exp(n, n, static_cast<mp_bitcnt_t>(-k));
  } else {
    mpz_ui_pow_ui(p, 5, static_cast<unsigned long>(k));
    mpz_mul(n, n, p);
  }
  std::string digits(mpz_sizeinbase(n, 10) + 2, '\0');
  mpz_get_str(digits.data(), 10, n);
  digits.resize(std::char_traits<char>::length(digits.c_str()));
  mpz_clear(n);
  mpz_clear(p);
  if (k > 0) {
    const auto K = static_cast<std::size_t>(k);
    if (digits.size() <= K) digits = "0." + std::string(K - digits.size(), '0') + digits;
    else digits.insert(digits.size() - K, ".");
  }
  return x < 0 ? "-" + digits : digits;
}

// The double nearest to a validated decimal string (glibc strtod rounds correctly, as
// num::parse_decimal<Real> does).
double nearest(const std::string& s) { return std::strtod(s.c_str(), nullptr); }

// ---------------------------------------------------------------------------------------------
// Python values → decimal strings (field-named errors)

std::string type_name(py::handle x) { return Py_TYPE(x.ptr())->tp_name; }

// Keyword arguments arrive as Python objects and are converted here, so that a wrong type or
// range raises ValueError naming the argument (never pybind11's cast error).
std::string str_arg(py::handle x, const std::string& field) {
  if (!py::isinstance<py::str>(x)) value_error(field + ": expected a string, got " + type_name(x));
  return x.cast<std::string>();
}

bool is_int(py::handle x) { return !PyBool_Check(x.ptr()) && (PyLong_Check(x.ptr()) || PyIndex_Check(x.ptr())) && !PyFloat_Check(x.ptr()); }

// An integer argument in [lo, hi]; Python ints of any size are compared exactly.
long long int_arg(py::handle x, const std::string& field, long long lo, long long hi, const std::string& range) {
  if (!is_int(x)) value_error(field + ": expected an integer, got " + type_name(x));
  const py::int_ v = py::reinterpret_steal<py::int_>(PyNumber_Index(x.ptr()));
  if (v < py::int_(lo) || v > py::int_(hi))
    value_error(field + ": must be " + range + ", got " + py::str(py::handle(v)).cast<std::string>());
  return v.cast<long long>();
}

bool bool_arg(py::handle x, const std::string& field) {
  if (!PyBool_Check(x.ptr())) value_error(field + ": expected True or False, got " + type_name(x));
  return x.ptr() == Py_True;
}

std::optional<double> optional_float_arg(py::handle x, const std::string& field) {
  if (x.is_none()) return std::nullopt;
  if (PyBool_Check(x.ptr()) || !(PyFloat_Check(x.ptr()) || PyLong_Check(x.ptr())))
    value_error(field + ": expected a number or None, got " + type_name(x));
  return py::cast<double>(x);
}

void check_dtype(const py::array& arr, const std::string& field) {
  const py::dtype dt = arr.dtype();
  const char kind = dt.kind();
  if ((kind == 'f' && dt.itemsize() == 8) || kind == 'i' || kind == 'u' || kind == 'U' || kind == 'O') return;
  value_error(field + ": dtype " + py::str(py::handle(dt)).cast<std::string>() +
              " not accepted (float64, taken exactly; integers; or decimal strings)");
}

std::string scalar_decimal(py::handle x, const std::string& field) {
  if (py::isinstance<py::str>(x)) return x.cast<std::string>();
  const std::string type = type_name(x);
  if (PyBool_Check(x.ptr()) || type.find("bool") != std::string::npos)
    value_error(field + ": expected a float64, an integer or a decimal string, got " + type);
  if (PyFloat_Check(x.ptr())) return exact_decimal(PyFloat_AsDouble(x.ptr()));  // float and numpy.float64
  if (PyLong_Check(x.ptr()) || PyIndex_Check(x.ptr())) return py::str(py::int_(py::reinterpret_borrow<py::object>(x)));
  value_error(field + ": expected a float64, an integer or a decimal string, got " + type);
}

json walk_decimals(py::handle x, const std::string& field) {
  if (py::isinstance<py::array>(x)) {
    const auto arr = py::reinterpret_borrow<py::array>(x);
    check_dtype(arr, field);
    return walk_decimals(arr.attr("tolist")(), field);
  }
  if (PyList_Check(x.ptr()) || PyTuple_Check(x.ptr())) {
    json out = json::array();
    std::size_t i = 0;
    for (py::handle item : py::reinterpret_borrow<py::sequence>(x))
      out.push_back(walk_decimals(item, field + "[" + std::to_string(i++) + "]"));
    return out;
  }
  return scalar_decimal(x, field);
}

std::string shape_text(const py::array& arr) {
  std::string s = "(";
  for (py::ssize_t i = 0; i < arr.ndim(); ++i) s += (i ? ", " : "") + std::to_string(arr.shape(i));
  return s + (arr.ndim() == 1 ? ",)" : ")");
}

// An array field (ndim 1 or 2) as nested JSON arrays of decimal strings.
json array_decimals(py::handle x, const std::string& field, int ndim) {
  if (py::isinstance<py::str>(x)) value_error(field + ": expected an array, got a string");
  if (py::isinstance<py::array>(x)) {
    const auto arr = py::reinterpret_borrow<py::array>(x);
    check_dtype(arr, field);
    if (arr.ndim() != ndim)
      value_error(field + ": expected a " + std::to_string(ndim) + "-dimensional array, got shape " + shape_text(arr));
  } else if (!PyList_Check(x.ptr()) && !PyTuple_Check(x.ptr())) {
    value_error(field + ": expected an array (numpy array, list or tuple), got " + type_name(x));
  }
  return walk_decimals(x, field);
}

// A time (t, times[k]) as a decimal string.
std::string time_decimal(py::handle x, const std::string& field) {
  if (py::isinstance<py::array>(x)) {
    const auto arr = py::reinterpret_borrow<py::array>(x);
    if (arr.ndim() != 0) value_error(field + ": expected a number, got an array of shape " + shape_text(arr));
    check_dtype(arr, field);
    return time_decimal(arr.attr("item")(), field);
  }
  std::string s = scalar_decimal(x, field);
  if (!softcert::num::is_decimal_syntax(s)) value_error(field + ": not a decimal number: \"" + s + "\"");
  return s;
}

// The most times trajectory() takes in one call: a tenth of the 10⁵ that took 3.2 GB.
constexpr Py_ssize_t kMaxTrajectoryTimes = 10000;

std::vector<std::string> times_decimals(py::handle times) {
  if (py::isinstance<py::str>(times)) value_error("times: expected a sequence of times, got a string");
  py::object seq = py::reinterpret_borrow<py::object>(times);
  if (py::isinstance<py::array>(times)) {
    const auto arr = py::reinterpret_borrow<py::array>(times);
    check_dtype(arr, "times");
    if (arr.ndim() != 1) value_error("times: expected a 1-dimensional array, got shape " + shape_text(arr));
    seq = arr.attr("tolist")();
  }
  if (!PySequence_Check(seq.ptr())) value_error("times: expected a sequence of times, got " + type_name(times));
  // Refused before anything is converted: each time's result holds the whole state and a dict of
  // arrays (10⁵ times of a small instance took 3.2 GB).
  if (const Py_ssize_t count = PySequence_Size(seq.ptr()); count > kMaxTrajectoryTimes)
    value_error("times: at most " + std::to_string(kMaxTrajectoryTimes) + " times in one trajectory, got " +
                std::to_string(count) + " (each time's result holds the whole state: split the times over several calls)");
  std::vector<std::string> out;
  for (py::handle x : py::reinterpret_borrow<py::sequence>(seq))
    out.push_back(time_decimal(x, "times[" + std::to_string(out.size()) + "]"));
  if (out.empty()) value_error("times: expected at least one time");
  return out;
}

// JSON between Python and nlohmann through Python's json module: the record a caller gets is
// json.loads of the very text the CLI writes.
py::object to_python(const json& j) { return py::module_::import("json").attr("loads")(j.dump()); }

json from_python(py::handle x, const std::string& field) {
  std::string text;
  try {
    text = py::module_::import("json").attr("dumps")(x, py::arg("allow_nan") = false).cast<std::string>();
  } catch (py::error_already_set& e) {
    value_error(field + ": not representable as JSON: " + std::string(e.what()));
  }
  try {
    return softcert::num::parse_json_bounded(text, field);
  } catch (const std::invalid_argument& e) {
    value_error(e.what());
  }
}

// ---------------------------------------------------------------------------------------------
// Instances

Instance make_instance(py::object V, py::object a, py::object beta, py::object loss, py::object normalization,
                       py::object X, py::object y, py::object p, py::object provenance, py::object U, py::object model,
                       py::object id, py::object seed, py::object p_logits, py::object authors_run) {
  json j;
  const bool tied_matrix = !U.is_none();
  if (tied_matrix && !V.is_none()) value_error("U: give V (value_softmax) or U (tied_value_softmax), not both");
  j["model"] = model.is_none() ? std::string(tied_matrix ? "tied_value_softmax" : "value_softmax")
                               : str_arg(model, "model");
  j["loss"] = str_arg(loss, "loss");
  j["normalization"] = str_arg(normalization, "normalization");
  const char* mname = tied_matrix ? "U" : "V";
  const py::object& M = tied_matrix ? U : V;
  if (M.is_none()) value_error("V: missing field");
  json jm = array_decimals(M, mname, 2);
  if (!jm.is_array() || jm.empty()) value_error(std::string(mname) + ": expected at least one row");
  if (!jm[0].is_array()) value_error(std::string(mname) + "[0]: expected an array of decimal strings");
  if (jm[0].empty()) value_error(std::string(mname) + "[0]: expected at least one entry");
  j["d"] = jm.size();
  j["T"] = jm[0].size();
  j[mname] = std::move(jm);
  if (!a.is_none()) j["a"] = array_decimals(a, "a", 1);
  if (!beta.is_none()) j["beta"] = array_decimals(beta, "beta", 1);
  if (!X.is_none()) j["X"] = array_decimals(X, "X", 2);
  if (!y.is_none()) j["y"] = array_decimals(y, "y", 1);
  if (!p.is_none()) j["p"] = array_decimals(p, "p", 1);
  if (!p_logits.is_none()) j["p_logits"] = array_decimals(p_logits, "p_logits", 1);
  if (!authors_run.is_none()) j["authors_run"] = from_python(authors_run, "authors_run");
  j["provenance"] = str_arg(provenance, "provenance");
  if (!id.is_none()) {
    if (!py::isinstance<py::str>(id)) value_error("id: expected a string");
    j["id"] = id.cast<std::string>();
  }
  if (!seed.is_none()) {
    if (!is_int(seed)) value_error("seed: expected an integer in [0, 2**64), got " + type_name(seed));
    const py::int_ s = py::reinterpret_steal<py::int_>(PyNumber_Index(seed.ptr()));
    if (s < py::int_(0) || s >= py::int_(py::reinterpret_steal<py::object>(PyLong_FromString("18446744073709551616", nullptr, 10))))
      value_error("seed: must be in [0, 2**64), got " + py::str(py::handle(s)).cast<std::string>());
    j["seed"] = s.cast<std::uint64_t>();
  }
  return inst_ns::parse_instance(j);
}

// As Instance.load and the CLI read a file (instances::load_instance): the strict parser refuses a
// NUL byte and a duplicate key (numerics/strict_json.hpp), naming the field.
Instance instance_from_json(py::handle x) {
  std::string text;
  if (py::isinstance<py::str>(x) || py::isinstance<py::bytes>(x)) text = x.cast<std::string>();
  else if (py::isinstance<py::dict>(x)) text = from_python(x, "instance").dump();
  else value_error("instance: expected JSON text (str or bytes) or a dict, got " + type_name(x));
  json j;
  try {
    j = softcert::num::parse_json_strict(text, "instance");
  } catch (const json::exception& e) {
    value_error("instance: not valid JSON: " + softcert::num::json_error_excerpt(e.what()));
  } catch (const std::invalid_argument& e) {  // a NUL byte or a duplicate key
    value_error(e.what());
  }
  return inst_ns::parse_instance(j);
}

double as_double(const std::string& s) { return nearest(s); }
double as_double(double x) { return x; }

// NumPy arrays of decimal strings (their nearest doubles) or of doubles.
template <class E>
py::array_t<double> vector_array(const std::vector<E>& v) {
  py::array_t<double> out(static_cast<py::ssize_t>(v.size()));
  auto m = out.mutable_unchecked<1>();
  for (std::size_t i = 0; i < v.size(); ++i) m(static_cast<py::ssize_t>(i)) = as_double(v[i]);
  return out;
}

template <class E>
py::array_t<double> matrix_array(const std::vector<std::vector<E>>& rows) {
  const std::size_t r = rows.size(), c = rows.empty() ? 0 : rows[0].size();
  py::array_t<double> out({static_cast<py::ssize_t>(r), static_cast<py::ssize_t>(c)});
  auto m = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < r; ++i)
    for (std::size_t k = 0; k < c; ++k) m(static_cast<py::ssize_t>(i), static_cast<py::ssize_t>(k)) = as_double(rows[i][k]);
  return out;
}

template <class E>
py::object optional_vector(const std::vector<E>& v) { return v.empty() ? py::object(py::none()) : vector_array(v); }
template <class E>
py::object optional_matrix(const std::vector<std::vector<E>>& m) {
  return m.empty() ? py::object(py::none()) : matrix_array(m);
}

const inst_ns::DecimalVector* vector_field(const Instance& inst, const std::string& name) {
  if (name == "a") return &inst.a;
  if (name == "beta") return &inst.beta;
  if (name == "y") return &inst.y;
  if (name == "p") return &inst.p;
  if (name == "p_logits") return &inst.p_logits;
  return nullptr;
}

py::object instance_decimals(const Instance& inst, const std::string& name) {
  if (name == "V" || name == "U") return py::cast(inst.V);
  if (name == "X") return inst.X.empty() ? py::object(py::none()) : py::cast(inst.X);
  if (const auto* v = vector_field(inst, name)) return v->empty() ? py::object(py::none()) : py::cast(*v);
  value_error("field: no array field \"" + name + "\" (V, U, a, beta, X, y, p, p_logits)");
}

// ---------------------------------------------------------------------------------------------
// Running off the GIL, interruptibly

// Runs work(cancel) in a worker thread while this thread waits with the GIL released, checking
// for signals every 50 ms. On KeyboardInterrupt (or any signal handler's exception) it sets
// `cancel` — work that runs several integrations stops between them — waits for the worker to
// finish (the engine cannot stop inside an integration), discards its result and raises.
//
// Progress: the worker stores its latest (steps, t) in a Progress; this thread calls the user's
// callback progress(steps, t) with it — on the calling thread, holding the GIL, at most every
// 0.25 s and once more at the end. An exception from the callback is handled as Ctrl-C is.
struct Progress {
  py::object callback;  // None: no reports
  std::atomic<std::size_t> steps{0};
  std::atomic<double> t{0};
  std::atomic<bool> fresh{false};
  void report(std::size_t n, double at) {
    steps = n;
    t = at;
    fresh = true;
  }
  bool wanted() const { return !callback.is_none(); }
  void deliver() {
    if (!wanted() || !fresh.exchange(false)) return;
    callback(steps.load(), t.load());
  }
};


template <class F>
auto run_interruptible(F&& work, Progress* progress = nullptr) -> decltype(work(std::declval<const std::atomic<bool>&>())) {
  using R = decltype(work(std::declval<const std::atomic<bool>&>()));
  std::atomic<bool> cancel{false};
  std::packaged_task<R()> task([&work, &cancel]() {
    struct FreeCaches {  // MPFR's per-thread caches (constants) would outlive the thread
      ~FreeCaches() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }
    } free_caches;
    return work(cancel);
  });
  std::future<R> done = task.get_future();
  std::thread worker(std::move(task));
  std::optional<py::error_already_set> interrupt;
  auto last_report = std::chrono::steady_clock::now();
  for (;;) {
    std::future_status status;
    {
      py::gil_scoped_release release;
      status = done.wait_for(std::chrono::milliseconds(50));
    }
    if (status == std::future_status::ready) break;
    if (!interrupt && PyErr_CheckSignals() != 0) {
      interrupt.emplace();  // takes the pending exception
      cancel = true;
      PySys_WriteStderr("softcert: interrupted; the current run cannot be stopped inside the engine and "
                        "finishes first (its result is discarded)\n");
    }
    if (!interrupt && progress && progress->wanted() &&
        std::chrono::steady_clock::now() - last_report > std::chrono::milliseconds(250)) {
      last_report = std::chrono::steady_clock::now();
      try {
        progress->deliver();
      } catch (py::error_already_set& e) {
        interrupt.emplace(e);  // the callback's exception, raised once the run has finished
        cancel = true;
      }
    }
  }
  {
    py::gil_scoped_release release;
    worker.join();
  }
  if (interrupt) throw *interrupt;
  if (progress) progress->deliver();  // the final state
  return done.get();
}

// ---------------------------------------------------------------------------------------------
// Results

struct FastResult {};
struct RigorousResult {};
struct Trajectory {};

// The CLI's ranges (src/cli/cmd_integrate.cpp): 53 to 65536 bits, at most 4096 when rigorous.
constexpr unsigned kMaxRigorousPrecision = 4096;
unsigned precision_arg(py::handle x, const std::string& tier) {
  const auto precision = static_cast<unsigned>(int_arg(x, "precision", 53, 65536, "53 to 65536 bits"));
  if (tier == "rigorous" && precision > kMaxRigorousPrecision)
    value_error("precision: the rigorous tier takes at most " + std::to_string(kMaxRigorousPrecision) + " bits, got " +
                std::to_string(precision) + " (its Taylor order and memory grow with the precision)");
  return precision;
}

std::string tier_arg(py::handle x) {
  const std::string tier = str_arg(x, "tier");
  if (tier != "fast" && tier != "rigorous") value_error("tier: expected \"fast\" or \"rigorous\", got \"" + tier + "\"");
  return tier;
}

py::object progress_arg(py::handle x) {
  if (!x.is_none() && !PyCallable_Check(x.ptr()))
    value_error("progress: expected a callable progress(steps, t) or None, got " + type_name(x));
  return py::reinterpret_borrow<py::object>(x);
}

// The CLI's checks on END (src/cli/cmd_integrate.cpp), field "t" or "times[k]".
void check_positive(const std::string& t, const std::string& field) {
  if (!(softcert::num::parse_decimal<softcert::Real>(t) > 0))
    value_error(field + ": the horizon must be positive, got " + t);
}

struct FastArgs {
  unsigned precision = 53;
  std::string stepper = "auto", form = "full";
  std::optional<integ::PlanTime> time;  // empty: the plan's ("auto")
  std::optional<double> tolerance;
  bool reference = true;

  integ::FastOptions options() const {  // as run_fast in src/cli/cmd_integrate.cpp
    integ::FastOptions o;
    o.form = softcert::models::parse_form(form);
    o.time = time;
    o.stepper = integ::parse_stepper(stepper);
    o.precision_bits = precision;
    if (tolerance) o.tolerance = *tolerance;  // 0 is refused like the CLI's, not read as the default
    o.escalate = reference;
    return o;
  }
};

py::array_t<double> ends(const std::vector<integ::EnclosedValue>& v, bool up);

// The derived quantities' keys (integrate/derived_enclosures.hpp) in state/lower/upper dicts.
constexpr const char* kDerivedKeys[] = {"entropy", "max_weight", "score_gap", "gaps_to_max", "argmax"};

double end_or_nan(const std::optional<integ::EnclosedValue>& e, bool up) {
  return e ? (up ? e->value.upper_up() : e->value.lower_down()) : std::numeric_limits<double>::quiet_NaN();
}

// lower (up = false) or upper ends of the derived enclosures, outward-rounded doubles; NaN where
// a quantity is not enclosed; argmax the certain token (0-based) or -1.
void put_derived(py::dict& s, const integ::DerivedEnclosures& d, bool up) {
  s["entropy"] = end_or_nan(d.entropy, up);
  s["max_weight"] = end_or_nan(d.max_weight, up);
  s["score_gap"] = end_or_nan(d.score_gap, up);
  s["gaps_to_max"] = ends(d.gaps_to_max, up);
  s["argmax"] = d.argmax ? static_cast<long long>(*d.argmax) : -1LL;
}

// The state as doubles: the run's own at 53 bits, the nearest to its MPFR numbers above.
py::dict fast_state(const integ::FastState& r) {
  const integ::FastValues<double>& v = r.values;
  py::dict s;
  s["a"] = vector_array(v.a);
  s["u"] = optional_vector(v.u);
  s["softmax"] = vector_array(v.alpha);
  s["loss"] = v.loss;
  s["V"] = optional_matrix(v.V);
  put_derived(s, integ::derive_points(v.a, v.alpha, v.loss), false);  // point values: lower == upper
  return s;
}

py::dict fast_decimals(const integ::FastDecimals& d) {
  py::dict s;
  s["a"] = py::cast(d.a);
  s["u"] = d.u.empty() ? py::object(py::none()) : py::cast(d.u);
  s["softmax"] = py::cast(d.alpha);
  s["loss"] = d.loss;
  s["V"] = d.V.empty() ? py::object(py::none()) : py::cast(d.V);
  return s;
}

py::object fast_result(const integ::FastReport& rep) {
  py::object o = py::cast(FastResult{});
  const auto& r = rep.run;
  const integ::FastDecimals d = integ::decimals(r);
  o.attr("tier") = "fast";
  o.attr("t") = r.t;
  o.attr("tau") = d.tau.empty() ? py::object(py::none()) : py::str(d.tau);
  o.attr("precision_bits") = r.precision_bits;
  o.attr("stepper") = r.stepper;
  o.attr("form") = r.form;
  o.attr("tolerance") = r.tolerance;
  o.attr("steps") = r.steps;
  o.attr("rejected_steps") = r.rejected_steps;
  o.attr("seconds") = r.seconds;
  o.attr("state") = fast_state(r);
  o.attr("argmax") = o.attr("state")["argmax"].cast<long long>() < 0 ? py::object(py::none()) : o.attr("state")["argmax"];
  o.attr("decimals") = fast_decimals(d);
  o.attr("digits") = rep.digits ? py::object(py::float_(*rep.digits)) : py::object(py::none());
  o.attr("digits_by_field") = to_python(rep.digits_by_field);
  json j = integ::to_json(rep);
  j["derived"] = integ::to_json(integ::derive_points(r.values.a, r.values.alpha, r.values.loss));  // as the CLI's --json
  o.attr("reference") = rep.reference ? to_python(j["reference"]) : py::object(py::none());
  o.attr("json") = to_python(j);
  return o;
}

// Lower or upper ends of enclosures as doubles rounded outward.
py::array_t<double> ends(const std::vector<integ::EnclosedValue>& v, bool up) {
  py::array_t<double> out(static_cast<py::ssize_t>(v.size()));
  auto m = out.mutable_unchecked<1>();
  for (std::size_t i = 0; i < v.size(); ++i) m(static_cast<py::ssize_t>(i)) = up ? v[i].value.upper_up() : v[i].value.lower_down();
  return out;
}

py::array_t<double> ends(const std::vector<std::vector<integ::EnclosedValue>>& rows, bool up) {
  const std::size_t r = rows.size(), c = rows.empty() ? 0 : rows[0].size();
  py::array_t<double> out({static_cast<py::ssize_t>(r), static_cast<py::ssize_t>(c)});
  auto m = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < r; ++i)
    for (std::size_t k = 0; k < c; ++k)
      m(static_cast<py::ssize_t>(i), static_cast<py::ssize_t>(k)) = up ? rows[i][k].value.upper_up() : rows[i][k].value.lower_down();
  return out;
}

py::dict rigorous_ends(const integ::RigorousIntegrateResult& r, const integ::DerivedEnclosures& d, bool up) {
  py::dict s;
  s["a"] = ends(r.a, up);
  s["u"] = r.u.empty() ? py::object(py::none()) : py::object(ends(r.u, up));  // no β*: no u
  s["softmax"] = ends(r.softmax, up);
  s["loss"] = up ? r.loss.value.upper_up() : r.loss.value.lower_down();
  s["V"] = ends(r.V, up);
  put_derived(s, d, up);
  return s;
}

py::object rigorous_result(const integ::RigorousIntegrateResult& r, std::optional<double> seconds) {
  py::object o = py::cast(RigorousResult{});
  json j = integ::to_json(r);
  if (seconds) j["seconds"] = *seconds;  // as the CLI's --json
  o.attr("tier") = "rigorous";
  o.attr("t") = r.t;
  o.attr("precision_bits") = r.precision_bits;
  o.attr("order") = r.order;
  o.attr("time_variable") = integ::to_string(r.time_variable);
  o.attr("steps") = r.steps;
  o.attr("max_width") = r.max_width;
  o.attr("tau") = r.tau.empty() ? py::object(py::none()) : py::object(py::make_tuple(r.tau.lower_text(), r.tau.upper_text()));
  o.attr("seconds") = seconds ? py::object(py::float_(*seconds)) : py::object(py::none());
  const integ::DerivedEnclosures d = integ::derive_enclosures(r);
  o.attr("lower") = rigorous_ends(r, d, false);
  o.attr("upper") = rigorous_ends(r, d, true);
  o.attr("argmax") = d.argmax ? py::object(py::int_(*d.argmax)) : py::object(py::none());
  o.attr("derived") = to_python(j["derived"]);
  py::dict dec;
  for (const char* k : {"a", "u", "softmax", "loss", "V"}) dec[k] = j.contains(k) ? to_python(j[k]) : py::object(py::none());
  for (const char* k : {"entropy", "max_weight", "score_gap", "gaps_to_max"}) dec[k] = to_python(j["derived"][k]);
  o.attr("decimals") = dec;
  o.attr("json") = to_python(j);
  return o;
}

// mpmath intervals (outward-rounded at the result's precision) of one field of a rigorous result.
py::object mpmath_intervals(py::object self, const std::string& name) {
  py::object mpmath;
  try {
    mpmath = py::module_::import("mpmath");
  } catch (py::error_already_set&) {
    throw py::import_error("intervals() needs mpmath (apt-get install python3-mpmath)");
  }
  const py::dict dec = self.attr("decimals");
  if (!dec.contains(name)) value_error("field: no field \"" + name + "\" (a, u, softmax, loss, V)");
  const unsigned prec = std::max(53u, self.attr("precision_bits").cast<unsigned>());
  py::object iv = mpmath.attr("iv");
  struct Precision {  // mpmath.iv.prec for the conversion only (outward rounding at `prec` bits)
    py::object iv, old;
    Precision(py::object ctx, unsigned prec) : iv(std::move(ctx)), old(iv.attr("prec")) { iv.attr("prec") = prec; }
    ~Precision() {
      try {
        iv.attr("prec") = old;
      } catch (py::error_already_set& e) {
        e.discard_as_unraisable("softcert: restoring mpmath.iv.prec");
      }
    }
  } precision(iv, prec);
  std::function<py::object(py::handle)> convert = [&](py::handle x) -> py::object {
    const py::list l = py::reinterpret_borrow<py::list>(x);
    if (l.size() == 2 && py::isinstance<py::str>(l[0])) return iv.attr("mpf")(py::make_tuple(l[0], l[1]));
    py::list out;
    for (py::handle e : l) out.append(convert(e));
    return out;
  };
  return convert(dec[py::str(name)]);
}

std::string short_repr(py::handle self, std::initializer_list<const char*> names) {
  std::string s = type_name(self) + std::string("(");
  bool first = true;
  for (const char* n : names) {
    if (!py::hasattr(self, n)) continue;
    s += (first ? "" : ", ") + std::string(n) + "=" + py::repr(self.attr(n)).cast<std::string>();
    first = false;
  }
  return s + ")";
}

// ---------------------------------------------------------------------------------------------
// integrate, trajectory, check

const Instance& instance_arg(py::handle x) {
  if (!py::isinstance<Instance>(x))
    value_error("instance: expected a softcert.Instance (Instance(...), Instance.load(path), Instance.from_json(text)), got " +
                type_name(x));
  return x.cast<const Instance&>();
}

struct IntegrateArgs {
  std::string tier;
  unsigned precision = 53;
  FastArgs fast;
  py::object progress;  // None or the callable
};

IntegrateArgs integrate_args(py::handle tier, py::handle precision, py::handle stepper, py::handle form, py::handle time,
                             py::handle tolerance, py::handle reference, py::handle progress) {
  IntegrateArgs a;
  a.tier = tier_arg(tier);
  a.precision = precision_arg(precision, a.tier);
  a.fast = FastArgs{a.precision, str_arg(stepper, "stepper"), str_arg(form, "form"),
                    integ::parse_plan_time(str_arg(time, "time"), "time"),
                    optional_float_arg(tolerance, "tolerance"), bool_arg(reference, "reference")};
  a.progress = progress_arg(progress);
  return a;
}

// The rigorous tier's options as run_rigorous in src/cli/cmd_integrate.cpp, with progress reports.
integ::RigorousIntegrateOptions rigorous_options(const IntegrateArgs& a, Progress& progress) {
  integ::RigorousIntegrateOptions o;
  o.precision_bits = a.precision;
  o.time_variable = a.fast.time;
  if (progress.wanted()) o.progress = [p = &progress](std::size_t steps, double t) { p->report(steps, t); };
  return o;
}

py::object integrate_py(py::handle inst_obj, py::handle t_obj, py::handle tier_obj, py::handle precision_obj,
                        py::handle stepper, py::handle form, py::handle time, py::handle tolerance, py::handle reference,
                        py::handle progress) {
  const Instance& inst = instance_arg(inst_obj);
  const IntegrateArgs args = integrate_args(tier_obj, precision_obj, stepper, form, time, tolerance, reference, progress);
  Progress reports{args.progress};
  const std::string t = time_decimal(t_obj, "t");
  check_positive(t, "t");
  if (args.tier == "fast") {
    const integ::FastOptions o = args.fast.options();
    const integ::FastReport rep =
        run_interruptible([&](const std::atomic<bool>&) { return integ::integrate_fast(inst, t, o); }, &reports);
    return fast_result(rep);
  }
  const integ::RigorousIntegrateOptions o = rigorous_options(args, reports);
  // What the run does is integrate::plan_run's (as in `softcert integrate`); what it refuses is a
  // ValueError naming the argument (pybind11 raises std::invalid_argument as ValueError).
  (void)integ::plan_run(inst, integ::rigorous_request(o, t));
  auto [r, seconds] = run_interruptible([&](const std::atomic<bool>&) {
    const auto start = std::chrono::steady_clock::now();
    integ::RigorousIntegrateResult res = integ::rigorous_integrate_planned(inst, t, o);
    return std::make_pair(std::move(res), std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }, &reports);
  return rigorous_result(r, seconds);
}

// Stacks one per-time field of the results along a new leading (time) axis.
py::object stack(const py::list& dicts, const char* key, const char* dtype = "float64") {
  py::list items;
  for (py::handle d : dicts) {
    py::object v = py::reinterpret_borrow<py::dict>(d)[key];
    if (v.is_none()) return py::none();
    items.append(v);
  }
  return py::module_::import("numpy").attr("array")(items, py::arg("dtype") = dtype);
}

py::dict stacked(const py::list& dicts) {
  py::dict out;
  for (const char* k : {"a", "u", "softmax", "loss", "V", "entropy", "max_weight", "score_gap", "gaps_to_max"})
    out[k] = stack(dicts, k);
  out["argmax"] = stack(dicts, "argmax", "int64");
  return out;
}

py::object trajectory_py(py::handle inst_obj, py::handle times_obj, py::handle tier_obj, py::handle precision_obj,
                         py::handle stepper, py::handle form, py::handle time, py::handle tolerance, py::handle reference,
                         py::handle progress) {
  const Instance& inst = instance_arg(inst_obj);
  const IntegrateArgs args = integrate_args(tier_obj, precision_obj, stepper, form, time, tolerance, reference, progress);
  Progress reports{args.progress};
  const std::vector<std::string> times = times_decimals(times_obj);
  const std::string& tier = args.tier;
  py::object o = py::cast(Trajectory{});
  o.attr("tier") = tier;
  o.attr("t") = py::cast(times);
  o.attr("times") = vector_array(times);
  py::list results;
  const auto start = std::chrono::steady_clock::now();
  const bool from_zero = softcert::num::parse_decimal<softcert::Rational>(times[0]) == 0;
  for (std::size_t k = from_zero ? 1 : 0; k < times.size(); ++k) {
    const std::string field = "times[" + std::to_string(k) + "]";
    check_positive(times[k], field);
    if (k > 0 && !(softcert::num::parse_decimal<softcert::Rational>(times[k]) >
                   softcert::num::parse_decimal<softcert::Rational>(times[k - 1])))
      value_error(field + ": times must be strictly increasing (" + times[k - 1] + " then " + times[k] + ")");
  }
  if (tier == "fast") {
    if (from_zero) value_error("times[0]: the fast trajectory starts after t = 0 (the initial state is the instance's)");
    if (args.fast.time == integ::PlanTime::tau) value_error("time: the fast trajectory runs in t-time (one pass landing on every time)");
    const integ::FastOptions opts = args.fast.options();
    Progress* p = &reports;
    const auto reps = run_interruptible([&](const std::atomic<bool>&) {
      std::vector<integ::FastReport> out = integ::integrate_fast_at(inst, times, opts);
      p->report(out.empty() ? 0 : out.back().run.steps, softcert::num::parse_decimal<double>(times.back()));
      return out;
    }, &reports);
    py::list states, digits, steps;
    for (const auto& rep : reps) {
      py::object r = fast_result(rep);
      results.append(r);
      states.append(r.attr("state"));
      digits.append(r.attr("digits"));
      steps.append(r.attr("steps"));
    }
    o.attr("state") = stacked(states);
    o.attr("digits") = args.fast.reference ? py::object(py::module_::import("numpy").attr("array")(digits, py::arg("dtype") = "float64"))
                                           : py::object(py::none());
    o.attr("steps") = steps;
    o.attr("reference") = args.fast.reference;
  } else {
    // One validated pass over every time: the reduced logistic form in τ-time
    // (integrate::rigorous_integrate_at, as `softcert reproduce varre2026-headline`), else the full
    // state (integrate::rigorous_integrate_model_at); t = 0 is enclosed exactly when asked for.
    const bool reduced = integ::reduced_logistic_applies(inst);
    if (!reduced && args.fast.time)
      value_error("time: the full-state rigorous tier chooses its own time variable (τ for logistic loss, else t); "
                  "leave time at auto");
    const integ::RigorousIntegrateOptions opts = rigorous_options(args, reports);
    const std::vector<std::string> rest(times.begin() + (from_zero ? 1 : 0), times.end());
    const auto rows = run_interruptible([&](const std::atomic<bool>&) {
      std::vector<integ::RigorousIntegrateResult> out;
      if (from_zero) out.push_back(reduced ? integ::rigorous_integrate(inst, times[0], opts)
                                           : integ::rigorous_integrate_model(inst, times[0], opts));
      if (!rest.empty())
        for (auto& r : reduced ? integ::rigorous_integrate_at(inst, rest, opts) : integ::rigorous_integrate_model_at(inst, rest, opts))
          out.push_back(std::move(r));
      return out;
    }, &reports);
    py::list lower, upper, steps;
    for (const auto& r : rows) {
      py::object res = rigorous_result(r, std::nullopt);
      results.append(res);
      lower.append(res.attr("lower"));
      upper.append(res.attr("upper"));
      steps.append(r.steps);
    }
    o.attr("lower") = stacked(lower);
    o.attr("upper") = stacked(upper);
    o.attr("steps") = steps;
    o.attr("max_width") = rows.empty() ? 0.0 : std::max_element(rows.begin(), rows.end(), [](const auto& x, const auto& y) {
      return x.max_width < y.max_width;
    })->max_width;
  }
  o.attr("seconds") = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  o.attr("results") = results;
  return o;
}

py::object check_py(py::handle name_obj, py::handle instance, py::handle horizon_obj, py::handle tier_obj,
                    py::handle precision_obj, py::object params, py::handle seed_obj, py::handle drop_obj) {
  // The checks of src/cli/cmd_check.cpp, then its one-entry suite.
  const std::string name = str_arg(name_obj, "name");
  if (!engine::CheckRegistry::global().find(name))
    value_error("name: no check named '" + name + "' (softcert.checks() lists them)");
  const std::string tier = tier_arg(tier_obj);
  const long long p_in = int_arg(precision_obj, "precision", 0, 65536, "0 (the check's default) or 53 to 65536 bits");
  if (p_in != 0 && p_in < 53) value_error("precision: must be 0 (the check's default) or 53 to 65536 bits, got " + std::to_string(p_in));
  const auto precision = static_cast<unsigned>(p_in);
  const std::optional<double> horizon = optional_float_arg(horizon_obj, "horizon");
  const auto seed = static_cast<std::uint64_t>(int_arg(seed_obj, "seed", 0, std::numeric_limits<long long>::max(), "in [0, 2**63)"));
  if (horizon && (!(*horizon > 0) || !std::isfinite(*horizon)))
    value_error("horizon: must be a positive finite number, got " + py::repr(py::float_(*horizon)).cast<std::string>());
  engine::SuiteEntry e;
  e.check = name;
  e.options.tier = tier == "fast" ? engine::Tier::fast : engine::Tier::rigorous;
  e.options.precision_bits = precision;
  if (const std::string p = engine::precision_problem(e.options.tier, precision); !p.empty())
    value_error("precision: " + p);
  e.options.horizon = horizon;
  if (!params.is_none()) {
    if (!py::isinstance<py::dict>(params)) value_error("params: expected a dict");
    e.options.params = from_python(params, "params");
  }
  if (const std::string p = engine::unknown_param_problem(*engine::CheckRegistry::global().find(name), e.options.params);
      !p.empty())
    value_error("params: " + p);
  e.generate.params = e.options.params;
  // drop=[...]: the CLI's --drop, one name per hypothesis (a bare string would iterate by letter)
  if (!drop_obj.is_none()) {
    if (py::isinstance<py::str>(drop_obj) || py::isinstance<py::bytes>(drop_obj) || !py::isinstance<py::iterable>(drop_obj))
      value_error("drop: expected a list of hypothesis names, got " + type_name(drop_obj));
    for (py::handle h : drop_obj) {
      if (!py::isinstance<py::str>(h)) value_error("drop: expected hypothesis names (str), got " + type_name(h));
      const std::string hyp = h.cast<std::string>();
      if (const std::string p = engine::unknown_hypothesis_problem(*engine::CheckRegistry::global().find(name), hyp);
          !p.empty())
        value_error("drop: " + p);
      e.generate.dropped.insert(hyp);  // neither generated nor tested on the instance, as check --drop
    }
  }
  std::optional<json> in_memory;
  if (py::isinstance<Instance>(instance)) {
    in_memory = inst_ns::to_json(instance.cast<const Instance&>());
  } else if (py::isinstance<py::str>(instance) || py::hasattr(instance, "__fspath__")) {
    const std::filesystem::path f = py::str(py::module_::import("os").attr("fspath")(instance)).cast<std::string>();
    if (!std::filesystem::is_regular_file(f)) value_error("instance: no such file: " + f.string());
    e.instance_files.push_back(std::filesystem::absolute(f));
  } else {
    value_error("instance: expected a softcert.Instance or a path to an instance file, got " + type_name(instance));
  }
  const engine::Suite suite = engine::single_check_suite(std::move(e), seed);
  engine::WorkItem item;
  if (in_memory) {
    const auto& id = (*in_memory).value("id", std::string());
    item.instance_id = id.empty() ? "python" : id;
    item.instance = std::move(in_memory);
  } else {
    item = engine::plan(suite).at(0);
  }
  json record = run_interruptible([&](const std::atomic<bool>&) { return engine::run_item(suite, item); });
  record["run"] = engine::run_identity(suite, 1).id;  // as `softcert check` stamps it (docs/reports.md)
  return to_python(record);
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "softcert: certified gradient flows of softmax-attention models and theorem checks (docs/python.md)";
  m.attr("__version__") = SOFTCERT_VERSION;
  m.attr("git_commit") = SOFTCERT_GIT_COMMIT;
  auto& rigorous_failure = py::register_exception<integ::RigorousFailure>(m, "RigorousFailure", PyExc_RuntimeError);
  // |x| and relu stopped before a kink (integrate/kink_report.hpp): a RigorousFailure whose
  // `info` is the CLI's --json "kink" object (kink_free_until, stopped_at, nearest_score, ...).
  static py::exception<integ::KinkPossible> kink_possible(m, "KinkPossible", rigorous_failure.ptr());
  py::register_exception_translator([](std::exception_ptr p) {  // tried before the one above
    try {
      if (p) std::rethrow_exception(p);
    } catch (const integ::KinkPossible& e) {
      py::object err = py::reinterpret_borrow<py::object>(kink_possible.ptr())(e.what());
      err.attr("info") = to_python(integ::to_json(e.info()));
      PyErr_SetObject(kink_possible.ptr(), err.ptr());
    }
  });
  py::register_exception<integ::FastOverflow>(m, "FastOverflow", PyExc_RuntimeError);

  py::class_<Instance>(m, "Instance",
                       "A problem instance (docs/instances.md), held as exact decimal strings.\n\n"
                       "Instance(*, V, a, beta=None, loss='logistic', normalization='softmax', X=None, y=None, p=None,\n"
                       "         provenance='python', U=None, model=None, id=None, seed=None, p_logits=None, authors_run=None)\n\n"
                       "V is d x T (row i = coordinate i, column j = token j; tokens numbered from 0), a has T entries,\n"
                       "beta d (logistic, square), X n x d and y n (logistic_dataset, regression), p d (cross_entropy);\n"
                       "U instead of V gives the tied model. Arrays: numpy float64 (each double taken exactly, as its\n"
                       "exact decimal expansion), integers, or decimal strings. Validated as an instance file is: a bad\n"
                       "field or argument raises ValueError naming it. Instance.load(path) and Instance.from_json(text)\n"
                       "read the instance file format (duplicate keys and NUL bytes refused).")
      .def(py::init(&make_instance), py::kw_only(), py::arg("V") = py::none(), py::arg("a") = py::none(),  // signature: __init__.py
           py::arg("beta") = py::none(), py::arg("loss") = "logistic", py::arg("normalization") = "softmax",
           py::arg("X") = py::none(), py::arg("y") = py::none(), py::arg("p") = py::none(),
           py::arg("provenance") = "python", py::arg("U") = py::none(), py::arg("model") = py::none(),
           py::arg("id") = py::none(), py::arg("seed") = py::none(), py::arg("p_logits") = py::none(),
           py::arg("authors_run") = py::none(),
           "Arrays: numpy float64 (each double taken exactly), integers, or decimal strings. Validated as an "
           "instance file is; a bad field raises ValueError naming it.")
      .def_static("from_json", &instance_from_json, py::arg("json"), "From JSON text or a dict (the instance file format).")
      .def_static("load", &inst_ns::load_instance, py::arg("path"), "From an instance file.")
      .def("to_json", [](const Instance& i, int indent) { return inst_ns::to_json(i).dump(indent); },
           py::arg("indent") = 1, "The instance file's JSON (every number a decimal string).")
      .def("decimals", &instance_decimals, py::arg("field"), "An array field as its exact decimal strings.")
      .def_property_readonly("model", [](const Instance& i) { return i.model; })
      .def_property_readonly("loss", [](const Instance& i) { return std::string(inst_ns::to_string(i.loss)); })
      .def_property_readonly("normalization",
                             [](const Instance& i) { return std::string(inst_ns::to_string(i.normalization)); })
      .def_property_readonly("T", [](const Instance& i) { return i.T; })
      .def_property_readonly("d", [](const Instance& i) { return i.d; })
      .def_property_readonly("provenance", [](const Instance& i) { return i.provenance; })
      .def_property_readonly("id", [](const Instance& i) { return i.id.empty() ? py::object(py::none()) : py::str(i.id); })
      .def_property_readonly("seed", [](const Instance& i) { return i.seed ? py::object(py::int_(*i.seed)) : py::object(py::none()); })
      .def_property_readonly("V", [](const Instance& i) { return matrix_array(i.V); }, "V (U for the tied model), nearest doubles")
      .def_property_readonly("U", [](const Instance& i) { return i.tied() ? py::object(matrix_array(i.V)) : py::object(py::none()); })
      .def_property_readonly("a", [](const Instance& i) { return vector_array(i.a); })
      .def_property_readonly("beta", [](const Instance& i) { return optional_vector(i.beta); })
      .def_property_readonly("X", [](const Instance& i) { return optional_matrix(i.X); })
      .def_property_readonly("y", [](const Instance& i) { return optional_vector(i.y); })
      .def_property_readonly("p", [](const Instance& i) { return optional_vector(i.p); })
      // The same problem, not the same provenance or id (instance_equality.hpp)
      .def("__eq__", [](const Instance& x, const Instance& y) { return softcert::python::same_problem(x, y); },
           py::is_operator())
      .def("__repr__", [](const Instance& i) {
        return "softcert.Instance(model='" + i.model + "', loss='" + inst_ns::to_string(i.loss) + "', normalization='" +
               inst_ns::to_string(i.normalization) + "', T=" + std::to_string(i.T) + ", d=" + std::to_string(i.d) +
               (i.id.empty() ? "" : ", id='" + i.id + "'") + ")";
      });

  py::class_<FastResult>(m, "FastResult", py::dynamic_attr(),
                         "integrate(..., tier='fast'): the state at t in floating point, no guarantee. Attributes: state\n"
                         "(a, u, softmax, V, loss and the derived point values entropy, max_weight, score_gap, gaps_to_max,\n"
                         "argmax), argmax, digits (agreement with the reference run), steps, decimals, json. help(softcert.integrate).")
      .def("__repr__", [](py::object self) { return short_repr(self, {"t", "steps", "digits", "precision_bits"}); });
  py::class_<RigorousResult>(m, "RigorousResult", py::dynamic_attr(),
                             "integrate(..., tier='rigorous'): enclosures at t. Guarantee: for every key of lower/upper (a, u,\n"
                             "softmax, V, loss, entropy, max_weight, score_gap, gaps_to_max) the exact value of the exact flow\n"
                             "lies in [lower[key], upper[key]] (outward-rounded doubles; exact ends in decimals). argmax: the\n"
                             "token (from 0) certainly carrying the largest weight, or None. help(softcert.integrate).")
      .def("intervals", &mpmath_intervals, py::arg("field"),
           "One field's enclosures as mpmath intervals at the result's precision (outward rounded).")
      .def("__repr__", [](py::object self) { return short_repr(self, {"t", "steps", "max_width", "precision_bits"}); });
  py::class_<Trajectory>(m, "Trajectory", py::dynamic_attr(),
                         "trajectory(...): the state at many times from one pass; lower/upper (rigorous) or state (fast)\n"
                         "stacked on a leading time axis, results, times, t, steps; to_pandas(), softcert.plot(tr, q).\n"
                         "help(softcert.trajectory).")
      .def("__repr__", [](py::object self) {
        const py::list t = self.attr("t");
        return "softcert.Trajectory(tier=" + py::repr(self.attr("tier")).cast<std::string>() + ", " +
               std::to_string(t.size()) + " times in [" + py::str(self.attr("times").attr("min")()).cast<std::string>() +
               ", " + py::str(self.attr("times").attr("max")()).cast<std::string>() +
               "], seconds=" + py::repr(self.attr("seconds")).cast<std::string>() + ")";
      });

  // The public functions with their full docstrings and signatures are python/softcert/__init__.py's.
  m.def("integrate", &integrate_py, py::arg("instance"), py::arg("t"), py::kw_only(), py::arg("tier") = "fast",
        py::arg("precision") = 53, py::arg("stepper") = "auto", py::arg("form") = "full", py::arg("time") = "auto",
        py::arg("tolerance") = py::none(), py::arg("reference") = true, py::arg("progress") = py::none(),
        "softcert.integrate's implementation (see help(softcert.integrate)).");
  m.def("trajectory", &trajectory_py, py::arg("instance"), py::arg("times"), py::kw_only(), py::arg("tier") = "fast",
        py::arg("precision") = 53, py::arg("stepper") = "auto", py::arg("form") = "full", py::arg("time") = "auto",
        py::arg("tolerance") = py::none(), py::arg("reference") = false, py::arg("progress") = py::none(),
        "softcert.trajectory's implementation (see help(softcert.trajectory)).");
  m.def("check", &check_py, py::arg("name"), py::arg("instance"), py::kw_only(), py::arg("horizon") = py::none(),
        py::arg("tier") = "rigorous", py::arg("precision") = 0, py::arg("params") = py::none(), py::arg("seed") = 1,
        py::arg("drop") = py::none(), "softcert.check's implementation (see help(softcert.check)).");
  m.def("checks", []() {
    py::list out;
    for (const engine::Check* c : engine::CheckRegistry::global().all()) {
      py::dict d;
      d["name"] = c->name();
      d["paper"] = c->paper();
      d["statement"] = c->statement();
      d["hypotheses"] = py::cast(c->hypotheses());
      d["doc"] = c->doc();
      out.append(d);
    }
    return out;
  }, "The registered theorem checks: name, paper, statement, hypotheses, doc.");
  m.def("exact_decimal", &exact_decimal, py::arg("x"), "The exact decimal expansion of a double (as instances store it).");
}
