#pragma once
// Reading a file softcert was given (an instance, a suite, a replay record, a manifest, run.json,
// a journal) without trusting what sits at the path: only a regular file is read (a device such
// as /dev/zero, a FIFO, a socket or a directory is refused before a byte is read; a FIFO is
// opened non-blocking, so it cannot hang the open), at most `max_bytes` of it (a larger file,
// sparse or not, is refused from its size), and reading stops at the first NUL byte, which is
// refused with its offset: softcert's inputs are UTF-8 text. A symlink is followed (a symlinked
// instance file is ordinary), but a loop is refused like any other open failure. Every refusal is
// std::invalid_argument whose message starts with the path and says what is wrong.
#include <cstdint>
#include <filesystem>
#include <string>

namespace softcert::support {

// The cap on instance files, suite files, replay records, manifests and run.json (docs/cli.md,
// "Limits"): 64 MiB, about 200 times the largest committed instance.
inline constexpr std::uintmax_t kMaxInputFileBytes = std::uintmax_t{64} << 20;
// The cap on a results journal (results.jsonl) read by --resume and merge: 16 GiB, about three
// times a run of the most instances a run may plan (10⁶, engine/suite.hpp) at ≈ 5 KB a record.
inline constexpr std::uintmax_t kMaxJournalBytes = std::uintmax_t{16} << 30;

// The file's bytes; see the header comment. `no_symlink`: refuse a symlink at the path itself
// (files inside an --out directory softcert wrote itself: results.jsonl, run.json).
std::string read_input_file(const std::filesystem::path& file, std::uintmax_t max_bytes = kMaxInputFileBytes,
                            bool no_symlink = false);

}  // namespace softcert::support
