#pragma once
// The cap on a tape's largest allocation: the x0-derivative storage of the variational pass,
// nodes × (derivative order + 1) × n coefficients; and on the Lohner step's n × n matrices. At the papers' largest sizes it grows past the
// machine (the tied model at D = 50, n = 2551, in one block: 19 GiB; docs/performance.md, "The
// tied model at D = 50 and 100"). Above the cap the pass refuses with std::domain_error, which the
// validated flow reports as a step that cannot be validated (the check: inconclusive, with the
// bytes it would have needed), instead of taking the machine down.
#include <cstddef>
#include <stdexcept>

#include "support/failures.hpp"

namespace softcert::taylor {

// Bytes: half the machine's physical memory, at most 8 GiB (SOFTCERT_TAPE_MEMORY_CAP, in bytes,
// overrides it; read once). A malformed override (not decimal digits, 0, or above 2^50) throws
// std::invalid_argument naming the variable — the CLI checks it at start-up (exit 2) — instead of
// being ignored or read as "no cap".
std::size_t derivative_memory_cap();

// Throws MemoryLimit naming the sizes when nodes·orders·n coefficients of `bytes_each` bytes
// exceed the cap (the product computed without overflow).
void require_derivative_memory(std::size_t nodes, std::size_t orders, std::size_t n, std::size_t bytes_each);

// Throws MemoryLimit naming the sizes when `matrices` n × n matrices of `bytes_each` bytes exceed
// the cap: the Lohner step's (integrate/validated_taylor.hpp, ValidatedStepper::require_lohner_memory),
// checked when its stepper is built, before its first set is. The reduced form at T = 5000
// (n = 10,001) needs 1.6 GB a matrix of double intervals.
void require_lohner_memory(std::size_t n, std::size_t matrices, std::size_t bytes_each);

// Directions per block of the variational pass (taylor/tape.hpp: the pass runs for one block of
// x0-directions at a time, each block over every node and order; the results are the same
// numbers, since no direction's row reads another's). n — one block, the (node, order,
// direction) array whole — when nodes·orders·n coefficients fit in an eighth of the cap (1 GiB
// under the 8 GiB cap: every measured run but the tied model's at D = 50 and 100, e.g. the
// regression model at n = 420, q = 20); otherwise the most directions w whose block array nodes·orders·w
// fits in an eighth of the cap and, together with the n·orders·n result array, in the cap. Throws MemoryLimit naming
// the sizes when fewer than min(n, 8) directions fit (e.g. the result array alone is too big).
std::size_t derivative_block_width(std::size_t nodes, std::size_t orders, std::size_t n, std::size_t bytes_each);

}  // namespace softcert::taylor
