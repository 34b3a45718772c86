#include "search/instance_coordinates.hpp"

#include <cmath>
#include <stdexcept>

#include "search/decimal_shortening.hpp"
#include "search/instance_leaves.hpp"
#include "numerics/decimal.hpp"

namespace softcert::search {

InstanceCoordinates::InstanceCoordinates(nlohmann::json instance) : instance_(std::move(instance)) {
  for (const auto& at : search::decimal_leaves(instance_)) {
    double x = 0;
    try {
      x = num::parse_decimal<Real>(instance_.at(at).get<std::string>());
    } catch (const std::invalid_argument&) {
      continue;
    }
    if (!std::isfinite(x)) continue;
    leaves_.push_back(at);
    values_.push_back(x);
  }
}

nlohmann::json InstanceCoordinates::with(const std::vector<double>& x) const {
  if (x.size() != leaves_.size()) throw std::logic_error("InstanceCoordinates::with: wrong number of coordinates");
  nlohmann::json out = instance_;
  for (std::size_t k = 0; k < x.size(); ++k) out[leaves_[k]] = num::decimal_nearest(x[k], kDigits);
  return out;
}

}  // namespace softcert::search
