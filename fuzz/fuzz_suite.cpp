// libFuzzer target: the suite reader (engine::load_suite, TOML) on arbitrary text, written to
// a scratch file because load_suite reads a path. A suite that loads is also planned (when
// small) and described in a manifest, as `softcert suite` would.
#include <stdexcept>

#include "engine/runner.hpp"
#include "engine/suite.hpp"
#include "fuzz_support.hpp"
#include "report/summary.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace softcert;
  const auto file = fuzz::scratch_file(fuzz::as_text(data, size), ".toml");
  engine::Suite suite;
  try {
    suite = engine::load_suite(file);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  std::size_t total = 0;
  for (const auto& e : suite.entries) total += e.instances + e.instance_files.size();
  if (total <= 10000) (void)engine::plan(suite);  // up to 1e6 instances per entry is valid but slow to plan
  (void)report::manifest_json(suite, {"softcert", "suite", file.string()}).dump();
  return 0;
}
