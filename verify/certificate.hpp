#pragma once
// One certificate file (JSON Lines, docs/certificates.md): its header, its start set and its
// steps, re-checked in order: (d) the start set holds the instance's initial state, the steps
// follow each other and the last ends past the horizon; (a)–(c) each step (step.hpp); (e) the
// claim on every step and the sign of the margin.
#include <string>

namespace verify {

struct FileVerdict {
  bool verified = false;
  std::string message;  // what was shown, or the first inclusion that failed
};

FileVerdict verify_file(const std::string& path);

}  // namespace verify
