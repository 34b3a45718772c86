// Runs at scale, end to end through the binary: a run killed with SIGKILL and resumed equals
// an uninterrupted one; a corrupt journal met by --resume is refused (exit 2) and left alone,
// except for an unterminated last line (a cut append), which is dropped and recomputed;
// two shards merged equal the unsharded run; `mpirun -n 2` equals a single process; the
// reports people read (report.md, report.html, plots) are written, with or without gnuplot.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "support/run_cli.hpp"
#include "support/scratch_files.hpp"

namespace {

namespace fs = std::filesystem;
using softcert::testing::scratch_path;
using softcert::testing::read_text;
using softcert::testing::CliRun;
using softcert::testing::run_softcert;

const std::string kSuite = std::string(SOFTCERT_SOURCE_DIR) + "/tests/data/scale_suite.toml";
constexpr std::size_t kInstances = 120;  // tests/data/scale_suite.toml

std::size_t line_count(const fs::path& f) {
  const std::string t = read_text(f);
  return static_cast<std::size_t>(std::count(t.begin(), t.end(), '\n'));
}

// results.jsonl without the one field allowed to differ between runs.
std::vector<std::string> records_without_seconds(const fs::path& dir) {
  std::vector<std::string> out;
  std::ifstream in(dir / "results.jsonl");
  std::string line;
  while (std::getline(in, line)) {
    nlohmann::json r = nlohmann::json::parse(line);
    r.erase("seconds");
    out.push_back(r.dump());
  }
  return out;
}

// A shell command (run_softcert prefixes the binary; mpirun must come first).
CliRun run_command(const std::string& cmd) {
  const fs::path err_file = scratch_path("scale", "stderr.txt");
  CliRun r;
  FILE* p = popen((cmd + " 2>'" + err_file.string() + "'").c_str(), "r");
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p)) r.out += buf;
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.err = read_text(err_file);
  fs::remove(err_file);
  return r;
}

std::string quoted(const fs::path& p) { return std::string("'").append(p.string()).append("'"); }

// The uninterrupted single-process run every other run is compared with (made once).
const fs::path& baseline() {
  static const fs::path dir = [] {
    const fs::path d = scratch_path("scale", "baseline");
    const CliRun r = run_softcert("suite " + kSuite + " --jobs 1 --quiet --out " + quoted(d));
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    return d;
  }();
  return dir;
}

// summary.json without its entries' "seconds" (wall time: the one field equal runs differ in).
nlohmann::json scale_summary_without_seconds(const fs::path& dir) {
  nlohmann::json s = nlohmann::json::parse(read_text(dir / "summary.json"));
  for (auto& e : s["checks"]) e.erase("seconds");
  return s;
}

void expect_same_run(const fs::path& dir) {
  const auto base = records_without_seconds(baseline());
  ASSERT_EQ(base.size(), kInstances);
  EXPECT_EQ(records_without_seconds(dir), base);
  EXPECT_EQ(scale_summary_without_seconds(dir), scale_summary_without_seconds(baseline()));
}

