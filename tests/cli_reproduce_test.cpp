// `softcert reproduce`: --list names every experiment; bad usage exits 2 and writes nothing;
// the cost-scaling and headline experiments (small settings) write CSVs whose numbers agree
// with independent computations (closed forms; a separate rigorous integration).
#include <gtest/gtest.h>
#include <sys/file.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "support/csv_rows.hpp"
#include "integrate/rigorous_integrate.hpp"
#include "report/plots.hpp"
#include "support/run_cli.hpp"
#include "support/scratch_files.hpp"

namespace softcert {
namespace {

namespace fs = std::filesystem;
using testing::scratch_path;
using testing::run_softcert;
using testing::run_softcert_after;

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }


bool gnuplot_available() { return report::plots::find_gnuplot().has_value(); }

TEST(CliReproduce, ListNamesEveryExperimentWithItsPaper) {
  const auto r = run_softcert("reproduce --list");
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* name : {"varre2026-headline", "varre2026-normalizations", "varre2026-regression", "sukenik2026-cost-scaling"})
    EXPECT_NE(r.out.find(name), std::string::npos) << name;
  EXPECT_NE(r.out.find("arXiv 2603.06248"), std::string::npos);
  EXPECT_NE(r.out.find("arXiv 2605.08453"), std::string::npos);
}

TEST(CliReproduce, BadUsageExitsTwoAndWritesNothing) {
  const fs::path out = scratch_path("reproduce", "bad_usage");
  const auto unknown = run_softcert("reproduce no-such-experiment --out " + quoted(out));
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("unknown experiment \"no-such-experiment\""), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("sukenik2026-cost-scaling"), std::string::npos) << "lists the known names: " << unknown.err;
  EXPECT_FALSE(fs::exists(out));

  const auto none = run_softcert("reproduce --out " + quoted(out));
  EXPECT_EQ(none.status, 2) << none.err;

  const auto setting = run_softcert("reproduce sukenik2026-cost-scaling --set colour=red --out " + quoted(out));
  EXPECT_EQ(setting.status, 2);
  EXPECT_NE(setting.err.find("no setting \"colour\""), std::string::npos) << setting.err;
  const auto range = run_softcert("reproduce sukenik2026-cost-scaling --set T_max=1 --out " + quoted(out));
  EXPECT_EQ(range.status, 2);
  EXPECT_NE(range.err.find("T_max"), std::string::npos) << range.err;
  EXPECT_FALSE(fs::exists(out)) << "a refused run leaves no directory behind";

  // --out under a regular file: cannot be created; --out naming a regular file: not a directory
  fs::create_directories(out);
  const fs::path file = out / "a_file";
  std::ofstream(file) << "x";
  const auto under = run_softcert("reproduce sukenik2026-cost-scaling --out " + quoted(file / "sub"));
  EXPECT_EQ(under.status, 2);
  EXPECT_NE(under.err.find("--out"), std::string::npos) << under.err;
  const auto is_file = run_softcert("reproduce sukenik2026-cost-scaling --out " + quoted(file));
  EXPECT_EQ(is_file.status, 2);
  EXPECT_NE(is_file.err.find("not a directory"), std::string::npos) << is_file.err;
  EXPECT_EQ(std::distance(fs::directory_iterator(out), fs::directory_iterator()), 1) << "only the file we made";
}

TEST(CliReproduce, ASecondRunIntoTheSameDirectoryIsRefused) {
  // two runs into one --out mixed their files: the directory is locked as a suite's is
  const fs::path out = scratch_path("reproduce", "locked");
  fs::create_directories(out);
  const int fd = ::open((out / ".softcert.lock").c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  const auto r = run_softcert("reproduce sukenik2026-cost-scaling --quiet --set T_max=4 --out " + quoted(out));
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("another softcert run is using this directory"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out / "cost_scaling.csv"));
  ::close(fd);
  EXPECT_EQ(run_softcert("reproduce sukenik2026-cost-scaling --quiet --set T_max=4 --out " + quoted(out)).status, 0);
}

