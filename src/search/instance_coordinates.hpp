#pragma once
// An instance as a point of R^n, for local optimisation: its decimal leaves
// (search/instance_leaves.hpp) read as doubles, and written back as decimal strings with 10
// significant digits. The written instance is what the check decides on, exactly as written;
// the doubles are only the optimiser's handle on it.
#include <cstddef>
#include <vector>

#include <nlohmann/json.hpp>

namespace softcert::search {

class InstanceCoordinates {
 public:
  // Leaves that do not read as a finite double (e.g. "1e400") are left out: they stay fixed.
  explicit InstanceCoordinates(nlohmann::json instance);
  std::size_t size() const { return leaves_.size(); }
  const std::vector<double>& values() const { return values_; }
  // The instance with coordinate k set to x[k] (x.size() == size()).
  nlohmann::json with(const std::vector<double>& x) const;

  static constexpr int kDigits = 10;

 private:
  nlohmann::json instance_;
  std::vector<nlohmann::json::json_pointer> leaves_;
  std::vector<double> values_;
};

}  // namespace softcert::search