// Starts `softcert suite` in the background (output discarded); returns its pid.
pid_t start_suite(const fs::path& out, bool resume) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int null_fd = ::open("/dev/null", O_WRONLY);
    dup2(null_fd, STDOUT_FILENO);
    dup2(null_fd, STDERR_FILENO);
    if (resume)
      execl(SOFTCERT_BINARY, SOFTCERT_BINARY, "suite", kSuite.c_str(), "--jobs", "1", "--quiet", "--out",
            out.c_str(), "--resume", static_cast<char*>(nullptr));
    else
      execl(SOFTCERT_BINARY, SOFTCERT_BINARY, "suite", kSuite.c_str(), "--jobs", "1", "--quiet", "--out",
            out.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

// Waits until the journal holds at least `lines` results, then SIGKILLs the run. Returns the
// number of results the killed run left behind.
std::size_t kill_after(pid_t pid, const fs::path& out, std::size_t lines) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (line_count(out / "results.jsonl") < lines && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "the run ended before it was killed";
  return line_count(out / "results.jsonl");
}

TEST(ScaleCli, KilledWithSigkillAndResumedEqualsUninterrupted) {
  baseline();
  const fs::path out = scratch_path("scale", "killed");
  // Killed twice at different points (the second time while resuming), then resumed to the end.
  const std::size_t first = kill_after(start_suite(out, false), out, 5);
  ASSERT_GE(first, 5u);
  ASSERT_LT(first, kInstances) << "the run finished before SIGKILL: make the suite longer";
  const std::size_t second = kill_after(start_suite(out, true), out, first + 10);
  ASSERT_GE(second, first);
  ASSERT_LT(second, kInstances);
  const CliRun r = run_softcert("suite " + kSuite + " --jobs 2 --quiet --resume --out " + quoted(out));
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("resumed: " + std::to_string(second) + " results"), std::string::npos) << r.out;
  expect_same_run(out);
}

TEST(ScaleCli, CorruptJournalMetByResumeIsRefusedAndLeftAlone) {
  const std::string good = read_text(baseline() / "results.jsonl");
  const std::size_t first_end = good.find('\n');
  // A line cut short that is NOT the last one: not what a killed append leaves behind.
  const std::string cut_inside = good.substr(0, first_end - 20) + good.substr(first_end);
  std::string garbled = good;
  garbled.replace(first_end + 1, 2, "#{");                        // second line not JSON
  const std::string foreign = "{\"check\":\"no.such\",\"instance\":\"x\",\"verdict\":\"proved\"}\n";
  // A complete line holding a number JSON cannot represent (found by fuzz/fuzz_journal.cpp:
  // nlohmann throws out_of_range there, not parse_error).
  const std::string overflow = good + "1E99999\n";
  // A droppable cut last line does not excuse corruption before it.
  const std::string garbled_and_cut = garbled.substr(0, garbled.size() - 40);
  for (const std::string& bad : {cut_inside, garbled, good + good.substr(0, first_end + 1), foreign, overflow,
                                 garbled_and_cut}) {
    const fs::path out = scratch_path("scale", "corrupt");
    fs::create_directories(out);
    std::ofstream(out / "results.jsonl", std::ios::binary) << bad;
    const CliRun r = run_softcert("suite " + kSuite + " --quiet --resume --out " + quoted(out));
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("results.jsonl"), std::string::npos) << "the message names the file: " << r.err;
    EXPECT_EQ(read_text(out / "results.jsonl"), bad) << "a refused journal must not be rewritten";
    EXPECT_FALSE(fs::exists(out / "summary.json"));
  }
}

TEST(ScaleCli, ResumeDropsOnlyAnUnterminatedLastLine) {
  // What SIGKILL during Journal::append's write() leaves: complete lines, then part of one.
  const std::string good = read_text(baseline() / "results.jsonl");
  std::size_t cut = 0;
  for (int i = 0; i < 30; ++i) cut = good.find('\n', cut) + 1;  // 30 complete lines
  const std::size_t next_end = good.find('\n', cut);
  for (const std::size_t keep : {std::size_t{1}, (next_end - cut) / 2, next_end - cut}) {  // up to the whole line, no newline
    const fs::path out = scratch_path("scale", "cut_last_line");
    fs::create_directories(out);
    std::ofstream(out / "results.jsonl", std::ios::binary) << good.substr(0, cut + keep);
    fs::copy_file(baseline() / "run.json", out / "run.json");  // the journal's header (run identity)
    const CliRun r = run_softcert("suite " + kSuite + " --quiet --resume --out " + quoted(out));
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("resumed: 30 results"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("dropped its unterminated last line (" + std::to_string(keep) + " bytes"), std::string::npos)
        << r.err;
    expect_same_run(out);
  }
}

