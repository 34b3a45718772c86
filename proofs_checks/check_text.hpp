#pragma once
// What names a check and what `softcert list` shows of it: its name, its docs page and its
// statement (with its sources). The family bases (VarreCheck, SinkPaperCheck) take it in their
// constructor and answer name(), doc() and statement() from it, so that a check states these
// once, as data at its head, and its class holds only what it decides.
#include <string>
#include <utility>

#include "engine/check.hpp"

namespace softcert {

struct CheckText {
  std::string name;       // the registry name, e.g. "varre2026.order_preservation"
  std::string doc;        // its page under docs/theorems/
  std::string statement;  // the claim checked, each part with its source ([paper], [code], [ours])
};

// An engine::Check whose name, docs page and statement are a CheckText.
class StatedCheck : public engine::Check {
 public:
  explicit StatedCheck(CheckText text) : text_(std::move(text)) {}
  std::string name() const override { return text_.name; }
  std::string doc() const override { return text_.doc; }
  std::string statement() const override { return text_.statement; }

 private:
  CheckText text_;
};

}  // namespace softcert
