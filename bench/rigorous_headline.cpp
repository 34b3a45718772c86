// Bench (not a test): the paper's headline instance (d = T = 8) through the rigorous tier.
//   t ∈ [0, 10] on double intervals (goal width ≤ 1e-12) and at 256 bits (goal ≤ 1e-40);
//   t = 1e5 through τ-time (goal width ≤ 1e-8 in ≤ 1 s).
// Usage: rigorous_headline [INSTANCE.json]
#include <chrono>
#include <ctime>
#include <cstdio>
#include <fstream>

#include "integrate/rigorous_integrate.hpp"
#include "integrate/run_knobs.hpp"

using namespace softcert::integrate;

static void run(const nlohmann::json& inst, const char* t, unsigned bits, const char* tv, unsigned order = 0) {
  RigorousIntegrateOptions o;
  o.precision_bits = bits;
  o.time_variable = parse_plan_time(tv);
  o.order = order;
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t cpu0 = std::clock();
  try {
    const auto r = rigorous_integrate(inst, t, o);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
    std::printf("t=%-7s bits=%-4u order=%-3u time=%-4s steps=%-6zu max width(a,u)=%.3g loss width=%.3g  %.3f s CPU (%.3f wall)   u[0] in [%s, %s]\n", t,
                r.precision_bits, r.order, to_string(r.time_variable), r.steps, r.max_width, r.loss.width, cpu, s,
                r.u[0].lower_text().substr(0, 24).c_str(), r.u[0].upper_text().substr(0, 24).c_str());
  } catch (const std::exception& e) {
    std::printf("t=%s bits=%u time=%s: FAILED: %s\n", t, bits, tv, e.what());
  }
}

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : SOFTCERT_SOURCE_DIR "/proofs_checks/instances/authors/headline.json";
  std::ifstream in(path);
  const nlohmann::json inst = nlohmann::json::parse(in);
  run(inst, "10", 53, "t");
  run(inst, "10", 256, "t", 40);
  run(inst, "10", 256, "t");
  run(inst, "10", 53, "tau");
  run(inst, "100000", 53, "tau");
  run(inst, "100000", 128, "tau");
}
