#pragma once
// Progress of a long run on stderr: a bar redrawn in place on a terminal; on a pipe or file,
// one line per 10 % or per 10 s, whichever comes first, so logs stay short and readable.
#include <chrono>
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace softcert::report {

class Progress {
 public:
  explicit Progress(std::string label, bool enabled = true);
  void update(const nlohmann::json& record, std::size_t done, std::size_t total);
  void finish();

 private:
  std::string label_;
  bool enabled_, tty_;
  std::size_t last_decile_ = 0, violated_ = 0, inconclusive_ = 0, errors_ = 0;
  std::chrono::steady_clock::time_point start_, last_line_;
  bool drawn_ = false;
};

}  // namespace softcert::report
