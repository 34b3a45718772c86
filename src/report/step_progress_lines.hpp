#pragma once
// What `softcert check` prints on stderr while its runs step (support/step_progress.hpp): a
// line after `first_after` seconds and then every `every` seconds, naming the run, its validated
// steps and the time it reached, e.g.
//     softcert check varre2026.tied.attended_column_grows: run 1, 57 validated steps, t ≈ 12.31 of 500 (2 min 3 s)
// On a terminal each line first clears the line the suite's progress bar may have left.
#include <chrono>
#include <cstdio>
#include <string>

#include "support/step_progress.hpp"

namespace softcert::report {

class StepProgressLines {
 public:
  StepProgressLines(std::string label, std::chrono::duration<double> first_after, std::chrono::duration<double> every,
                    std::FILE* out = stderr);
  void operator()(const support::StepProgress& p);

 private:
  std::string label_;
  std::chrono::duration<double> every_;
  std::FILE* out_;
  bool tty_;
  std::chrono::steady_clock::time_point start_, next_;
};

// "2 min 3 s", "45 s", "1 h 02 min".
std::string elapsed_text(double seconds);

}  // namespace softcert::report
