#include "reproduce/certified_gd.hpp"

#include <algorithm>
#include <cmath>

#include "engine/verdict_policy.hpp"
#include "integrate/flow.hpp"
#include "models/logistic_reduced.hpp"

namespace softcert::reproduce {

namespace {

// The width of an enclosure as a double, rounded up (ends read outward).
double enclosure_width(const num::Enclosure& e) { return e.upper_up() - e.lower_down(); }

}  // namespace

double CertifiedIterates::max_width() const {
  double w = 0;
  for (const auto& it : iterates) w = std::max(w, it.width);
  return w;
}

CertifiedIterates certify_gd_iterates(const instances::Instance& inst, double lr, std::uint64_t iterations,
                                      const std::vector<std::uint64_t>& record_at, unsigned bits, double max_width,
                                      const std::function<void(std::uint64_t)>& progress) {
  if (!std::is_sorted(record_at.begin(), record_at.end())) throw std::invalid_argument("record_at: must be sorted");
  CertifiedIterates out;
  out.lr = lr;
  out.requested = record_at.empty() ? 0 : std::min(iterations, record_at.back());
  engine::with_interval_kind(bits, [&](auto kind, unsigned used) {
    using S = decltype(kind);
    out.precision_bits = used;
    const auto model = models::LogisticReduced<S>::from_instance(inst);
    const std::size_t T = inst.T;
    std::size_t next = 0;
    out.done = flow::gradient_descent_iterates<S>(
        model, S(lr), out.requested, flow::GdWrapping::lohner,
        [&](std::uint64_t k, const std::vector<S>& x) {
      if (progress && k > 0 && k % 100000 == 0) progress(k);
      for (const auto& c : x)
        if (!(num::width(c) <= max_width)) {
          out.note = "stopped at iterate " + std::to_string(k) + ": an enclosure is wider than " + std::to_string(max_width);
          return false;
        }
      while (next < record_at.size() && record_at[next] < k) ++next;
      if (next < record_at.size() && record_at[next] == k) {
        CertifiedIterate it;
        it.k = k;
        const std::vector<S> s = model.attention(x);
        for (std::size_t i = 0; i < T; ++i) {
          it.sigma.emplace_back(s[i]);
          it.u.emplace_back(x[T + i]);
        }
        it.loss = num::Enclosure(model.loss_value(x));
        for (const auto* v : {&it.sigma, &it.u})
          for (const auto& e : *v) it.width = std::max(it.width, enclosure_width(e));
        out.iterates.push_back(std::move(it));
      }
      return true;
    });
    return 0;
  });
  return out;
}

}  // namespace softcert::reproduce
