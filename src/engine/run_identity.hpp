#pragma once
// What makes two suite runs the same run, so that --resume and merge can refuse records that
// another run wrote (docs/reports.md, "Run identity"): a hash of the suite file's content (not
// its path), the seed, the shard split N (not K: the shards of one run share it), the softcert
// version and the commit it was built from, and every entry's effective settings (check, tier, precision, horizon, params,
// dropped hypotheses, instance count, instance files by name and content hash).
//
// It is kept in DIR/run.json (the journal's header: written before the first record), in
// manifest.json, and — as its id — in every record ("run").
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/suite.hpp"

namespace softcert::engine {

struct RunIdentity {
  nlohmann::json components;  // the object described above
  std::string id;             // hex SHA-256 of components.dump(), first 32 digits
};

// Reads the suite file and the instance files to hash them; an unreadable file hashes as
// "unreadable" (its instances become error records when the run reads them).
RunIdentity run_identity(const Suite& suite, unsigned shard_count);

// "" when equal; else at most a few differences, each "what: V1 (WHERE1) vs V2 (WHERE2)",
// joined by "; " — entries named by their label.
std::string identity_difference(const nlohmann::json& a, const std::string& where_a, const nlohmann::json& b,
                                const std::string& where_b);

// SHA-256 of `bytes`, as 64 hex digits.
std::string sha256_hex(const std::string& bytes);

// DIR/run.json: {"schema": "softcert.run/1", "id": ..., "identity": {...}}.
std::filesystem::path run_file(const std::filesystem::path& out_dir);
void write_run_file(const std::filesystem::path& out_dir, const RunIdentity& identity);

// "" when `header` (a parsed run.json) is a run header whose id is the hash of its identity and
// equals `id` with identity `identity` (from a manifest, or this run's); else what is wrong.
std::string run_header_problem(const nlohmann::json& header, const std::string& id, const nlohmann::json& identity);

// For --resume: the run that wrote `out_dir` must be `identity` (run.json and every record's
// "run"); throws std::invalid_argument saying what differs. `records` are the journal's.
void check_resumable(const std::filesystem::path& out_dir, const RunIdentity& identity,
                     const std::map<std::string, nlohmann::json>& records, const std::filesystem::path& journal);

}  // namespace softcert::engine
