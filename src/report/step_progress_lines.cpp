#include "report/step_progress_lines.hpp"

#include <unistd.h>

#include <cmath>
#include <iomanip>
#include <sstream>

namespace softcert::report {

StepProgressLines::StepProgressLines(std::string label, std::chrono::duration<double> first_after,
                                     std::chrono::duration<double> every, std::FILE* out)
    : label_(std::move(label)),
      every_(every),
      out_(out),
      tty_(isatty(fileno(out)) != 0),
      start_(std::chrono::steady_clock::now()),
      next_(start_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(first_after)) {}

void StepProgressLines::operator()(const support::StepProgress& p) {
  const auto now = std::chrono::steady_clock::now();
  if (now < next_) return;
  next_ = now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(every_);
  std::ostringstream line;
  line << label_ << ": run " << p.run << ", " << p.steps << " validated step" << (p.steps == 1 ? "" : "s") << ", "
       << p.variable << " ≈ " << std::setprecision(6) << p.at;
  if (p.variable == "t") line << " of " << p.horizon;
  else line << " (END: t = " << p.horizon << ")";
  line << " (" << elapsed_text(std::chrono::duration<double>(now - start_).count()) << ")\n";
  const std::string text = (tty_ ? "\r\033[K" : "") + line.str();
  std::fputs(text.c_str(), out_);
  std::fflush(out_);
}

std::string elapsed_text(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  std::ostringstream o;
  if (s < 60) o << s << " s";
  else if (s < 3600) o << s / 60 << " min " << s % 60 << " s";
  else o << s / 3600 << " h " << std::setw(2) << std::setfill('0') << (s % 3600) / 60 << " min";
  return o.str();
}

}  // namespace softcert::report
