#pragma once
// The cap on a tape's largest allocation: the x0-derivative storage of the variational pass,
// nodes × (derivative order + 1) × n coefficients. At the papers' largest sizes it grows past the
// machine (the tied model at D = 50, n = 2551, reached 23.7 GB before the kernel killed it:
// docs/performance.md). Above the cap the pass refuses with std::domain_error, which the
// validated flow reports as a step that cannot be validated (the check: inconclusive, with the
// bytes it would have needed), instead of taking the machine down.
#include <cstddef>

namespace softcert::taylor {

// Bytes: half the machine's physical memory, at most 8 GiB (SOFTCERT_TAPE_MEMORY_CAP, in bytes,
// overrides it; read once).
std::size_t derivative_memory_cap();

// Throws std::domain_error naming the sizes when nodes·orders·n coefficients of `bytes_each`
// bytes exceed the cap (the product computed without overflow).
void require_derivative_memory(std::size_t nodes, std::size_t orders, std::size_t n, std::size_t bytes_each);

}  // namespace softcert::taylor
