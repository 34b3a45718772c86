#pragma once
// The reports people read: DIR/report.md and DIR/report.html — the verdict table, the
// comparison with a previous run when one is given (`suite --previous DIR`: report/run_diff.hpp,
// regressions first), the figures of report/run_plots.hpp (embedded in the HTML, so the file
// stands alone), and the instances that did not end in `proved`/`confirmed`, with their reasons.
#include <filesystem>
#include <string>

#include "engine/runner.hpp"
#include "report/run_diff.hpp"
#include "report/run_plots.hpp"

namespace softcert::report {

// `previous`: this run compared with an earlier one (nullptr: no such section).
std::string markdown_report(const engine::Suite& suite, const engine::SuiteReport& report, const RunFigures& figures,
                            const RunDiff* previous = nullptr);

// `dir` is where the images are read from (to embed them as data: URIs).
std::string html_report(const engine::Suite& suite, const engine::SuiteReport& report, const RunFigures& figures,
                        const std::filesystem::path& dir, const RunDiff* previous = nullptr);

// Draws the figures and writes report.md and report.html into `dir`.
void write_documents(const std::filesystem::path& dir, const engine::Suite& suite, const engine::SuiteReport& report,
                     const RunDiff* previous = nullptr);

// The comparison's groups shown in a report: at most this many lines each, then "... and N more"
// (the whole comparison is `softcert diff PREVIOUS DIR`).
inline constexpr std::size_t kDiffLinesShown = 30;

// At most `limit` records whose verdict is violated, inconclusive or error, in plan order.
std::vector<const nlohmann::json*> notable_records(const engine::SuiteReport& report, std::size_t limit);

// "0 (every outcome as expected)" etc.
std::string exit_status_text(int status);

}  // namespace softcert::report
