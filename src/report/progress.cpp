#include "report/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace softcert::report {

Progress::Progress(std::string label, bool enabled)
    : label_(std::move(label)),
      enabled_(enabled),
      tty_(isatty(STDERR_FILENO) != 0),
      start_(std::chrono::steady_clock::now()),
      last_line_(start_) {}

void Progress::expect_from(const engine::Suite& suite) {
  for (const auto& e : suite.entries) expect_[e.label.empty() ? e.check : e.label] = e.expect;
}

void Progress::update(const nlohmann::json& record, std::size_t done, std::size_t total) {
  const std::string v = record.value("verdict", "");
  const std::string entry = record.value("entry", record.value("check", ""));
  const auto it = expect_.find(entry);
  const bool refuted = it != expect_.end() && it->second == engine::Expectation::refuted;
  if (v == "inconclusive") ++inconclusive_;
  else if (v == "error" || (v == "violated" && !refuted)) ++unexpected_;
  else {
    ++expected_;
    expected_violations_ += v == "violated";
  }
  if (!enabled_ || total == 0) return;
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  if (tty_) {
    const int width = 30;
    const int filled = static_cast<int>(width * done / total);
    std::fprintf(stderr, "\r%s [%.*s%*s] %zu/%zu  %.1fs  as expected %zu (%zu expected violations)  UNEXPECTED %zu  inconclusive %zu",
                 label_.c_str(), filled, "##############################", width - filled, "", done, total, elapsed,
                 expected_, expected_violations_, unexpected_, inconclusive_);
    std::fflush(stderr);
    drawn_ = true;
    return;
  }
  const std::size_t decile = 10 * done / total;
  if (decile > last_decile_ || std::chrono::duration<double>(now - last_line_).count() >= 10 || done == total) {
    last_decile_ = decile;
    last_line_ = now;
    std::fprintf(stderr, "%s: %zu/%zu done, %.1fs: as expected %zu (of which %zu expected violations), UNEXPECTED %zu, "
                 "inconclusive %zu\n", label_.c_str(), done, total, elapsed, expected_, expected_violations_, unexpected_,
                 inconclusive_);
  }
}

void Progress::finish() {
  if (drawn_) std::fprintf(stderr, "\n");
  drawn_ = false;
}

}  // namespace softcert::report
