#pragma once
// Writes the enclosed gradient-descent iterates of a run with Lohner's wrapping control
// (integrate/gradient_descent_lohner.hpp) as certificate lines (docs/certificates.md): one line per
// iterate k with its doubleton {c + A r}, every number the exact decimal of a double. The radii r
// are written widened about their midpoints (× widen + a floor), for the reason
// integrate/step_certificate.hpp gives: the checker's other arithmetic is wider in the last bits,
// and a wider chain is as good a proof. Nothing here is trusted.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "integrate/gradient_descent_lohner.hpp"
#include "numerics/decimal.hpp"
#include "numerics/kinds.hpp"

namespace softcert::integrate {

class GdCertificateWriter {
 public:
  static constexpr double kFloor = 0x1p-100;
  explicit GdCertificateWriter(double widen = 4) : widen_(widen) {}

  void visit(std::uint64_t k, const DoubletonSet<IntervalD>& d) {
    if (k != lines_.size()) usable_ = false;  // iterates come in order, from 0
    const std::size_t n = d.c.size();
    nlohmann::json c = nlohmann::json::array(), A = nlohmann::json::array(), r = nlohmann::json::array();
    for (std::size_t i = 0; i < n; ++i) {
      if (num::lower(d.c[i]) != num::upper(d.c[i])) usable_ = false;
      c.push_back(num::exact_decimal(num::lower(d.c[i])));
      nlohmann::json row = nlohmann::json::array();
      for (std::size_t j = 0; j < n; ++j) {
        const IntervalD& a = d.B[i * n + j];
        if (num::lower(a) != num::upper(a)) usable_ = false;
        row.push_back(num::exact_decimal(num::lower(a)));
      }
      A.push_back(std::move(row));
      const double lo = num::lower(d.r[i]), hi = num::upper(d.r[i]);
      const double m = lo + (hi - lo) / 2, rad = (hi - lo) / 2 * widen_ + kFloor;
      r.push_back(nlohmann::json::array({num::exact_decimal(m - rad), num::exact_decimal(m + rad)}));
    }
    lines_.push_back(nlohmann::json{{"iterate", k}, {"set", {{"c", c}, {"B", A}, {"r", r}}}}.dump());
  }
  bool usable() const { return usable_ && lines_.size() >= 2; }
  const std::vector<std::string>& lines() const { return lines_; }

 private:
  std::vector<std::string> lines_;
  double widen_;
  bool usable_ = true;
};

}  // namespace softcert::integrate
