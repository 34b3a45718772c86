#include "engine/journal.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "support/input_file.hpp"
#include "engine/record_validation.hpp"
#include "engine/verdict.hpp"
#include "numerics/quote.hpp"
#include "numerics/strict_json.hpp"

namespace softcert::engine {

std::string record_key(const nlohmann::json& r) {
  return r.at("check").get<std::string>() + "\t" + r.at("instance").get<std::string>();
}

Journal::Journal(const std::filesystem::path& file) : file_(file) {
  // O_NOFOLLOW: a symlink planted at DIR/results.jsonl must not make the run append to its target.
  fd_ = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
  if (fd_ < 0 && errno == ELOOP)
    throw std::invalid_argument(file.string() + ": is a symbolic link: not followed (remove it, or choose another --out)");
  if (fd_ < 0) throw std::invalid_argument("cannot open " + file.string() + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd_);
    fd_ = -1;
    throw std::invalid_argument(file.string() + ": not a regular file: softcert does not append its results there");
  }
}

void Journal::cut_to(std::uintmax_t bytes) {
  if (::ftruncate(fd_, static_cast<off_t>(bytes)) != 0)
    throw WriteError("cannot cut " + file_.string() + " to its complete lines: " + std::strerror(errno));
}

Journal::~Journal() {
  if (fd_ >= 0) ::close(fd_);
}

void Journal::append(const nlohmann::json& record) {
  const std::string line = record.dump() + "\n";
  // Where this line starts: a failed write (a full disk writes part of it) is cut back to here,
  // so the journal stays whole lines (found by tests/stress/stress_runs.sh on a full tmpfs).
  struct stat st {};
  const off_t start = ::fstat(fd_, &st) == 0 ? st.st_size : -1;
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      if (start >= 0 && done > 0) [[maybe_unused]] const int cut = ::ftruncate(fd_, start);
      throw WriteError("cannot write " + file_.string() + ": " + std::strerror(err));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fdatasync(fd_) != 0 && errno != EINVAL) throw WriteError("cannot write " + file_.string() + ": " + std::strerror(errno));
}

namespace {

// A journal inside an --out directory: softcert wrote it, so a symlink there is not its own.
std::string read_all(const std::filesystem::path& file) {
  return support::read_input_file(file, support::kMaxJournalBytes, /*no_symlink=*/true);
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
      r = num::parse_json_strict(line, file.string() + ":" + std::to_string(line_no));
    } catch (const nlohmann::json::exception&) {
      throw std::invalid_argument(where + "not a JSON object: the file is corrupt");
    } catch (const std::invalid_argument& e) {  // a NUL or a duplicate key
      throw std::invalid_argument(std::string(e.what()) + ": the file is corrupt");
    }
    if (!r.is_object() || !r.contains("check") || !r.contains("instance") || !r.contains("verdict") ||
        !r["check"].is_string() || !r["instance"].is_string() || !r["verdict"].is_string())
      throw std::invalid_argument(where + "not a result record (check, instance, verdict)");
    // The reports sum "seconds": a non-number there would surface as an internal error later.
    if (r.contains("seconds") && !r["seconds"].is_number())
      throw std::invalid_argument(where + "\"seconds\" is not a number: the file is corrupt");
    if (!verdict_from_string(r["verdict"].get<std::string>()))
      throw std::invalid_argument(where + "verdict " + num::quoted(r["verdict"].get<std::string>()) +
                                  " is not one of proved, confirmed, violated, inconclusive, error: the file is corrupt");
    // The verdict must agree with the margin and the rules of docs/verdicts.md (merge and
    // --resume trust these records: engine/record_validation.hpp).
    if (const std::string problem = record_problem(r); !problem.empty())
      throw std::invalid_argument(where + problem + ": the record was altered or is corrupt");
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

OutDirLock::OutDirLock(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw WriteError("cannot create " + dir.string() + ": " + ec.message());
  const std::filesystem::path file = dir / ".softcert.lock";
  // O_NOFOLLOW: a symlink planted there would otherwise have the pid written into (and truncate)
  // its target; O_NONBLOCK: a FIFO there cannot hang the open. Only a regular file is a lock.
  fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
  if (fd_ < 0 && errno == ELOOP)
    throw std::invalid_argument("--out " + dir.string() + ": " + file.string() +
                                " is a symbolic link: not followed (remove it; softcert creates its own lock file)");
  if (fd_ < 0) throw WriteError("cannot open " + file.string() + ": " + std::strerror(errno));
  struct stat lock_st {};
  if (::fstat(fd_, &lock_st) != 0 || !S_ISREG(lock_st.st_mode)) {
    ::close(fd_);
    fd_ = -1;
    throw std::invalid_argument("--out " + dir.string() + ": " + file.string() +
                                " is not a regular file (remove it; softcert creates its own lock file)");
  }
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    char pid[32] = {0};
    const ssize_t n = ::pread(fd_, pid, sizeof pid - 1, 0);
    std::string holder = n > 0 ? std::string(pid, static_cast<std::size_t>(n)) : "";
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
    ::close(fd_);
    fd_ = -1;
    if (err == EWOULDBLOCK)
      throw std::invalid_argument("--out " + dir.string() + ": another softcert run is using this directory (" +
                                  (holder.empty() ? std::string("it holds ") : "pid " + holder + " holds ") +
                                  file.string() + "); wait for it to finish, or choose another --out");
    throw WriteError("cannot lock " + file.string() + ": " + std::strerror(err));
  }
  const std::string me = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd_, 0) == 0) {
    [[maybe_unused]] const ssize_t w = ::pwrite(fd_, me.data(), me.size(), 0);
  }
}