TEST(ScaleCli, MergeOfTwoShardsEqualsUnshardedRun) {
  const fs::path a = scratch_path("scale", "shard1"), b = scratch_path("scale", "shard2"), merged = scratch_path("scale", "merged");
  // A shard judges only what it holds: the "refuted" entry is judged at merge, nothing is unexpected.
  const CliRun r1 = run_softcert("suite " + kSuite + " --quiet --shard 1/2 --out " + quoted(a));
  const CliRun r2 = run_softcert("suite " + kSuite + " --quiet --shard 2/2 --jobs 2 --out " + quoted(b));
  EXPECT_EQ(r1.status, 0) << r1.out << r1.err;
  EXPECT_EQ(r2.status, 0) << r2.out << r2.err;
  ASSERT_TRUE(fs::exists(a / "results.jsonl") && fs::exists(b / "results.jsonl")) << r1.err << r2.err;
  EXPECT_EQ(line_count(a / "results.jsonl") + line_count(b / "results.jsonl"), kInstances);
  const CliRun m = run_softcert("merge --out " + quoted(merged) + " " + quoted(a) + " " + quoted(b));
  EXPECT_EQ(m.status, 0) << m.out << m.err;
  expect_same_run(merged);
}

TEST(ScaleCli, MpiTwoRanksEqualSingleProcess) {
#ifndef SOFTCERT_MPIEXEC
  GTEST_SKIP() << "built without MPI";
#else
  const std::string mpirun = std::string("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ") +
                             SOFTCERT_MPIEXEC + " -n 2 --oversubscribe" +
                             (geteuid() == 0 ? " --allow-run-as-root " : " ");
  auto run_mpi = [&mpirun](const std::string& args) {
    return run_command(mpirun + SOFTCERT_BINARY + " " + args);
  };
  const fs::path out = scratch_path("scale", "mpi");
  const CliRun r = run_mpi("suite " + kSuite + " --quiet --jobs 1 --out " + quoted(out));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("MPI: 2 ranks"), std::string::npos) << r.out;
  expect_same_run(out);
  EXPECT_FALSE(fs::exists(out / ".mpi")) << "rank journals are removed once the report is written";
  for (const char* f : {"junit.xml", "manifest.json", "report.md", "report.html"}) EXPECT_TRUE(fs::exists(out / f)) << f;

  // Resuming under MPI reuses a single-process run's partial journal.
  const fs::path partial = scratch_path("scale", "mpi_resume");
  fs::create_directories(partial);
  {
    std::ifstream in(baseline() / "results.jsonl");
    std::ofstream keep(partial / "results.jsonl");
    std::string line;
    for (int i = 0; i < 30 && std::getline(in, line); ++i) keep << line << "\n";
  }
  fs::copy_file(baseline() / "run.json", partial / "run.json");
  const CliRun resumed = run_mpi("suite " + kSuite + " --quiet --resume --out " + quoted(partial));
  ASSERT_EQ(resumed.status, 0) << resumed.out << resumed.err;
  EXPECT_NE(resumed.out.find("resumed: 30 results"), std::string::npos) << resumed.out;
  expect_same_run(partial);

  // Under MPI too, a last line cut by the kill is dropped (and said so) and recomputed.
  const fs::path cut = scratch_path("scale", "mpi_cut");
  fs::create_directories(cut);
  {
    const std::string good = read_text(baseline() / "results.jsonl");
    std::size_t end = 0;
    for (int i = 0; i < 30; ++i) end = good.find('\n', end) + 1;
    std::ofstream(cut / "results.jsonl", std::ios::binary) << good.substr(0, end + 25);
  }
  fs::copy_file(baseline() / "run.json", cut / "run.json");
  const CliRun cut_run = run_mpi("suite " + kSuite + " --quiet --resume --out " + quoted(cut));
  ASSERT_EQ(cut_run.status, 0) << cut_run.out << cut_run.err;
  EXPECT_NE(cut_run.out.find("resumed: 30 results"), std::string::npos) << cut_run.out;
  EXPECT_NE(cut_run.err.find("dropped its unterminated last line (25 bytes"), std::string::npos) << cut_run.err;
  expect_same_run(cut);

  // A corrupt journal stops every rank with exit 2 (no rank waits forever).
  std::ofstream(partial / "results.jsonl", std::ios::app) << "{\"check\": trunc\n";
  const CliRun bad = run_mpi("suite " + kSuite + " --quiet --resume --out " + quoted(partial));
  EXPECT_EQ(bad.status, 2) << bad.out << bad.err;
  EXPECT_NE(bad.err.find("corrupt"), std::string::npos) << bad.err;
