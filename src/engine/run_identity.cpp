#include "engine/run_identity.hpp"

#include <array>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "engine/build_info.hpp"
#include "support/input_file.hpp"
#include "engine/journal.hpp"
#include "numerics/quote.hpp"
#include "numerics/strict_json.hpp"

namespace softcert::engine {
namespace {

constexpr std::array<std::uint32_t, 64> kK = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
    0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
    0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
    0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

constexpr std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

// The hash of a file's bytes, read as every input is (support/input_file.hpp: no device, FIFO or
// file over the cap is read); a file that cannot be read hashes as "unreadable".
std::string file_hash(const std::filesystem::path& f) {
  try {
    return sha256_hex(support::read_input_file(f));
  } catch (const std::invalid_argument&) {
    return "unreadable";
  }
}

}  // namespace

std::string sha256_hex(const std::string& bytes) {
  std::array<std::uint32_t, 8> h = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::string m = bytes;
  const std::uint64_t bits = static_cast<std::uint64_t>(bytes.size()) * 8;
  m += static_cast<char>(0x80);
  while (m.size() % 64 != 56) m += '\0';
  for (int i = 7; i >= 0; --i) m += static_cast<char>((bits >> (8 * i)) & 0xff);
  for (std::size_t block = 0; block < m.size(); block += 64) {
    std::array<std::uint32_t, 64> w{};
    for (int i = 0; i < 16; ++i)
      for (int b = 0; b < 4; ++b) w[i] = (w[i] << 8) | static_cast<unsigned char>(m[block + 4 * i + b]);
    for (int i = 16; i < 64; ++i) {
      const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (int i = 0; i < 64; ++i) {
      const std::uint32_t S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const std::uint32_t ch = (e & f) ^ (~e & g);
      const std::uint32_t t1 = k + S1 + ch + kK[i] + w[i];
      const std::uint32_t S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const std::uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
      const std::uint32_t t2 = S0 + maj;
      k = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += k;
  }
  std::string out;
  char buf[9];
  for (std::uint32_t v : h) {
    std::snprintf(buf, sizeof buf, "%08x", v);
    out += buf;
  }
  return out;
}

RunIdentity run_identity(const Suite& suite, unsigned shard_count) {
  nlohmann::json entries = nlohmann::json::array();
  for (const SuiteEntry& e : suite.entries) {
    nlohmann::json files = nlohmann::json::array();
    for (const auto& f : e.instance_files)
      files.push_back({{"name", instance_file_name(suite, f)}, {"sha256", file_hash(f)}});
    nlohmann::json dropped = nlohmann::json::array();
    for (const auto& d : e.generate.dropped) dropped.push_back(d);
    entries.push_back({{"label", e.label},
                       {"check", e.check},
                       {"tier", to_string(e.options.tier)},
                       {"precision_bits", e.options.precision_bits},
                       {"horizon", e.options.horizon ? nlohmann::json(*e.options.horizon) : nlohmann::json()},
                       {"params", e.options.params},
                       {"generate_params", e.generate.params},
                       {"drop", dropped},
                       {"instances", e.instances},
                       {"instance_files", files}});
  }
  RunIdentity id;
  id.components = {{"suite_sha256", suite.source.empty() ? std::string("none") : file_hash(suite.source)},
                   {"seed", suite.seed},
                   {"shards", shard_count},
                   {"softcert", build_info().version},
                   // the build, not only the version: records of two builds of one version can differ
                   {"build_commit", build_info().git_commit},
                   {"entries", entries}};
  id.id = sha256_hex(id.components.dump()).substr(0, 32);
  return id;
}

std::string identity_difference(const nlohmann::json& a, const std::string& where_a, const nlohmann::json& b,
                                const std::string& where_b) {
  if (a == b) return "";
  std::string out;
  int shown = 0;
  for (const auto& op : nlohmann::json::diff(a, b)) {
    if (++shown > 4) {
      out += "; ...";
      break;
    }
    const nlohmann::json::json_pointer ptr(op.at("path").get<std::string>());
    // "/entries/0/tier" → "entry 'label': tier"
    std::string what = ptr.to_string();
    const std::string prefix = "/entries/";
    if (what.rfind(prefix, 0) == 0) {
      const std::size_t slash = what.find('/', prefix.size());
      const std::string index = what.substr(prefix.size(), slash - prefix.size());
      std::string label = index;
      try {
        label = a.at("entries").at(std::stoul(index)).value("label", index);
      } catch (const std::exception&) {
      }
      what = "entry '" + label + "'" + (slash == std::string::npos ? "" : ": " + what.substr(slash + 1));
    } else {
      what = what.substr(1);
    }
    if (what == "suite_sha256") what = "the suite file's content (sha256)";
    else if (what == "shards") what = "the shard split N";
    else if (what == "softcert") what = "the softcert version";
    const auto value = [&ptr](const nlohmann::json& j) {
      return j.contains(ptr) ? num::excerpt(j.at(ptr).dump(), 60) : std::string("(absent)");
    };
    out += (out.empty() ? "" : "; ") + what + ": " + value(a) + " (" + where_a + ") vs " + value(b) + " (" + where_b + ")";
  }
  return out;
}

std::filesystem::path run_file(const std::filesystem::path& out_dir) { return out_dir / "run.json"; }

void write_run_file(const std::filesystem::path& out_dir, const RunIdentity& identity) {
  const nlohmann::json j = {{"schema", "softcert.run/1"}, {"id", identity.id}, {"identity", identity.components}};
  write_file_atomically(run_file(out_dir), j.dump(2) + "\n");
}

std::string run_header_problem(const nlohmann::json& header, const std::string& id, const nlohmann::json& identity) {
  if (!header.is_object() || !header.contains("identity") || !header.contains("id") || !header["id"].is_string())
    return "not a run header (id, identity)";
  const std::string own = header["id"].get<std::string>();
  if (sha256_hex(header["identity"].dump()).substr(0, 32) != own)
    return "its id " + num::excerpt(own, 40) + " is not the hash of its identity: the file was altered";
  if (own != id || header["identity"] != identity) {
    const std::string diff = identity_difference(identity, "expected", header["identity"], "run.json");
    return "names run " + num::excerpt(own, 40) + ", not " + num::excerpt(id, 40) +
           (diff.empty() ? std::string() : ": " + diff);
  }
  return "";
}

void check_resumable(const std::filesystem::path& out_dir, const RunIdentity& identity,
                     const std::map<std::string, nlohmann::json>& records, const std::filesystem::path& journal) {
  const std::filesystem::path rf = run_file(out_dir);
  if (std::filesystem::exists(rf)) {
    nlohmann::json j;
    try {
      j = num::parse_json_strict(support::read_input_file(rf, support::kMaxInputFileBytes, /*no_symlink=*/true), rf.string());
    } catch (const nlohmann::json::exception&) {
      throw std::invalid_argument(rf.string() + ": not valid JSON: the run header is corrupt; not resuming");
    }
    if (!j.is_object() || !j.contains("identity") || !j.contains("id") || !j["id"].is_string())
      throw std::invalid_argument(rf.string() + ": not a run header (id, identity); not resuming");
    if (sha256_hex(j["identity"].dump()).substr(0, 32) != j["id"].get<std::string>())
      throw std::invalid_argument(rf.string() + ": its id is not the hash of its identity: the file was altered; not resuming");
    const std::string diff = identity_difference(j["identity"], "the earlier run", identity.components, "this run");
    if (!diff.empty())
      throw std::invalid_argument("--resume: " + out_dir.string() + " holds another run: " + diff);
  } else if (!records.empty()) {
    throw std::invalid_argument("--resume: " + rf.string() + " is missing, so nothing says which run wrote " +
                                journal.string() + " (an older softcert?): rerun without --resume");
  }
  for (const auto& [key, r] : records) {
    const std::string run = r.contains("run") && r["run"].is_string() ? r["run"].get<std::string>() : "(none)";
    if (run != identity.id)
      throw std::invalid_argument("--resume: " + journal.string() + ": the result for " + key + " belongs to run " +
                                  num::excerpt(run, 40) + ", not to this run " + identity.id +
                                  " (same suite content, seed, shard split, version and settings): not resuming");
  }
}

}  // namespace softcert::engine
