#include "search/shrink_candidates.hpp"

#include <optional>
#include <string>

#include "search/decimal_shortening.hpp"
#include "search/instance_leaves.hpp"

namespace softcert::search {

namespace {

std::optional<long> size_of(const nlohmann::json& v) {
  if (v.is_number_integer()) return v.get<long>();
  if (!v.is_string()) return std::nullopt;
  const std::string& s = v.get_ref<const std::string&>();
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return std::stol(s);
}

void erase_at(nlohmann::json& array, long k) {
  if (array.is_array() && k < static_cast<long>(array.size())) array.erase(static_cast<std::size_t>(k));
}

}  // namespace

std::vector<nlohmann::json> remove_index_candidates(const nlohmann::json& instance, const IndexAxis& axis) {
  std::vector<nlohmann::json> out;
  if (!instance.is_object() || !instance.contains(axis.size_field)) return out;
  const nlohmann::json& size_field = instance[axis.size_field];
  const auto n = size_of(size_field);
  if (!n || *n < 2) return out;
  for (long k = *n - 1; k >= 0; --k) {
    nlohmann::json c = instance;
    c[axis.size_field] = size_field.is_string() ? nlohmann::json(std::to_string(*n - 1)) : nlohmann::json(*n - 1);
    for (const auto& [field, depth] : axis.arrays) {
      if (!c.contains(field)) continue;
      nlohmann::json& a = c[field];
      if (depth == 0) {
        erase_at(a, k);
      } else if (a.is_array()) {
        for (auto& row : a) erase_at(row, k);
      }
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<nlohmann::json> shorten_decimal_candidates(const nlohmann::json& instance) {
  const auto leaves = decimal_leaves(instance);
  std::vector<nlohmann::json> out;
  // A leaf's shortened text at `digits` significant digits (0: the number zero), if shorter.
  auto shortened = [&instance](const nlohmann::json::json_pointer& at, int digits) -> std::optional<std::string> {
    const std::string& text = instance.at(at).get_ref<const std::string&>();
    if (digits > 0) return round_significant(text, digits);
    const auto have = significant_digits(text);
    return have && *have > 0 ? std::optional<std::string>("0") : std::nullopt;
  };
  for (int digits = 0; digits <= 3; ++digits) {
    nlohmann::json c = instance;
    bool changed = false;
    for (const auto& at : leaves)
      if (const auto s = shortened(at, digits)) {
        c[at] = *s;
        changed = true;
      }
    if (changed) out.push_back(std::move(c));
  }
  for (const auto& at : leaves)
    for (int digits = 0; digits <= 3; ++digits)
      if (const auto s = shortened(at, digits)) {
        nlohmann::json c = instance;
        c[at] = *s;
        out.push_back(std::move(c));
      }
  return out;
}

std::vector<nlohmann::json> default_shrink_candidates(const nlohmann::json& instance) {
  std::vector<nlohmann::json> out;
  const bool value_softmax = instance.is_object() && instance.contains("model") && instance["model"] == "value_softmax";
  if (value_softmax)
    for (const auto& axis : instances::value_softmax_axes())
      for (auto& c : remove_index_candidates(instance, axis)) out.push_back(std::move(c));
  for (auto& c : shorten_decimal_candidates(instance)) out.push_back(std::move(c));
  return out;
}

}  // namespace softcert::search