// Whether `f` ends as a PNG ends (its IEND chunk).
bool png_is_complete(const fs::path& f) {
  std::ifstream in(f, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return text.size() > 12 && text.compare(text.size() - 12, 12, std::string("\0\0\0\0IEND\xAE\x42\x60\x82", 12)) == 0;
}

TEST(CliReproduce, AFullDiskLeavesTheWholeSetOrNothing) {
  // ulimit -f: writes past the limit fail with EFBIG, as on a full disk (SIGXFSZ ignored).
  // gnuplot exited 0 with a truncated PNG (exit 0), and a later file's failure left the earlier
  // ones (a partial set). Every limit must give exit 0 with every file whole, or exit 2 with
  // nothing: a fresh --out not created (nor its new parent), an existing one as it was.
  if (!gnuplot_available()) GTEST_SKIP() << "gnuplot not found";
  int refused = 0, written = 0;
  for (const int kb : {1, 2, 4, 8, 12, 16, 24, 32, 100000}) {
    const fs::path base = scratch_path("reproduce", "full_disk_" + std::to_string(kb));
    fs::create_directories(base);
    const fs::path fresh = base / "fresh" / "sub", kept = base / "kept";
    fs::create_directories(kept);
    std::ofstream(kept / "summary.md") << "an earlier summary\n";
    std::ofstream(kept / "mine.txt") << "a file of mine\n";
    for (const fs::path& out : {fresh, kept}) {
      const auto r = run_softcert_after("trap '' XFSZ; ulimit -f " + std::to_string(kb) + "; exec",
                                        "reproduce sukenik2026-cost-scaling --quiet --set T_max=4 --out " + quoted(out));
      if (r.status == 0) {
        ++written;
        for (const char* f : {"cost_scaling.csv", "numbers.json", "summary.md"}) EXPECT_TRUE(fs::exists(out / f)) << kb << " " << f;
        std::size_t pngs = 0;
        for (const auto& e : fs::directory_iterator(out))
          if (e.path().extension() == ".png") {
            ++pngs;
            EXPECT_TRUE(png_is_complete(e.path())) << "ulimit -f " << kb << ": exit 0 with a truncated " << e.path();
          }
        EXPECT_GT(pngs, 0u) << kb;
        continue;
      }
      ++refused;
      EXPECT_EQ(r.status, 2) << "ulimit -f " << kb << "\n" << r.err;
      EXPECT_FALSE(r.err.empty());
      if (out == fresh) {
        EXPECT_FALSE(fs::exists(base / "fresh")) << "ulimit -f " << kb << ": a refused run left " << out.parent_path();
      } else {
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(out))
          if (e.path().filename() != ".softcert.lock") names.push_back(e.path().filename().string());
        std::sort(names.begin(), names.end());
        EXPECT_EQ(names, (std::vector<std::string>{"mine.txt", "summary.md"})) << "ulimit -f " << kb << ": a partial set";
        std::ifstream in(out / "summary.md");
        std::string line;
        std::getline(in, line);
        EXPECT_EQ(line, "an earlier summary") << kb;
      }
    }
  }
  EXPECT_GT(refused, 0) << "no limit was small enough to fail a write";
  EXPECT_GT(written, 0) << "no limit let the run write";
}

