#pragma once
// A suite: which checks to run, on which instances, with what expectation (TOML, see
// docs/suites.md).
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/check.hpp"
#include "engine/expectation.hpp"

namespace softcert::engine {

// The most random instances one entry (or `softcert check --instances`) may ask for. Every
// result is kept in memory until the reports are written, about 5 KB per instance for the
// smallest records, so 10⁶ instances already need ≈ 5 GB.
inline constexpr std::size_t kMaxInstances = 1000000;

// The most instances one run may plan, over all its entries and instance files (the same memory
// reasoning as kMaxInstances; checked by load_suite before anything is allocated).
inline constexpr std::size_t kMaxPlannedInstances = 1000000;

struct SuiteEntry {
  std::string check;
  std::string label;  // names the entry in reports and instance ids; defaults to the check
                      // name, must be unique in a suite (one check may appear in several entries)
  std::size_t instances = 0;                         // random instances from the check's generator
  std::vector<std::filesystem::path> instance_files;  // absolute, resolved against the suite file
  Expectation expect = Expectation::holds;
  double max_inconclusive = 0.0;  // fraction of this entry's instances allowed inconclusive
  CheckOptions options;
  GenerateOptions generate;
};

struct Suite {
  std::string name;
  std::uint64_t seed = 0;
  std::filesystem::path source;
  std::vector<SuiteEntry> entries;
};

// The name a file instance goes by — its id in records and reports, and with the check its
// result's key (merge, --resume): the file's path relative to the suite file's directory,
// normalised, '/'-separated — the same names on every machine. For a suite without a file
// (`check --instance`): relative to the working directory, or absolute for a file outside it. Two files of one entry with the same name (`a/x.json` and
// `b/x.json`) are two instances; one file listed twice is refused (duplicate_instance_file).
std::string instance_file_name(const Suite& suite, const std::filesystem::path& file);

// "" when no file appears twice among entry.instance_files (compared after resolving symlinks
// and `..`), else the message naming the file: two slots would share one result key.
std::string duplicate_instance_file(const SuiteEntry& entry);

// Parses and validates a suite file: unknown keys, unknown checks, wrong types, missing
// instance files → std::invalid_argument naming the file, entry and field.
Suite load_suite(const std::filesystem::path& file);

// A one-entry suite for `softcert check`.
Suite single_check_suite(SuiteEntry entry, std::uint64_t seed);

}  // namespace softcert::engine
