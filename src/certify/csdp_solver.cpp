#include "certify/csdp_solver.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "numerics/traits.hpp"

namespace softcert::certify {
namespace {

std::string csdp_program() {
  if (const char* env = std::getenv("SOFTCERT_CSDP")) return env;
  return "csdp";
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

// A fresh private directory for one solve (concurrent checks do not collide).
std::filesystem::path make_workdir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "softcert-csdp-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("csdp: cannot create a temporary directory");
  return tmpl;
}

}  // namespace

bool csdp_available() {
  const std::string cmd = "command -v " + shell_quote(csdp_program()) + " >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

SolverProposal solve_with_csdp(const MarginProblem& p) {
  const std::size_t d = p.queries.cols, m = p.constraints.size();
  const auto dir = make_workdir();
  const auto in = dir / "problem.dat-s", out = dir / "solution.sol", log = dir / "log.txt";
  {
    std::ofstream f(in);
    f.precision(17);
    f << m << "\n2\n" << 2 * d << " -" << m << "\n";
    for (std::size_t c = 0; c < m; ++c) f << "1 ";
    f << "\n";
    for (std::size_t i = 1; i <= 2 * d; ++i) f << "0 1 " << i << " " << i << " -0.5\n";
    for (std::size_t c = 0; c < m; ++c) {
      const auto& k = p.constraints[c];
      // G = q_t Δᵀ at block (i, d + j), halved on each symmetric side.
      for (std::size_t i = 0; i < d; ++i) {
        const double qi = num::mid(p.queries(k.t - 1, i));
        if (qi == 0.0) continue;
        for (std::size_t j = 0; j < d; ++j) {
          const double dj = num::mid(p.keys(k.a, j)) - num::mid(p.keys(k.b, j));
          if (dj == 0.0) continue;
          f << c + 1 << " 1 " << i + 1 << " " << d + j + 1 << " " << 0.5 * qi * dj << "\n";
        }
      }
      f << c + 1 << " 2 " << c + 1 << " " << c + 1 << " -1\n";
    }
  }
  const std::string cmd = shell_quote(csdp_program()) + " " + shell_quote(in.string()) + " " + shell_quote(out.string()) +
                          " >" + shell_quote(log.string()) + " 2>&1";
  const int status = std::system(cmd.c_str());
  SolverProposal sp;
  {
    std::ifstream lf(log);
    std::string line;
    while (std::getline(lf, line))
      if (line.rfind("Success", 0) == 0 || line.rfind("Partial", 0) == 0 || line.rfind("Failure", 0) == 0) sp.log = line;
  }
  std::ifstream sol(out);
  if (!sol) {
    std::filesystem::remove_all(dir);
    throw std::runtime_error("csdp failed (status " + std::to_string(status) + "): " + sp.log);
  }
  sp.y.assign(m, 0.0);
  for (std::size_t c = 0; c < m; ++c) {
    double v;
    sol >> v;
    sp.y[c] = -v;  // CSDP's dual variable is −y for our ≥-constraints
  }
  Eigen::MatrixXd x = Eigen::MatrixXd::Zero(static_cast<long>(2 * d), static_cast<long>(2 * d));
  int matno, blk, i, j;
  double v;
  while (sol >> matno >> blk >> i >> j >> v)
    if (matno == 2 && blk == 1) {
      x(i - 1, j - 1) = v;
      x(j - 1, i - 1) = v;
    }
  std::filesystem::remove_all(dir);
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(x);
  const auto& ev = es.eigenvalues();
  const double top = ev.size() ? ev(ev.size() - 1) : 0.0;
  std::vector<long> keep;
  for (long k = 0; k < ev.size(); ++k)
    if (ev(k) > 1e-12 * top) keep.push_back(k);
  Eigen::MatrixXd l(2 * d, static_cast<long>(keep.size()));
  for (std::size_t c = 0; c < keep.size(); ++c) l.col(static_cast<long>(c)) = es.eigenvectors().col(keep[c]) * std::sqrt(ev(keep[c]));
  sp.a = l.topRows(static_cast<long>(d));
  sp.b = l.bottomRows(static_cast<long>(d));
  sp.primal_objective = 0.5 * x.trace();
  double sy = 0;
  for (double t : sp.y) sy += t;
  sp.dual_objective = sy;
  return sp;
}

}  // namespace softcert::certify
