#include "reproduce/notebook_run.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <variant>

#include "integrate/fast_samples.hpp"
#include "integrate/gradient_descent.hpp"
#include "models/make_model.hpp"
#include "numerics/decimal.hpp"
#include "reproduce/experiment.hpp"
#include "softcert_authors_instances.hpp"

namespace softcert::reproduce {

namespace {

std::vector<double> slice(const std::vector<double>& x, std::size_t from, std::size_t n) {
  return {x.begin() + static_cast<std::ptrdiff_t>(from), x.begin() + static_cast<std::ptrdiff_t>(from + n)};
}

void finish(Observed& o) {
  double sum = 0;
  for (double v : o.alpha) sum += v;
  o.entropy = 0;
  o.max_weight = 0;
  bool signed_weights = false;
  for (double v : o.alpha) {
    const double p = v / sum;
    signed_weights = signed_weights || p < 0;
    if (p > 0) o.entropy -= p * std::log(p);
    o.max_weight = std::max(o.max_weight, p);
  }
  // The sum normalization a/Σa gives signed weights once a score turns negative: no entropy.
  if (signed_weights) o.entropy = std::numeric_limits<double>::quiet_NaN();
}

template <class M>
void gradient_norms(const M& m, const std::vector<double>& x, Observed& o) {
  std::vector<double> dx;
  m.rhs(x, dx);  // −∇L (t-time: Form::full)
  double v = 0, a = 0;
  for (std::size_t i = 0; i < m.a_offset(); ++i) v += dx[i] * dx[i];
  for (std::size_t i = m.a_offset(); i < m.a_offset() + m.tokens(); ++i) a += dx[i] * dx[i];
  o.grad_values_norm = std::sqrt(v);
  o.grad_a_norm = std::sqrt(a);
}

Observed observe(const models::ValueSoftmax<double>& m, const std::vector<double>& x) {
  Observed o;
  o.a = slice(x, m.a_offset(), m.tokens());
  std::vector<double> w;
  m.normalize(o.a, o.alpha, w);
  o.loss = m.loss_value(x);
  gradient_norms(m, x, o);
  if (!m.beta().empty()) {
    o.u.assign(m.tokens(), 0.0);
    for (std::size_t i = 0; i < m.dim(); ++i)
      for (std::size_t j = 0; j < m.tokens(); ++j) o.u[j] += x[i * m.tokens() + j] * m.beta()[i];
  }
  finish(o);
  return o;
}

Observed observe(const models::TiedValueSoftmax<double>& m, const std::vector<double>& x) {
  Observed o;
  o.a = slice(x, m.a_offset(), m.tokens());
  o.alpha = m.attention(x);
  o.loss = m.loss_value(x);
  const auto k = static_cast<std::size_t>(std::max_element(o.alpha.begin(), o.alpha.end()) - o.alpha.begin());
  o.attended_column_norm = std::sqrt(m.column_norm_squared(x, k));
  gradient_norms(m, x, o);
  finish(o);
  return o;
}

template <class M>
Observed observe(const M&, const std::vector<double>&) {
  throw ExperimentFailure("a notebook instance must be a full value-softmax or tied model");
}

double max_abs_difference(const std::vector<double>& p, const std::vector<double>& q) {
  double m = 0;
  for (std::size_t i = 0; i < p.size() && i < q.size(); ++i) m = std::max(m, std::abs(p[i] - q[i]));
  return m;
}

std::vector<std::uint64_t> sample_iterations(std::uint64_t n, std::size_t points, bool linear) {
  std::vector<std::uint64_t> ks{0};
  for (std::size_t i = 0; i < points; ++i) {
    const double e = std::log10(static_cast<double>(n)) * static_cast<double>(i) / static_cast<double>(points - 1);
    const auto k = static_cast<std::uint64_t>(std::llround(std::pow(10.0, e)));
    if (k > ks.back() && k <= n) ks.push_back(k);
  }
  if (linear)
    for (std::size_t i = 1; i < points; ++i)
      ks.push_back(static_cast<std::uint64_t>(std::llround(static_cast<double>(n) * static_cast<double>(i) /
                                                           static_cast<double>(points - 1))));
  ks.push_back(n);
  std::sort(ks.begin(), ks.end());
  ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
  while (!ks.empty() && ks.back() > n) ks.pop_back();
  return ks;
}

}  // namespace

std::vector<std::string> authors_instance_stems() {
  std::vector<std::string> out;
  for (const auto& [stem, body] : kAuthorsInstances) out.emplace_back(stem);
  return out;
}

AuthorsInstance authors_instance(const std::string& stem) {
  for (const auto& [name, body] : kAuthorsInstances) {
    if (stem != name) continue;
    AuthorsInstance a;
    a.stem = stem;
    a.json = nlohmann::json::parse(body);
    a.instance = instances::parse_instance(a.json);
    const nlohmann::json& run = a.instance.authors_run;
    if (!run.is_object() || !run.contains("learning_rate") || !run.contains("iterations"))
      throw ExperimentFailure("authors instance " + stem + ": no authors_run.learning_rate / iterations");
    a.learning_rate = num::parse_decimal<double>(run["learning_rate"].get<std::string>());
    a.iterations = run["iterations"].get<std::uint64_t>();
    a.cell = run.contains("cell") ? run["cell"].dump() : "";
    return a;
  }
  throw ExperimentFailure("this binary carries no authors' instance \"" + stem +
                          "\" (proofs_checks/instances/authors/" + stem + ".json)");
}

NotebookRun run_notebook(const AuthorsInstance& authors, std::size_t points, bool linear) {
  NotebookRun out;
  out.authors = authors;
  const auto model = models::make_model<double>(authors.instance, models::Form::full);
  std::visit([&](const auto& m) {
    const std::vector<std::uint64_t> ks = sample_iterations(authors.iterations, std::max<std::size_t>(points, 2), linear);
    std::vector<std::vector<double>> gd;
    integrate::gradient_descent(m, authors.learning_rate, authors.iterations, ks,
                                [&](std::uint64_t, const std::vector<double>& x) { gd.push_back(x); });
    for (const auto& x : gd)
      for (double v : x)
        if (!std::isfinite(v)) throw ExperimentFailure("the authors' gradient descent left the doubles (overflow)");
    std::vector<double> times;
    for (auto k : ks) times.push_back(static_cast<double>(k) * authors.learning_rate);
    integrate::FlowSamples flow, ref;
    try {
      // A step budget keeps kinked normalizations (|x|, relu) from chattering for ever.
      flow = integrate::flow_at_times(m, times, 1e-11, integrate::Stepper::dopri5, 2'000'000);
      ref = integrate::flow_at_times(m, times, 1e-13, integrate::Stepper::rkf78, 2'000'000);
    } catch (const std::exception& e) {
      out.flow_ok = false;
      out.flow_note = e.what();
    }
    out.flow_steps = flow.steps.accepted;
    if (out.flow_ok) {
      out.flow_digits = integrate::sample_agreement(flow, ref, [&](const std::vector<double>& x) {
        // α and a only: a loss near 0 is a sum of squares of tiny residuals, whose double
        // rounding (not the integration) limits its relative digits.
        Observed o = observe(m, x);
        std::vector<double> v = o.alpha;
        v.insert(v.end(), o.a.begin(), o.a.end());
        return v;
      });
    }
    for (std::size_t i = 0; i < ks.size(); ++i) {
      NotebookSample s;
      s.iteration = ks[i];
      s.t = times[i];
      s.gd = observe(m, gd[i]);
      if (out.flow_ok) {
        s.flow = observe(m, flow.states[i]);
        s.distance_alpha = max_abs_difference(s.gd.alpha, s.flow.alpha);
        s.distance_state = max_abs_difference(gd[i], flow.states[i]);
      }
      out.samples.push_back(std::move(s));
    }
  }, model);
  return out;
}

}  // namespace softcert::reproduce
