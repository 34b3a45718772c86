#include "support/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "numerics/quote.hpp"

namespace softcert::support {
namespace {

[[noreturn]] void refuse(const std::filesystem::path& file, const std::string& what) {
  throw std::invalid_argument(num::excerpt(file.string(), 200) + ": " + what);
}

std::string file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// Closes the descriptor on every path out of read_input_file.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string read_input_file(const std::filesystem::path& file, std::uintmax_t max_bytes, bool no_symlink) {
  // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting forever; a
  // regular file ignores the flag.
  const int flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | (no_symlink ? O_NOFOLLOW : 0);
  const Fd in{::open(file.c_str(), flags)};
  if (in.fd < 0) {
    const int err = errno;
    if (err == ELOOP)
      refuse(file, no_symlink ? "is a symbolic link: not followed (softcert wrote this file itself; a link there is not its)"
                              : "too many levels of symbolic links (a symlink loop?)");
    refuse(file, std::string("cannot read: ") + std::strerror(err));
  }
  struct stat st {};
  if (::fstat(in.fd, &st) != 0) refuse(file, std::string("cannot read: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) refuse(file, "is " + file_kind(st.st_mode) + ", not a regular file: not read");
  if (static_cast<std::uintmax_t>(st.st_size) > max_bytes)
    refuse(file, "is " + std::to_string(st.st_size) + " bytes, more than the " + std::to_string(max_bytes) +
                     "-byte limit for this kind of file (docs/cli.md, \"Limits\")");
  std::string text;
  text.reserve(static_cast<std::size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(in.fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      refuse(file, std::string("cannot read: ") + std::strerror(errno));
    }
    if (n == 0) break;
    const auto got = static_cast<std::size_t>(n);
    if (const void* nul = std::memchr(buf, '\0', got))
      refuse(file, "contains a NUL byte at offset " +
                       std::to_string(text.size() + static_cast<std::size_t>(static_cast<const char*>(nul) - buf)) +
                       ": not a text file");
    // The file grew after fstat (a file being written): the cap still holds.
    if (text.size() + got > max_bytes)
      refuse(file, "is more than the " + std::to_string(max_bytes) + "-byte limit for this kind of file (docs/cli.md, \"Limits\")");
    text.append(buf, got);
  }
  return text;
}

}  // namespace softcert::support
