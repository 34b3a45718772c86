#pragma once
// Adapts a model (rhs(x, dxdt) on std::vector) to Boost.Odeint's system concept
// sys(x, dxdt, t). Models are autonomous, so t is ignored.
#include <vector>

namespace softcert::integrate {

template <class Model>
struct OdeintSystem {
  const Model* model;
  explicit OdeintSystem(const Model& m) : model(&m) {}
  template <class State, class Time>
  void operator()(const State& x, State& dxdt, Time /*t*/) const { model->rhs(x, dxdt); }
};

template <class Model>
OdeintSystem<Model> odeint_system(const Model& m) { return OdeintSystem<Model>(m); }

}  // namespace softcert::integrate
