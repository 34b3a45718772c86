#pragma once
// Plain double arithmetic with the FPU rounding upward, for results that must be upper bounds:
//     const double b = num::upward([&] { return x + y; });   // b ≥ the exact x + y
//
// Guarantee: every floating-point operation written inside `work` is executed while the mode
// is FE_UPWARD; the previous mode is restored afterwards (also when work throws).
//
// Why a call and not a scope object around the arithmetic: GCC does not treat the rounding mode
// as state that floating-point operations read, even with -frounding-math (which it documents
// as incomplete; GCC bug 34678). An operation on values the compiler holds in registers (or in
// memory it has proved private) may therefore be scheduled before the fesetround that sets
// FE_UPWARD or after the one that restores the old mode: neither call reads or writes those
// values, so the move is legal as far as the compiler knows. Here `work` runs inside
// detail::call_opaque, which is noipa (never inlined, never analysed, no clones): to the caller
// it is a call with unknown effects, and such a call is never reordered with another call with
// unknown effects (fesetround is one), while every operation of `work` executes during it.
// Inputs reach `work` through its captures, whose address escapes to the opaque call (so they
// are in memory before it), and the result leaves through memory after it. -frounding-math
// (CMakeLists.txt) still keeps GCC from constant-folding inexact operations inside `work`.
// The price is one indirect call per scope, nothing per operation.
//
// Code outside `work` may run in either mode (the compiler may still move it across the mode
// switches): it must not rely on round-to-nearest for any guarantee. Values computed outside
// are "any double" (proposals, midpoints), and IntervalD sets its own mode per operation.
#include <cfenv>
#include <type_traits>
#include <utility>

namespace softcert::num {

namespace detail {

#if defined(__GNUC__) && !defined(__clang__)
#define SOFTCERT_OPAQUE_CALL __attribute__((noipa))
#else
#define SOFTCERT_OPAQUE_CALL __attribute__((noinline, optnone))
#endif
// Calls fn(ctx), opaquely to the optimiser (see the top of this file).
SOFTCERT_OPAQUE_CALL inline void call_opaque(void (*fn)(void*), void* ctx) { fn(ctx); }
#undef SOFTCERT_OPAQUE_CALL

struct RestoreRounding {
  int saved;
  ~RestoreRounding() { std::fesetround(saved); }
};

}  // namespace detail

// Runs work() with the FPU rounding upward and returns its result (guarantee above).
template <class F>
auto upward(F&& work) -> std::invoke_result_t<F&> {
  using R = std::invoke_result_t<F&>;
  using W = std::remove_reference_t<F>;
  const detail::RestoreRounding restore{std::fegetround()};
  std::fesetround(FE_UPWARD);
  if constexpr (std::is_void_v<R>) {
    detail::call_opaque([](void* p) { (*static_cast<W*>(p))(); }, const_cast<void*>(static_cast<const void*>(&work)));
  } else {
    struct Ctx {
      W* work;
      R result;
    } ctx{&work, R{}};
    detail::call_opaque([](void* p) {
      auto* c = static_cast<Ctx*>(p);
      c->result = (*c->work)();
    }, &ctx);
    return ctx.result;
  }
}

}  // namespace softcert::num
