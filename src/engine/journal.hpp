#pragma once
// The results journal: one JSON object per line, appended durably (a single write() of the
// whole line, then fdatasync) as each result finishes, so that a run killed at any moment
// leaves only complete lines behind and --resume can trust what it finds.
#include <cstdint>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace softcert::engine {

// "check\tinstance": the identity of a result.
std::string record_key(const nlohmann::json& record);

class Journal {
 public:
  // Opens for appending, creates if absent; a symlink or anything but a regular file at the path
  // is refused (std::invalid_argument), never followed.
  explicit Journal(const std::filesystem::path& file);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;
  void append(const nlohmann::json& record);
  // Cuts the file to its first `bytes` (--resume: the complete lines), through this descriptor.
  void cut_to(std::uintmax_t bytes);

 private:
  int fd_ = -1;
  std::filesystem::path file_;
};

// Reads a journal. Every line must be a complete JSON object with the record fields; anything
// else (a truncated or corrupted line, a duplicate key, a record whose verdict contradicts its
// margin or lost its counterexample: engine/record_validation.hpp) throws std::invalid_argument
// naming the file and line. For finished files (merge): a truncated last line is refused too.
std::map<std::string, nlohmann::json> read_journal(const std::filesystem::path& file);

// What --resume may reuse from the journal of an interrupted run.
struct ResumableJournal {
  std::map<std::string, nlohmann::json> records;
  std::uintmax_t complete_bytes = 0;  // length of the complete lines: where appending must resume
  std::string dropped_tail;           // the unterminated last line that was dropped ("" if none)
};

// As read_journal, except for one case: an unterminated LAST line (no newline after it) is
// dropped and reported, not refused. Journal::append writes each line, newline included, with
// one write(), so SIGKILL can cut only the line being appended — the last one — and the cut
// line is a result that simply did not finish; it is recomputed. Every other line must be a
// complete, valid record exactly as for read_journal. Before appending again, cut the file to
// complete_bytes (otherwise the next record would be glued to the cut line).
ResumableJournal read_journal_for_resume(const std::filesystem::path& file);

// An exclusive lock on a run directory (--out): flock on DIR/.softcert.lock, held for the
// object's lifetime (the whole run, reports included). The lock file is opened without following
// a symlink: a symlink (or anything but a regular file) there is refused, its target untouched. A second run on the same directory is
// refused with std::invalid_argument naming the directory and the holder's pid. The lock file
// stays (removing it would race with a waiting run); it holds the last holder's pid.
class OutDirLock {
 public:
  explicit OutDirLock(const std::filesystem::path& dir);  // creates dir if absent
  ~OutDirLock();
  OutDirLock(const OutDirLock&) = delete;
  OutDirLock& operator=(const OutDirLock&) = delete;

 private:
  int fd_ = -1;
};

// The files a suite run writes into its --out directory.
const std::vector<std::string>& run_dir_files();

// Before a fresh run (not --resume) into `dir`: the files of an earlier run there (results.jsonl,
// run.json, summary.json, junit.xml, manifest.json, report.md, report.html, plots/, .mpi/) are
// moved into DIR/previous/ (an older DIR/previous/ is replaced), so old reports never sit beside
// a new journal. Returns a note for the user ("" if there was nothing to move).
std::string move_earlier_run_aside(const std::filesystem::path& dir);

// A file could not be written (full disk, no permission, missing directory): the message names
// the file and the system's reason (strerror). The command line exits 2 on it.
struct WriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Writes `text` to `file` atomically: a fresh temporary file in the same directory (mkstemp),
// every write checked, fsync, close checked, rename over `file`, then fsync of the directory.
// On any failure (EFBIG under `ulimit -f` included: main ignores SIGXFSZ) the temporary file is
// removed, `file` is left as it was, and WriteError is thrown. Every report file softcert writes
// goes through here. What sits at the path decides (docs/cli.md, "Output files"):
//  - nothing or a regular file: written as above;
//  - a character device or FIFO, or a symlink to one (/dev/null, a pipe): written to directly,
//    still checked (no rename, no truncation);
//  - a symlink to one of this process's standard output streams (/dev/stdout, /dev/stderr,
//    /proc/self/fd/N: the same file as descriptor 1 or 2, a redirect to a regular file
//    included): written to that descriptor;
//  - anything else — a symlink to a regular file or directory, a dangling symlink, a directory,
//    a block device — refused with WriteError naming the path. A symlink is never renamed over
//    (that replaced /dev/stdout itself when run as root) and never written through to a file.
void write_file_atomically(const std::filesystem::path& file, const std::string& text);

}  // namespace softcert::engine
