#include "search/replay_certification.hpp"

#include <stdexcept>

#include "engine/replay.hpp"
#include "engine/verdict_policy.hpp"

namespace softcert::search {

nlohmann::json replay_fields(const std::string& check, const Counterexample& c, const nlohmann::json& params,
                             const std::set<std::string>& dropped) {
  nlohmann::json r;
  r["check"] = check;
  r["counterexample"] = c.instance;
  r["horizon"] = c.horizon ? nlohmann::json(*c.horizon) : nlohmann::json(nullptr);
  r["precision_bits"] = c.result.precision_bits;
  r["params"] = params.is_object() ? params : nlohmann::json::object();
  r["dropped"] = dropped;
  return r;
}

std::optional<engine::CheckResult> replay_result(const nlohmann::json& record, std::string* why) {
  try {
    const engine::ReplayRequest req = engine::read_replay_record(record.dump(), "counterexample record");
    return engine::run_check(*req.check, req.instance, req.options);
  } catch (const std::exception& e) {
    if (why) *why = e.what();
    return std::nullopt;
  }
}

}  // namespace softcert::search