OutDirLock::~OutDirLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the flock
}

const std::vector<std::string>& run_dir_files() {
  static const std::vector<std::string> files = {"summary.json", "junit.xml", "manifest.json", "report.md",
                                                 "report.html", "plots",     ".mpi",          "run.json",
                                                 "results.jsonl"};
  return files;
}

namespace {
// The file that marks DIR/previous as softcert's.
const char kPreviousMarker[] = ".softcert-previous";
}  // namespace

std::string move_earlier_run_aside(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> present;
  for (const auto& f : run_dir_files())
    if (fs::exists(fs::symlink_status(dir / f))) present.push_back(f);
  if (present.empty()) return "";
  const fs::path staging = dir / ".previous.tmp", previous = dir / "previous";
  // DIR/previous is replaced only when softcert made it (its marker file is there): a user's own
  // DIR/previous, or a symlink there, is never deleted — the run is refused instead.
  const fs::file_status prev_status = fs::symlink_status(previous);
  if (fs::exists(prev_status) &&
      !(fs::is_directory(prev_status) && fs::is_regular_file(fs::symlink_status(previous / kPreviousMarker))))
    throw std::invalid_argument("--out " + dir.string() + ": " + previous.string() +
                                " exists and softcert did not make it; move it away (a fresh run moves the earlier run's "
                                "files there), or continue that run with --resume");
  std::error_code ec;
  fs::remove_all(staging, ec);
  fs::create_directories(staging, ec);
  if (ec) throw WriteError("cannot create " + staging.string() + ": " + ec.message());
  write_file_atomically(staging / kPreviousMarker, "moved aside by softcert: the files of the run before the one in ..\n");
  // Reports first, the journal last: a kill in between leaves no report beside a journal of another run.
  for (const auto& f : present) {
    fs::rename(dir / f, staging / f, ec);
    if (ec) throw WriteError("cannot move " + (dir / f).string() + " aside: " + ec.message());
  }
  fs::remove_all(previous, ec);
  fs::rename(staging, previous, ec);
  if (ec) throw WriteError("cannot rename " + staging.string() + " to " + previous.string() + ": " + ec.message());
  std::string list;
  for (const auto& f : present) list += (list.empty() ? "" : ", ") + f;
  return "moved the earlier run's files (" + list + ") to " + previous.string() + "/ (use --resume to continue a run)";
}

namespace {

[[noreturn]] void write_failed(const std::filesystem::path& file, int err) {
  throw WriteError("cannot write " + file.string() + ": " + std::strerror(err));
}

// Writes all of `text` to `fd`; false (errno set) on failure.
bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// The process's umask, read without changing it (umask(2) can only be read by setting it,
// which would race with threads creating files).
mode_t process_umask() {
  static const mode_t mask = [] {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
      if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8) & 0777);
    return static_cast<mode_t>(022);
  }();
  return mask;
}

}  // namespace

