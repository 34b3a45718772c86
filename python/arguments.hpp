#pragma once
// Numbers and Python values → decimal strings, each error naming the argument (a part of
// python/softcert_module.cpp).
#include "module_common.hpp"

namespace {

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

}  // namespace