TEST(CliReproduce, CostScalingMatchesTheClosedForms) {
  const fs::path out = scratch_path("reproduce", "cost");
  const auto r = run_softcert("reproduce sukenik2026-cost-scaling --quiet --set T_max=8 --out " + quoted(out));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find((out / "cost_scaling.csv").string()), std::string::npos) << "prints where it wrote: " << r.out;
  const auto rows = testing::csv_rows(out / "cost_scaling.csv");
  ASSERT_EQ(rows.size(), 5u);  // T = 2, 3, 4, 6, 8
  double diag_sum = 0;         // Σ_{t≤T} √(t/(t+1)), accumulated over every t
  std::size_t t_done = 0;
  for (const auto& row : rows) {
    const std::size_t T = std::stoul(row.at("T"));
    while (t_done < T) {
      ++t_done;
      diag_sum += std::sqrt(static_cast<double>(t_done) / static_cast<double>(t_done + 1));
    }
    // τ = √d = √(T+1): sink = τ·T/√(T+1) = T, diagonal = √(T+1)·Σ √(t/(t+1)) (independent of the check)
    const double sink = static_cast<double>(T), diag = std::sqrt(static_cast<double>(T + 1)) * diag_sum;
    const double s_lo = std::stod(row.at("sink_lower")), s_hi = std::stod(row.at("sink_upper"));
    const double d_lo = std::stod(row.at("diagonal_lower")), d_hi = std::stod(row.at("diagonal_upper"));
    EXPECT_LE(s_lo, sink * (1 + 1e-13)) << T;
    EXPECT_GE(s_hi, sink * (1 - 1e-13)) << T;
    EXPECT_LE(d_lo, diag * (1 + 1e-13)) << T;
    EXPECT_GE(d_hi, diag * (1 - 1e-13)) << T;
    EXPECT_LT(s_hi - s_lo, 1e-6 * sink) << T;
    EXPECT_LT(d_hi - d_lo, 1e-6 * diag) << T;
    EXPECT_GT(d_lo, s_hi) << "the sink is certainly cheaper at T = " << T;
  }
  const auto numbers = nlohmann::json::parse(std::ifstream(out / "numbers.json"));
  EXPECT_EQ(numbers["schema"], "softcert.reproduce/1");
  EXPECT_EQ(numbers["experiment"], "sukenik2026-cost-scaling");
  EXPECT_EQ(numbers["numbers"]["verdict"], "proved");
  EXPECT_NEAR(numbers["numbers"]["fits"]["sink"]["exponent"].get<double>(), 1.0, 1e-6);  // sink = T exactly
  // The diagonal exponent is the least-squares slope of log cost on log T: recompute it.
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& row : rows) {
    const double x = std::log(std::stod(row.at("T"))), y = std::log(std::stod(row.at("diagonal_mid")));
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  const double n = static_cast<double>(rows.size());
  EXPECT_NEAR(numbers["numbers"]["fits"]["diagonal"]["exponent"].get<double>(), (n * sxy - sx * sy) / (n * sxx - sx * sx), 1e-9);
  EXPECT_TRUE(fs::exists(out / "summary.md"));
  // The slope-1 and slope-3/2 guides: c·T and c'·T^{3/2}, so their ratio grows exactly like √T.
  const double g0 = std::stod(rows[0].at("guide_slope3_2")) / std::stod(rows[0].at("guide_slope1"));
  for (const auto& row : rows) {
    const double T = std::stod(row.at("T"));
    EXPECT_NEAR(std::stod(row.at("guide_slope3_2")) / std::stod(row.at("guide_slope1")) / g0, std::sqrt(T / 2), 1e-6 * T) << T;
  }
  if (gnuplot_available()) {
    ASSERT_TRUE(fs::exists(out / "cost_scaling.png"));
    EXPECT_GT(fs::file_size(out / "cost_scaling.png"), 1000u);
    // The figure marks the proved brackets, the guides and which lines are statistics.
    std::ifstream in(out / "cost_scaling.png.gp");
    const std::string gp((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const char* text : {"guide: slope 1", "guide: slope 3/2", "PROVED brackets", "yerrorbars", "no certificate"})
      EXPECT_NE(gp.find(text), std::string::npos) << text;
  }
}

TEST(CliReproduce, HeadlineGridEqualsSeparateRigorousIntegrations) {
  const fs::path out = scratch_path("reproduce", "headline");
  const auto r = run_softcert("reproduce varre2026-headline --quiet --format svg --set points=3 --set t_min=1 --set t_max=100 --out " +
                              quoted(out));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto rows = testing::csv_rows(out / "headline.csv");
  ASSERT_EQ(rows.size(), 4u);  // t = 0, 1, 10, 100
  EXPECT_EQ(rows[0].at("t"), "0");
  EXPECT_EQ(rows[3].at("t"), "100");
  const auto instance = nlohmann::json::parse(
      std::ifstream(std::string(SOFTCERT_SOURCE_DIR) + "/proofs_checks/instances/authors/headline.json"));
  integrate::RigorousIntegrateOptions o;
  o.time_variable = integrate::PlanTime::tau;
  for (std::size_t k = 1; k < rows.size(); ++k) {
    const auto single = integrate::rigorous_integrate(instance, rows[k].at("t"), o);
    for (std::size_t i = 0; i < 8; ++i) {
      // token columns are counted from 0, as in check records and the Python module
      const std::string idx = std::to_string(i), s = std::string("sigma").append(idx), u = std::string("u").append(idx);
      if (k + 1 == rows.size()) {  // the last time: the very same integration, the same digits
        EXPECT_EQ(rows[k].at(s + "_lower"), single.softmax[i].lower_text());
        EXPECT_EQ(rows[k].at(u + "_upper"), single.u[i].upper_text());
      }
      // every time: the two enclosures of the same exact value intersect
      EXPECT_LE(std::stod(rows[k].at(u + "_lower")), std::stod(single.u[i].upper_text())) << k << " " << i;
      EXPECT_LE(std::stod(single.u[i].lower_text()), std::stod(rows[k].at(u + "_upper"))) << k << " " << i;
      EXPECT_LE(std::stod(rows[k].at(s + "_lower")), std::stod(single.softmax[i].upper_text())) << k << " " << i;
      EXPECT_LE(std::stod(single.softmax[i].lower_text()), std::stod(rows[k].at(s + "_upper"))) << k << " " << i;
    }
  }
  const auto numbers = nlohmann::json::parse(std::ifstream(out / "numbers.json"));
  EXPECT_EQ(numbers["numbers"]["grid"]["points"], 3);
  EXPECT_EQ(numbers["numbers"]["at_t_max"]["t"], "100");
  // The certified winner is a token counted from 0: the index whose lower end beats every
  // other upper end in the CSV's last row.
  const auto& winner = numbers["numbers"]["at_t_max"]["certified_argmax_token"];
  ASSERT_TRUE(winner.is_number()) << numbers.dump();
  const std::size_t w = winner.get<std::size_t>();
  ASSERT_LT(w, 8u);
  for (std::size_t j = 0; j < 8; ++j)
    if (j != w) {
      EXPECT_GT(std::stod(rows.back().at("sigma" + std::to_string(w) + "_lower")),
                std::stod(rows.back().at("sigma" + std::to_string(j) + "_upper")));
    }
  if (gnuplot_available()) {
    EXPECT_TRUE(fs::exists(out / "softmax_and_u_evolution.svg"));
    EXPECT_TRUE(fs::exists(out / "softcert_enclosure_width.svg"));
    {  // every grid time is drawn as an enclosure (a marker with its bar), and the figure says so
      std::ifstream in(out / "softmax_and_u_evolution.svg.gp");
      const std::string gp((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      EXPECT_NE(gp.find("yerrorbars"), std::string::npos);
      EXPECT_NE(gp.find("PROVED"), std::string::npos);
    }
    // the script redraws from the folder it is in, wherever that folder was moved
    const fs::path moved = scratch_path("reproduce", "headline_moved");
    fs::remove_all(moved);
    fs::rename(out, moved);
    fs::remove(moved / "softmax_and_u_evolution.svg");
    EXPECT_EQ(std::system(("cd " + quoted(moved) + " && gnuplot softmax_and_u_evolution.svg.gp 2>/dev/null").c_str()), 0);
    EXPECT_TRUE(fs::exists(moved / "softmax_and_u_evolution.svg"));
    for (const auto& f : fs::directory_iterator(moved))
      EXPECT_EQ(f.path().string().find(".tmp-"), std::string::npos) << "a temporary image was left: " << f.path();
  }
}

TEST(CliReproduce, RegressionReportsBothReadingsOnRandomSweeps) {
  // small random sweeps of the authors' construction (d = n = 3), rigorous tier, short horizon
  const fs::path out = scratch_path("reproduce", "regression");
  const auto r = run_softcert(
      "reproduce varre2026-regression --quiet --set authors=0 --set instances=2 --set seed=2 --set d=3 --set n=3 "
      "--set tier=rigorous --set horizon=30 --out " + quoted(out));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto rows = testing::csv_rows(out / "regression.csv");
  ASSERT_EQ(rows.size(), 10u);  // 2 sweeps × κ = 1…5
  for (const auto& row : rows) {
    EXPECT_LE(std::stod(row.at("entropy_lower")), std::stod(row.at("entropy_upper")));
    EXPECT_LE(std::stod(row.at("entropy_upper")), std::log(3.0) + 1e-12);
  }
  const auto numbers = nlohmann::json::parse(std::ifstream(out / "numbers.json"))["numbers"];
  EXPECT_EQ(numbers["tier"], "rigorous");
  EXPECT_EQ(numbers["random_sweeps"], 2);
  EXPECT_EQ(numbers["sweeps"].size(), 2u);
  // the fraction is what the checks said, sweep by sweep
  std::size_t holds = 0;
  for (const auto& s : numbers["sweeps"])
    holds += s["varre2026.regression.conditioning"]["verdict"] == "proved";
  EXPECT_EQ(numbers["random_certified"]["varre2026.regression.conditioning"], holds);
  std::ifstream summary(out / "summary.md");
  const std::string text((std::istreambuf_iterator<char>(summary)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.find("refut"), std::string::npos) << "the summary never calls a finding a refutation";
  EXPECT_NE(text.find("[ours, a stronger reading]"), std::string::npos);
}

}  // namespace
}  // namespace softcert
