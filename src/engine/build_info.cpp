#include "engine/build_info.hpp"

#include <gmp.h>
#include <mpfi.h>
#include <mpfr.h>

#include <boost/version.hpp>

#include "softcert_build_config.hpp"

namespace softcert {

BuildInfo build_info() {
  BuildInfo b;
  b.version = SOFTCERT_VERSION;
  b.git_commit = SOFTCERT_GIT_COMMIT;
  b.compiler = SOFTCERT_COMPILER;
  b.build_type = SOFTCERT_BUILD_TYPE;
  b.boost = std::to_string(BOOST_VERSION / 100000) + "." + std::to_string(BOOST_VERSION / 100 % 1000) + "." +
            std::to_string(BOOST_VERSION % 100);
  // Header versions at build time, library versions at run time: they must match.
  b.mpfr = std::string(MPFR_VERSION_STRING) + " (runtime " + mpfr_get_version() + ")";
  b.mpfi = std::string(MPFI_VERSION_STRING) + " (runtime " + mpfi_get_version() + ")";
  b.gmp = std::string(gmp_version);
  return b;
}

std::string build_info_text() {
  const BuildInfo b = build_info();
  return "softcert " + b.version + "\n" + "commit   " + b.git_commit + "\n" + "compiler " + b.compiler + " (" +
         b.build_type + ")\n" + "boost    " + b.boost + "\n" + "mpfr     " + b.mpfr + "\n" + "mpfi     " + b.mpfi +
         "\n" + "gmp      " + b.gmp + "\n";
}

nlohmann::json build_info_json() {
  const BuildInfo b = build_info();
  return {{"version", b.version}, {"git_commit", b.git_commit}, {"compiler", b.compiler}, {"build_type", b.build_type},
          {"boost", b.boost},     {"mpfr", b.mpfr},             {"mpfi", b.mpfi},         {"gmp", b.gmp}};
}

}  // namespace softcert
