#pragma once
// The results journal: one JSON object per line, appended durably (a single write() of the
// whole line, then fdatasync) as each result finishes, so that a run killed at any moment
// leaves only complete lines behind and --resume can trust what it finds.
#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace softcert::engine {

// "check\tinstance": the identity of a result.
std::string record_key(const nlohmann::json& record);

class Journal {
 public:
  explicit Journal(const std::filesystem::path& file);  // opens for appending, creates if absent
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;
  void append(const nlohmann::json& record);

 private:
  int fd_ = -1;
  std::filesystem::path file_;
};

// Reads a journal. Every line must be a complete JSON object with the record fields; anything
// else (a truncated or corrupted line, a duplicate key) throws std::invalid_argument naming
// the file and line.
std::map<std::string, nlohmann::json> read_journal(const std::filesystem::path& file);

// Writes `text` to `file` atomically (temporary file in the same directory, then rename).
void write_file_atomically(const std::filesystem::path& file, const std::string& text);

}  // namespace softcert::engine
