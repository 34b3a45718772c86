// A certificate from a deliberately broken integrator, for softcert-verify to reject
// (tests/verify/certificate_test.py): varre2026.order_preservation on INSTANCE to horizon H with
// the Lohner step's Taylor remainder dropped (integrate/fault_injection.hpp), its certificate
// written to OUT. Prints the verdict the broken run reported — proved, as an unsound build would
// claim — so that the test shows the verifier catching what softcert's own checks did not.
// Usage: broken_remainder_certificate INSTANCE H OUT
#include <cstdio>
#include <fstream>
#include <string>

#include "engine/registry.hpp"
#include "integrate/fault_injection.hpp"
#include "support/input_file.hpp"

int main(int argc, char** argv) {
  using namespace softcert;
  if (argc != 4) {
    std::fprintf(stderr, "usage: broken_remainder_certificate INSTANCE H OUT\n");
    return 2;
  }
  const engine::Check* check = engine::CheckRegistry::global().find("varre2026.order_preservation");
  if (!check) return 2;
  const nlohmann::json instance = nlohmann::json::parse(support::read_input_file(argv[1]));
  engine::CheckOptions o;
  o.horizon = std::stod(argv[2]);
  o.certificate = true;
  integrate::fault_injection::drop_taylor_remainder = true;
  const engine::CheckResult r = check->run(instance, o);
  integrate::fault_injection::drop_taylor_remainder = false;
  std::printf("%s\n", engine::to_string(r.verdict));
  if (r.certificate.empty()) return 1;
  std::ofstream out(argv[3]);
  for (const auto& line : r.certificate) out << line << "\n";
  return out ? 0 : 1;
}