#endif
}

TEST(ScaleCli, ReportsForPeopleHaveTablesAndPlots) {
  const fs::path& dir = baseline();
  const std::string md = read_text(dir / "report.md"), html = read_text(dir / "report.html");
  EXPECT_NE(md.find("| <code>sukenik2026.sink_representability</code> | refuted |"), std::string::npos) << md;
  EXPECT_NE(html.find("<table>"), std::string::npos);
  const std::string csv = read_text(dir / "plots/instances.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "index,check,instance,verdict,margin_lower,margin_mid,margin_upper,margin_at_least,seconds,paper");
  EXPECT_EQ(line_count(dir / "plots/instances.csv"), kInstances + 1);
  if (run_command("command -v gnuplot").status == 0) {
    for (const char* png : {"plots/verdicts.png", "plots/margins.png", "plots/seconds.png"}) {
      ASSERT_TRUE(fs::exists(dir / png)) << png << "\n" << md;
      EXPECT_EQ(read_text(dir / png).substr(1, 3), "PNG") << png;
      EXPECT_NE(md.find(std::string("](") + png + ")"), std::string::npos) << png;
    }
    EXPECT_NE(html.find("<img src=\"data:image/png;base64,"), std::string::npos) << "plots embedded";
  }
  // Without gnuplot the reports say so, and the run's outcome does not change.
  const fs::path bare = scratch_path("scale", "no_gnuplot");
  const CliRun r = run_command("SOFTCERT_GNUPLOT=none " + std::string(SOFTCERT_BINARY) +
                                                  " suite " + kSuite + " --quiet --shard 1/4 --out " + quoted(bare));
  // The same shard with plots on: the exit code (0, or 1 when the shard holds no violation of a
  // "refuted" entry — decided by the records alone), the records and the summary must not change.
  const fs::path plotted = scratch_path("scale", "with_gnuplot");
  const CliRun p = run_softcert("suite " + kSuite + " --quiet --shard 1/4 --out " + quoted(plotted));
  EXPECT_EQ(r.status, p.status) << r.err << p.err;
  EXPECT_NE(r.status, 2) << r.err;
  EXPECT_EQ(records_without_seconds(bare), records_without_seconds(plotted));
  EXPECT_EQ(scale_summary_without_seconds(bare), scale_summary_without_seconds(plotted));
  // and every record of the shard is the unsharded run's record of that instance (up to the
  // run's identity, which names the shard)
  auto without_run = [](const std::vector<std::string>& records) {
    std::vector<std::string> out;
    for (const auto& r : records) {
      nlohmann::json j = nlohmann::json::parse(r);
      j.erase("run");
      out.push_back(j.dump());
    }
    return out;
  };
  const auto all = without_run(records_without_seconds(dir));
  const auto mine = without_run(records_without_seconds(bare));
  EXPECT_FALSE(mine.empty());
  for (const auto& rec : mine) EXPECT_NE(std::find(all.begin(), all.end(), rec), all.end()) << rec;
  EXPECT_NE(read_text(bare / "report.md").find("Plots skipped: plots disabled"), std::string::npos);
  EXPECT_NE(read_text(bare / "report.html").find("Plots skipped"), std::string::npos);
  EXPECT_FALSE(fs::exists(bare / "plots/verdicts.png"));
}

}  // namespace
