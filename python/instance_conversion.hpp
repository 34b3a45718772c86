#pragma once
// Instances from numpy arrays and back (a part of python/softcert_module.cpp).
#include "arguments.hpp"

namespace {

// ---------------------------------------------------------------------------------------------
// Instances

Instance make_instance(py::object V, py::object a, py::object beta, py::object loss, py::object normalization,
                       py::object X, py::object y, py::object p, py::object provenance, py::object U, py::object model,
                       py::object id, py::object seed, py::object p_logits, py::object authors_run,
                       py::object loss_formula, py::object normalization_formula) {
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
  if (!loss_formula.is_none()) j["loss_formula"] = str_arg(loss_formula, "loss_formula");
  if (!normalization_formula.is_none()) j["normalization_formula"] = str_arg(normalization_formula, "normalization_formula");
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

// The `instance` argument: a softcert.Instance, else a ValueError saying what it must be.
const Instance& instance_arg(py::handle x) {
  if (!py::isinstance<Instance>(x))
    value_error("instance: expected a softcert.Instance (Instance(...), Instance.load(path), Instance.from_json(text)), got " +
                type_name(x));
  return x.cast<const Instance&>();
}

}  // namespace