void write_file_atomically(const std::filesystem::path& file, const std::string& text) {
  // What is at the path decides; a symlink is never renamed over (the rename would replace it:
  // /dev/stdout itself, as root) and never written through to a regular file.
  //  - nothing, or a regular file: a temporary file renamed over the path (atomic);
  //  - a symlink that leads to one of this process's standard output streams (/dev/stdout,
  //    /dev/stderr, /proc/self/fd/1, ...: the same file as descriptor 1 or 2): written to that
  //    descriptor, where the stream is (a redirect to a file included);
  //  - a character device or FIFO, or a symlink to one (/dev/null, a pipe): written to directly;
  //  - anything else — a directory, a block device, a symlink to a regular file, a dangling
  //    symlink or a loop — refused (WriteError naming the path), nothing written.
  struct stat lst {};
  const bool exists = ::lstat(file.c_str(), &lst) == 0;
  if (exists && S_ISLNK(lst.st_mode)) {
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0)
      throw WriteError("cannot write " + file.string() + ": a symbolic link that leads nowhere (" + std::strerror(errno) +
                       "): softcert does not replace a symlink (remove it, or name another file)");
    for (const int fd : {STDOUT_FILENO, STDERR_FILENO}) {
      struct stat fs {};
      if (::fstat(fd, &fs) != 0 || fs.st_dev != st.st_dev || fs.st_ino != st.st_ino) continue;
      // what the process printed to the stream before goes first
      std::cout.flush();
      std::cerr.flush();
      std::fflush(nullptr);
      if (!write_all(fd, text)) write_failed(file, errno);
      return;
    }
    if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode))
      throw WriteError("cannot write " + file.string() + ": a symbolic link to " +
                       (S_ISREG(st.st_mode) ? "a regular file" : S_ISDIR(st.st_mode) ? "a directory" : "a special file") +
                       ": softcert neither writes through a symlink to a file nor replaces the symlink (name the file "
                       "itself, or remove the link)");
  }
  if (exists && !S_ISREG(lst.st_mode)) {
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0) write_failed(file, errno);
    if (S_ISDIR(st.st_mode)) write_failed(file, EISDIR);
    if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode))
      throw WriteError("cannot write " + file.string() + ": not a regular file, character device or pipe");
    // O_NONBLOCK: a FIFO with no reader fails (ENXIO) instead of hanging; cleared for the writes.
    // No O_TRUNC: a device or pipe has nothing to cut.
    const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) write_failed(file, errno);
    struct stat opened {};
    if (::fstat(fd, &opened) != 0 || (!S_ISCHR(opened.st_mode) && !S_ISFIFO(opened.st_mode))) {
      ::close(fd);  // the path changed between the checks and the open
      throw WriteError("cannot write " + file.string() + ": not a character device or pipe any more");
    }
    const int fl = ::fcntl(fd, F_GETFL);
    if (fl >= 0) ::fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    const bool ok = write_all(fd, text);
    const int err = errno;
    if (::close(fd) != 0 && ok) write_failed(file, errno);
    if (!ok) write_failed(file, err);
    return;
  }
  const std::filesystem::path dir = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
  std::string name = file.filename().string();  // ".NAME.tmp.XXXXXX", built without "." + ...:
  name.insert(0, 1, '.');                         // GCC 12 warns falsely there (-Wrestrict)
  name += ".tmp.XXXXXX";
  std::string tmp = (dir / name).string();
  const int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) write_failed(file, errno);
  auto fail = [&tmp, &file](int err, bool close_fd, int fd_to_close) {
    if (close_fd) ::close(fd_to_close);
    ::unlink(tmp.c_str());
    write_failed(file, err);
  };
  // mkstemp creates 0600; a report gets the mode any new file of the user's gets.
  if (::fchmod(fd, 0666 & ~process_umask()) != 0) fail(errno, true, fd);
  if (!write_all(fd, text)) fail(errno, true, fd);
  if (::fsync(fd) != 0) fail(errno, true, fd);
  if (::close(fd) != 0) fail(errno, false, -1);
  if (::rename(tmp.c_str(), file.c_str()) != 0) fail(errno, false, -1);
  // Make the rename itself durable (best effort: some file systems refuse fsync on a directory).
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace softcert::engine
