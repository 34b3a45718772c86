// Peer (table 1): the reduced logistic flow of the headline instance integrated the way a user
// of Boost.Odeint would write it: mpfr_float (Boost.Multiprecision's default, expression
// templates on), std::vector state, runge_kutta_dopri5 with make_controlled and
// integrate_adaptive. Deliberately independent of softcert (only the instance file is shared).
// The one non-obvious line a user needs is the extract_value_type specialisation below
// (docs/fast_tier.md: Odeint's controlled steppers do not compile on mpfr_float without it).
// Usage: odeint_user_dopri5 INSTANCE.json T_END DIGITS10 TOLERANCE
// Prints one JSON object: {"seconds", "steps", "a": [...], "u": [...]} (decimal strings).
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <boost/multiprecision/mpfr.hpp>
#include <boost/numeric/odeint/algebra/detail/extract_value_type.hpp>
#include <nlohmann/json.hpp>

using real = boost::multiprecision::mpfr_float;

namespace boost::numeric::odeint::detail {
template <>
struct extract_value_type<real, void> {
  using type = real;
};
}  // namespace boost::numeric::odeint::detail

#include <boost/numeric/odeint.hpp>

using state = std::vector<real>;

struct reduced_logistic {
  std::size_t T;
  real c;
  void operator()(const state& x, state& dxdt, real /*t*/) const {
    real m = x[0];
    for (std::size_t i = 1; i < T; ++i) m = std::max(m, real(x[i]));
    state s(T);
    real z = 0;
    for (std::size_t i = 0; i < T; ++i) {
      s[i] = exp(x[i] - m);
      z += s[i];
    }
    real su = 0;
    for (std::size_t i = 0; i < T; ++i) {
      s[i] /= z;
      su += s[i] * x[T + i];
    }
    const real g = 1 / (1 + exp(su));
    for (std::size_t i = 0; i < T; ++i) {
      dxdt[i] = g * s[i] * (x[T + i] - su);
      dxdt[T + i] = g * c * s[i];
    }
  }
};

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: odeint_user_dopri5 INSTANCE.json T_END DIGITS10 TOLERANCE\n";
    return 2;
  }
  real::default_precision(static_cast<unsigned>(std::stoul(argv[3])));
  std::ifstream in(argv[1]);
  const nlohmann::json inst = nlohmann::json::parse(in);
  const std::size_t T = inst["T"], d = inst["d"];
  state x(2 * T, real(0));
  real c = 0;
  for (std::size_t r = 0; r < d; ++r) {
    const real b(inst["beta"][r].get<std::string>());
    c += b * b;
    for (std::size_t i = 0; i < T; ++i) x[T + i] += real(inst["V"][r][i].get<std::string>()) * b;
  }
  for (std::size_t i = 0; i < T; ++i) x[i] = real(inst["a"][i].get<std::string>());
  const real t_end(argv[2]), tol(argv[4]);

  namespace ode = boost::numeric::odeint;
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t steps = ode::integrate_adaptive(
      ode::make_controlled(tol, tol, ode::runge_kutta_dopri5<state, real, state, real>()), reduced_logistic{T, c}, x,
      real(0), t_end, real("0.01"));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  nlohmann::json out;
  out["seconds"] = seconds;
  out["steps"] = steps;
  const int digits = static_cast<int>(std::stoul(argv[3])) + 5;
  for (std::size_t i = 0; i < T; ++i) {
    out["a"].push_back(x[i].str(digits, std::ios_base::scientific));
    out["u"].push_back(x[T + i].str(digits, std::ios_base::scientific));
  }
  std::cout << out.dump() << "\n";
}
