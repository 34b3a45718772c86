#pragma once
// Files the CLI tests write and read: scratch directories under gtest's TempDir, whole-file and
// JSON-lines readers, and the committed instances of the authors' notebook. One copy for every
// test file (the tests are compiled as unity batches, tests/CMakeLists.txt: a helper defined in
// two test files is a redefinition).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace softcert::testing {

// `<TempDir>/softcert_<tag>_<pid>_<name>`, removed with its contents, not created: ctest runs
// test cases of one binary in parallel processes, so the tag (the test file) and the process id
// keep their scratch paths apart.
inline std::filesystem::path scratch_path(const std::string& tag, const std::string& name) {
  const auto d = std::filesystem::path(::testing::TempDir()) /
                 ("softcert_" + tag + "_" + std::to_string(getpid()) + "_" + name);
  std::filesystem::remove_all(d);
  return d;
}

// scratch_path(tag, name), created empty.
inline std::filesystem::path scratch_dir(const std::string& tag, const std::string& name) {
  const auto d = scratch_path(tag, name);
  std::filesystem::create_directories(d);
  return d;
}

inline void write_text(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

// The whole file, byte for byte ("" if it cannot be read).
inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// One JSON value per line (a results.jsonl or journal file).
inline std::vector<nlohmann::json> read_lines(const std::filesystem::path& p) {
  std::vector<nlohmann::json> out;
  std::ifstream in(p);
  for (std::string line; std::getline(in, line);) out.push_back(nlohmann::json::parse(line));
  return out;
}

// A committed instance of the authors' notebook (proofs_checks/instances/authors/<file>).
inline std::string authors_instance(const std::string& file) {
  return std::string(SOFTCERT_SOURCE_DIR) + "/proofs_checks/instances/authors/" + file;
}
// The headline instance of the notebook (logistic loss, softmax, T = d = 8).
inline const std::string kHeadline = authors_instance("headline.json");

}  // namespace softcert::testing
