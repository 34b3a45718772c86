#pragma once
// "Did you mean": the candidate nearest to a mistyped word, by edit distance (insertions,
// deletions, substitutions), when it is near enough to be a typo — at most a third of the
// word's length, and at least one edit. For messages only.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace softcert::num {

inline std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// The nearest candidate within max(1, |word|/3) edits; the first of equally near ones.
inline std::optional<std::string> nearest_word(const std::string& word, const std::vector<std::string>& candidates) {
  if (word.size() > 200) return std::nullopt;  // a message helper: no quadratic work on huge input
  std::optional<std::string> best;
  std::size_t best_d = std::max<std::size_t>(1, word.size() / 3) + 1;
  for (const auto& c : candidates) {
    if (c.size() > 200) continue;
    const std::size_t d = edit_distance(word, c);
    if (d < best_d) best_d = d, best = c;
  }
  return best;
}

// " (did you mean \"X\"?)" or "".
inline std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  const auto w = nearest_word(word, candidates);
  return w ? " (did you mean \"" + *w + "\"?)" : "";
}

}  // namespace softcert::num
