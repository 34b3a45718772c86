#pragma once
// Progress of a long run on stderr: a bar redrawn in place on a terminal; on a pipe or file,
// one line per 10 % or per 10 s, whichever comes first, so logs stay short and readable.
// Results are counted as the suite judges them: as expected (a violation of an entry that
// expects `refuted` is expected), unexpected (a violation or error where the claim should
// hold, an error anywhere), inconclusive.
#include <chrono>
#include <cstddef>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/suite.hpp"

namespace softcert::report {

class Progress {
 public:
  explicit Progress(std::string label, bool enabled = true);
  // Each entry's expectation (by label); without it every entry is taken to expect `holds`.
  void expect_from(const engine::Suite& suite);
  void update(const nlohmann::json& record, std::size_t done, std::size_t total);
  void finish();

 private:
  std::string label_;
  bool enabled_, tty_;
  std::size_t last_decile_ = 0, expected_ = 0, expected_violations_ = 0, unexpected_ = 0, inconclusive_ = 0;
  std::map<std::string, engine::Expectation> expect_;
  std::chrono::steady_clock::time_point start_, last_line_;
  bool drawn_ = false;
};

}  // namespace softcert::report
