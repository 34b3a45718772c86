#include "search/nelder_mead.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

namespace softcert::search {

namespace {
using Vec = std::vector<double>;

Vec along(const Vec& from, const Vec& to, double t) {  // from + t·(to − from)
  Vec out(from.size());
  for (std::size_t k = 0; k < from.size(); ++k) out[k] = from[k] + t * (to[k] - from[k]);
  return out;
}
}  // namespace

NelderMeadResult nelder_mead(const std::function<double(const Vec&)>& f, const Vec& x0, const NelderMeadOptions& o) {
  NelderMeadResult best;
  best.x = x0;
  // One evaluation, or nullopt once the run must end (cap, stop request, target reached).
  auto eval = [&](const Vec& x) -> std::optional<double> {
    if (best.evaluations >= o.max_evaluations || best.f < o.stop_below || (o.should_stop && o.should_stop()))
      return std::nullopt;
    double v = f(x);
    if (std::isnan(v)) v = std::numeric_limits<double>::infinity();
    ++best.evaluations;
    if (v < best.f) {
      best.f = v;
      best.x = x;
    }
    return v;
  };
  const std::size_t n = x0.size();
  std::vector<Vec> pts{x0};
  std::vector<double> fv;
  if (const auto v = eval(x0)) fv.push_back(*v); else return best;
  if (n == 0) return best;
  for (std::size_t k = 0; k < n; ++k) {
    Vec x = x0;
    x[k] += std::max(o.relative_step * std::fabs(x0[k]), o.absolute_step);
    const auto v = eval(x);
    if (!v) return best;
    pts.push_back(std::move(x));
    fv.push_back(*v);
  }
  for (;;) {
    // Order the vertices best first; stable, so ties keep their order (determinism).
    std::vector<std::size_t> idx(n + 1);
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&fv](std::size_t a, std::size_t b) { return fv[a] < fv[b]; });
    std::vector<Vec> p2;
    std::vector<double> f2;
    for (std::size_t i : idx) {
      p2.push_back(pts[i]);
      f2.push_back(fv[i]);
    }
    pts.swap(p2);
    fv.swap(f2);
    // A collapsed simplex has nothing more to say.
    double diameter = 0, scale = 1;
    for (std::size_t i = 1; i <= n; ++i)
      for (std::size_t k = 0; k < n; ++k) {
        diameter = std::max(diameter, std::fabs(pts[i][k] - pts[0][k]));
        scale = std::max(scale, std::fabs(pts[0][k]));
      }
    if (diameter <= 1e-12 * scale) return best;
    Vec c(n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t k = 0; k < n; ++k) c[k] += pts[i][k] / static_cast<double>(n);
    const Vec xr = along(c, pts[n], -1.0);
    const auto fr = eval(xr);
    if (!fr) return best;
    if (*fr < fv[0]) {
      const Vec xe = along(c, pts[n], -2.0);
      const auto fe = eval(xe);
      if (!fe) return best;
      if (*fe < *fr) { pts[n] = xe; fv[n] = *fe; } else { pts[n] = xr; fv[n] = *fr; }
      continue;
    }
    if (*fr < fv[n - 1]) {
      pts[n] = xr;
      fv[n] = *fr;
      continue;
    }
    const bool outside = *fr < fv[n];
    const Vec xc = outside ? along(c, xr, 0.5) : along(c, pts[n], 0.5);
    const auto fc = eval(xc);
    if (!fc) return best;
    if (outside ? *fc <= *fr : *fc < fv[n]) {
      pts[n] = xc;
      fv[n] = *fc;
      continue;
    }
    for (std::size_t i = 1; i <= n; ++i) {  // shrink towards the best vertex
      pts[i] = along(pts[0], pts[i], 0.5);
      const auto v = eval(pts[i]);
      if (!v) return best;
      fv[i] = *v;
    }
  }
}

}  // namespace softcert::search
