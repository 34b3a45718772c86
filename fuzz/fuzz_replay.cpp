// libFuzzer target: the counterexample reader of `softcert replay` (engine::read_replay_record)
// on arbitrary text; a record that reads is replayed when its check is the exact, fast
// sukenik2026.sink_representability (its instance reader and certificate checker then see
// hostile instances too).
#include <stdexcept>

#include "engine/replay.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace softcert;
  engine::ReplayRequest req;
  try {
    req = engine::read_replay_record(fuzz::as_text(data, size), "fuzz");
  } catch (const std::invalid_argument&) {
    return 0;
  }
  if (req.check->name() != "sukenik2026.sink_representability") return 0;
  try {
    (void)req.check->run(req.instance, req.options);
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
