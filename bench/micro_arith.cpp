// Micro-benchmarks (Google Benchmark): scalar arithmetic per kind, next to MPFR and MPFI called
// directly and plain double (the physical floor). Feeds table 4 of docs/performance.md.
//
// Names: arith/<op>/<kind>/<bits>. Every benchmark cycles over 64 preset operands so that no
// call can be folded, and reports items_per_second = operations per second.
//   kinds: double, mpfr (MpReal, et_off: every result a new number), interval-double (IntervalD:
//   rounding mode saved and set around each operation), interval-double-fast (the tape's inner-
//   loop arithmetic: mode set once, taylor/fast_arith.hpp), interval-mpfr (IntervalMp),
//   mpfr-direct / mpfi-direct (mpfr_add(r, x, y) into a preallocated r: no allocation).
// exp/log of the softcert kinds go through num::exp / num::log (the enclosing versions).
#include <benchmark/benchmark.h>

#include <mpfi.h>
#include <mpfr.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <optional>
#include <vector>

#include "numerics/elementary.hpp"
#include "numerics/kinds.hpp"
#include "numerics/precision.hpp"
#include "taylor/fast_arith.hpp"

namespace {

using namespace softcert;
constexpr std::size_t kN = 64;

double operand(std::size_t i) { return 0.5 + 0.37 * static_cast<double>(i % 17) / 17.0 + 1e-3 * static_cast<double>(i); }

enum class Op { add, mul, div, exp, log };

template <class K>
K make(double v) {
  if constexpr (std::is_same_v<K, taylor::FastIntervalD>) return K(v, v);
  else return K(v);
}

template <class K>
K apply(Op op, const K& x, const K& y) {
  switch (op) {
    case Op::add: return x + y;
    case Op::mul: return x * y;
    case Op::div: return x / y;
    case Op::exp: if constexpr (std::is_same_v<K, taylor::FastIntervalD>) return x; else return num::exp(x);
    case Op::log: if constexpr (std::is_same_v<K, taylor::FastIntervalD>) return x; else return num::log(x);
  }
  return x;
}

// A softcert kind through its operators.
template <class K>
void kind_op(benchmark::State& st, Op op, unsigned bits) {
  num::PrecisionGuard guard(bits < 53 ? 53 : bits);
  std::vector<K> x, y;
  for (std::size_t i = 0; i < kN; ++i) {
    x.push_back(make<K>(operand(i)));
    y.push_back(make<K>(operand(i + 5)));
  }
  std::optional<taylor::FastArith<IntervalD>::Guard> rounding;  // the fast kind is sound only inside it
  if constexpr (std::is_same_v<K, taylor::FastIntervalD>) rounding.emplace();
  std::size_t i = 0;
  for (auto _ : st) {
    K r = apply(op, x[i], y[i]);
    benchmark::DoNotOptimize(r);
    i = (i + 1) % kN;
  }
  st.SetItemsProcessed(st.iterations());
}

void mpfr_direct(benchmark::State& st, Op op, unsigned bits) {
  std::vector<mpfr_t> x(kN), y(kN);
  mpfr_t r;
  mpfr_init2(r, bits);
  for (std::size_t i = 0; i < kN; ++i) {
    mpfr_init2(x[i], bits);
    mpfr_init2(y[i], bits);
    mpfr_set_d(x[i], operand(i), MPFR_RNDN);
    mpfr_set_d(y[i], operand(i + 5), MPFR_RNDN);
  }
  std::size_t i = 0;
  for (auto _ : st) {
    switch (op) {
      case Op::add: mpfr_add(r, x[i], y[i], MPFR_RNDN); break;
      case Op::mul: mpfr_mul(r, x[i], y[i], MPFR_RNDN); break;
      case Op::div: mpfr_div(r, x[i], y[i], MPFR_RNDN); break;
      case Op::exp: mpfr_exp(r, x[i], MPFR_RNDN); break;
      case Op::log: mpfr_log(r, x[i], MPFR_RNDN); break;
    }
    benchmark::ClobberMemory();
    i = (i + 1) % kN;
  }
  st.SetItemsProcessed(st.iterations());
  for (std::size_t k = 0; k < kN; ++k) {
    mpfr_clear(x[k]);
    mpfr_clear(y[k]);
  }
  mpfr_clear(r);
}

void mpfi_direct(benchmark::State& st, Op op, unsigned bits) {
  std::vector<mpfi_t> x(kN), y(kN);
  mpfi_t r;
  mpfi_init2(r, bits);
  for (std::size_t i = 0; i < kN; ++i) {
    mpfi_init2(x[i], bits);
    mpfi_init2(y[i], bits);
    mpfi_interv_d(x[i], operand(i), operand(i) + 1e-9);
    mpfi_interv_d(y[i], operand(i + 5), operand(i + 5) + 1e-9);
  }
  std::size_t i = 0;
  for (auto _ : st) {
    switch (op) {
      case Op::add: mpfi_add(r, x[i], y[i]); break;
      case Op::mul: mpfi_mul(r, x[i], y[i]); break;
      case Op::div: mpfi_div(r, x[i], y[i]); break;
      case Op::exp: mpfi_exp(r, x[i]); break;
      case Op::log: mpfi_log(r, x[i]); break;
    }
    benchmark::ClobberMemory();
    i = (i + 1) % kN;
  }
  st.SetItemsProcessed(st.iterations());
  for (std::size_t k = 0; k < kN; ++k) {
    mpfi_clear(x[k]);
    mpfi_clear(y[k]);
  }
  mpfi_clear(r);
}

void double_op(benchmark::State& st, Op op) {
  std::vector<double> x(kN), y(kN);
  for (std::size_t i = 0; i < kN; ++i) {
    x[i] = operand(i);
    y[i] = operand(i + 5);
  }
  std::size_t i = 0;
  for (auto _ : st) {
    double r = 0;
    switch (op) {
      case Op::add: r = x[i] + y[i]; break;
      case Op::mul: r = x[i] * y[i]; break;
      case Op::div: r = x[i] / y[i]; break;
      case Op::exp: r = std::exp(x[i]); break;
      case Op::log: r = std::log(x[i]); break;
    }
    benchmark::DoNotOptimize(r);
    i = (i + 1) % kN;
  }
  st.SetItemsProcessed(st.iterations());
}

const char* name_of(Op op) {
  switch (op) {
    case Op::add: return "add";
    case Op::mul: return "mul";
    case Op::div: return "div";
    case Op::exp: return "exp";
    case Op::log: return "log";
  }
  return "?";
}

// "arith/<op>/<kind>/<bits>" (snprintf: GCC 12 warns -Wrestrict on chained std::string +).
std::string bench_name(Op op, const char* kind, unsigned bits) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "arith/%s/%s/%u", name_of(op), kind, bits);
  return buf;
}

int register_all() {
  for (Op op : {Op::add, Op::mul, Op::div, Op::exp, Op::log}) {
    benchmark::RegisterBenchmark(bench_name(op, "double", 53).c_str(), double_op, op);
    benchmark::RegisterBenchmark(bench_name(op, "interval-double", 53).c_str(), kind_op<IntervalD>, op, 53u);
    if (op != Op::exp && op != Op::log)
      benchmark::RegisterBenchmark(bench_name(op, "interval-double-fast", 53).c_str(), kind_op<taylor::FastIntervalD>, op, 53u);
    for (unsigned bits : {128u, 256u, 1024u}) {
      benchmark::RegisterBenchmark(bench_name(op, "mpfr-direct", bits).c_str(), mpfr_direct, op, bits);
      benchmark::RegisterBenchmark(bench_name(op, "mpfr", bits).c_str(), kind_op<MpReal>, op, bits);
      benchmark::RegisterBenchmark(bench_name(op, "mpfi-direct", bits).c_str(), mpfi_direct, op, bits);
      benchmark::RegisterBenchmark(bench_name(op, "interval-mpfr", bits).c_str(), kind_op<IntervalMp>, op, bits);
    }
  }
  return 0;
}
const int registered = register_all();

}  // namespace
