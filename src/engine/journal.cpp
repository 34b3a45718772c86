#include "engine/journal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace softcert::engine {

std::string record_key(const nlohmann::json& r) {
  return r.at("check").get<std::string>() + "\t" + r.at("instance").get<std::string>();
}

Journal::Journal(const std::filesystem::path& file) : file_(file) {
  fd_ = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::invalid_argument("cannot open " + file.string() + ": " + std::strerror(errno));
}

Journal::~Journal() {
  if (fd_ >= 0) ::close(fd_);
}

void Journal::append(const nlohmann::json& record) {
  const std::string line = record.dump() + "\n";
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("cannot write " + file_.string() + ": " + std::strerror(errno));
    }
    done += static_cast<std::size_t>(n);
  }
  ::fdatasync(fd_);
}

namespace {

std::string read_all(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read " + file.string());
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Parses complete lines (`content` is empty or ends in '\n').
std::map<std::string, nlohmann::json> parse_lines(const std::string& content, const std::filesystem::path& file) {
  std::map<std::string, nlohmann::json> out;
  std::size_t line_no = 0, pos = 0;
  while (pos < content.size()) {
    const std::size_t end = content.find('\n', pos);
    const std::string line = content.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    const std::string where = file.string() + ":" + std::to_string(line_no) + ": ";
    nlohmann::json r;
    try {
      r = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception&) {
      throw std::invalid_argument(where + "not a JSON object: the file is corrupt");
    }
    if (!r.is_object() || !r.contains("check") || !r.contains("instance") || !r.contains("verdict") ||
        !r["check"].is_string() || !r["instance"].is_string() || !r["verdict"].is_string())
      throw std::invalid_argument(where + "not a result record (check, instance, verdict)");
    // The reports sum "seconds": a non-number there would surface as an internal error later.
    if (r.contains("seconds") && !r["seconds"].is_number())
      throw std::invalid_argument(where + "\"seconds\" is not a number: the file is corrupt");
    const std::string key = record_key(r);
    if (out.count(key)) throw std::invalid_argument(where + "duplicate result for " + key);
    out.emplace(key, std::move(r));
  }
  return out;
}

}  // namespace

std::map<std::string, nlohmann::json> read_journal(const std::filesystem::path& file) {
  const std::string content = read_all(file);
  if (!content.empty() && content.back() != '\n')
    throw std::invalid_argument(file.string() + ": last line is truncated (no newline): the file is corrupt");
  return parse_lines(content, file);
}

ResumableJournal read_journal_for_resume(const std::filesystem::path& file) {
  const std::string content = read_all(file);
  ResumableJournal j;
  const std::size_t last_newline = content.rfind('\n');
  j.complete_bytes = last_newline == std::string::npos ? 0 : last_newline + 1;
  j.dropped_tail = content.substr(static_cast<std::size_t>(j.complete_bytes));
  j.records = parse_lines(content.substr(0, static_cast<std::size_t>(j.complete_bytes)), file);
  return j;
}

void write_file_atomically(const std::filesystem::path& file, const std::string& text) {
  const std::filesystem::path tmp = file.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
    out << text;
    out.flush();
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  std::filesystem::rename(tmp, file);
}

}  // namespace softcert::engine
