#include "engine/registry.hpp"

#include <algorithm>
#include <stdexcept>

#include "numerics/nearest_word.hpp"
#include "numerics/quote.hpp"

namespace softcert::engine {

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::proved: return "proved";
    case Verdict::confirmed: return "confirmed";
    case Verdict::violated: return "violated";
    case Verdict::inconclusive: return "inconclusive";
    case Verdict::error: return "error";
  }
  return "error";
}

std::optional<Verdict> verdict_from_string(const std::string& s) {
  for (Verdict v : {Verdict::proved, Verdict::confirmed, Verdict::violated, Verdict::inconclusive, Verdict::error})
    if (s == to_string(v)) return v;
  return std::nullopt;
}

const char* to_string(Tier t) { return t == Tier::fast ? "fast" : "rigorous"; }

CheckRegistry& CheckRegistry::global() {
  static CheckRegistry registry;
  return registry;
}

void CheckRegistry::add(std::unique_ptr<Check> check) {
  if (find(check->name())) throw std::logic_error("check registered twice: " + check->name());
  checks_.push_back(std::move(check));
}

const Check* CheckRegistry::find(const std::string& name) const {
  for (const auto& c : checks_)
    if (c->name() == name) return c.get();
  return nullptr;
}

std::vector<const Check*> CheckRegistry::all() const {
  std::vector<const Check*> out;
  for (const auto& c : checks_) out.push_back(c.get());
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->name() < b->name(); });
  return out;
}

std::string CheckRegistry::unknown(const std::string& name) const {
  std::vector<std::string> names;
  for (const auto& c : checks_) names.push_back(c->name());
  return "no check named " + num::quoted(name) + num::did_you_mean(name, names);
}

}  // namespace softcert::engine
