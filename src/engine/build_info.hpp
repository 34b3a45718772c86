#pragma once
// What this binary was built from and with: version, commit, compiler, library versions.
#include <string>

#include <nlohmann/json.hpp>

namespace softcert {

struct BuildInfo {
  std::string version, git_commit, compiler, build_type, boost, mpfr, mpfi, gmp;
};

BuildInfo build_info();
std::string build_info_text();         // the lines `softcert --version` prints
nlohmann::json build_info_json();      // the same, for manifests

}  // namespace softcert
