#pragma once
// A model's vector field for the fast steppers (integrate/fast_stepper.hpp): in Boost.Odeint's
// system form sys(x, dxdt, t) (models are autonomous, so t is ignored) and on taylor::Var<K>
// for the Taylor stepper. The model's type is erased so that the steppers are compiled once per
// kind, in integrate/fast_stepper.cpp, instead of once per model in every translation unit
// (docs/performance.md, "Building from scratch"); one indirect call per field evaluation.
// The field holds the model by reference: the model must outlive it.
#include <functional>
#include <type_traits>
#include <vector>

#include "taylor/tape.hpp"

namespace softcert::integrate {

template <class K>
class FastField {
 public:
  using OnValues = std::function<void(const std::vector<K>&, std::vector<K>&)>;
  using OnTape = std::function<void(const std::vector<taylor::Var<K>>&, std::vector<taylor::Var<K>>&)>;

  // Model: rhs(x, dxdt) templated on the scalar (called on std::vector<K> and on Taylor variables).
  template <class Model>
  explicit FastField(const Model& m)
      : values_([&m](const std::vector<K>& x, std::vector<K>& dx) { m.rhs(x, dx); }),
        tape_([&m](const std::vector<taylor::Var<K>>& x, std::vector<taylor::Var<K>>& dx) { m.rhs(x, dx); }) {}

  void operator()(const std::vector<K>& x, std::vector<K>& dxdt, const K& /*t*/) const { values_(x, dxdt); }
  // The same field on Taylor variables (what taylor::Tape::record calls).
  const OnTape& on_tape() const { return tape_; }

 private:
  OnValues values_;
  OnTape tape_;
};

// The field of a model built at kind K (its initial_state() is a std::vector<K>).
template <class Model>
auto odeint_system(const Model& m) {
  using K = typename std::decay_t<decltype(m.initial_state())>::value_type;
  return FastField<K>(m);
}
// Not from a temporary: the field would refer to a destroyed model.
template <class Model>
void odeint_system(const Model&&) = delete;

}  // namespace softcert::integrate
