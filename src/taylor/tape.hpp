#pragma once
// taylor::Tape<S>: records one evaluation of a vector field f (a template over its scalar,
// evaluated on taylor::Var<S>) as a list of elementary operations, then computes the Taylor
// coefficients of the solution of x' = f(x), x(0) = x0, one order at a time, optionally with
// their derivatives with respect to x0 (the variational equations, for Lohner's method).
//
// Why a tape: evaluating f on whole series would redo every lower order at every new order
// (O(p³) per operation); one order at a time over the recorded operations is O(p²), and the
// derivative pass re-uses the same recurrences. All coefficient storage is one contiguous
// array per tape, kept across steps, so the inner loops do not allocate.
//
// Guarantee (interval S): coefficient(i, k) encloses the k-th Taylor coefficient
// x_i^{(k)}(0)/k! of the solution through every initial point inside the recorded x0 box, and
// derivative(i, k, j) encloses ∂/∂x0_j of it (for x0 in the box) — each is a fixed expression
// of enclosing interval operations (taylor/coefficients.hpp and the chain rule below).
//
// Recording evaluates coefficient 0 of every node at once (so the vector field may ask the
// constant coefficient for bounds, e.g. to choose a log-sum-exp shift); a tape is recorded
// afresh for every initial box, so such choices always refer to the box in use. Any choice
// the vector field makes must only select between mathematically identical formulas.
#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "numerics/elementary.hpp"
#include "numerics/kinds.hpp"
#include "numerics/traits.hpp"
#include "taylor/coefficients.hpp"
#include "taylor/fast_arith.hpp"
#include "taylor/mac.hpp"
#include "taylor/memory_cap.hpp"

namespace softcert::taylor {

template <class S>
class Tape;

// A recorded value: an index into the active tape of this thread.
template <class S>
class Var {
 public:
  Var() : id_(constant_id(S(0))) {}
  Var(const S& v) : id_(constant_id(v)) {}      // NOLINT: models write X(s)
  Var(int v) : id_(constant_id(S(v))) {}        // NOLINT
  template <class D, std::enable_if_t<std::is_same_v<D, double> && !std::is_same_v<S, double>, int> = 0>
  Var(D v) : id_(constant_id(S(v))) {}  // NOLINT
  static Var from_id(std::uint32_t id) {
    Var r(nullptr);
    r.id_ = id;
    return r;
  }
  std::uint32_t id() const { return id_; }
  // Coefficient 0 (the value at the recorded initial box).
  S value() const;

  Var& operator+=(const Var& o) { return *this = *this + o; }
  Var& operator-=(const Var& o) { return *this = *this - o; }
  Var& operator*=(const Var& o) { return *this = *this * o; }
  Var& operator/=(const Var& o) { return *this = *this / o; }
  friend Var operator+(const Var& x) { return x; }
  friend Var operator-(const Var& x) { return unary(Op::neg, x); }
  friend Var operator+(const Var& x, const Var& y) { return binary(Op::add, x, y); }
  friend Var operator-(const Var& x, const Var& y) { return binary(Op::sub, x, y); }
  friend Var operator*(const Var& x, const Var& y) { return binary(Op::mul, x, y); }
  friend Var operator/(const Var& x, const Var& y) { return binary(Op::div, x, y); }

  enum class Op : std::uint8_t { constant, input, add, sub, neg, mul, scale, div, div_const, exp, expm1, log, log1p, sqrt, sqr };
  // Records an elementary function of x (exp, expm1, log, log1p, sqrt, sqr, neg).
  static Var unary_public(Op op, const Var& x) { return unary(op, x); }

 private:
  explicit Var(std::nullptr_t) : id_(0) {}
  static std::uint32_t constant_id(const S& v);
  static Var unary(Op op, const Var& x);
  static Var binary(Op op, const Var& x, const Var& y);
  friend class Tape<S>;
  std::uint32_t id_;
};

template <class S>
class Tape {
 public:
  using Op = typename Var<S>::Op;
  using A = typename FastArith<S>::type;  // arithmetic of the inner loops (fast_arith.hpp)

  // Records f at the initial box x0 with room for coefficients 0..order. `f(x, dxdt)` must
  // accept std::vector<Var<S>>. Makes this tape the thread's active one during the call.
  template <class F>
  void record(const F& f, const std::vector<S>& x0, std::size_t order) {
    n_ = x0.size();
    K_ = order + 1;
    nodes_.clear();
    used_ = 0;
    Tape* saved = active();
    active() = this;
    try {
      std::vector<Var<S>> x;
      x.reserve(n_);
      for (std::size_t i = 0; i < n_; ++i) {
        const std::uint32_t id = push(Node{Op::input, 0, 0});
        c(id, 0) = FastArith<S>::to(x0[i]);
        x.push_back(Var<S>::from_id(id));
      }
      std::vector<Var<S>> dx(n_);
      f(x, dx);
      if (dx.size() != n_) throw std::logic_error("vector field returned the wrong dimension");
      outputs_.clear();
      for (const auto& v : dx) outputs_.push_back(v.id());
    } catch (...) {
      active() = saved;
      throw;
    }
    active() = saved;
  }

  // Computes coefficients 1..order of the solution (and, if `derivatives`, the derivatives of
  // coefficients 0..min(order, derivative_order) with respect to x0; derivative(i, k, j) is
  // meaningful only for those k). The derivative pass costs ~ nodes·q²·n for q = that order.
  // It runs over blocks of x0-directions (all nodes and orders for directions j0..j0+w−1, then
  // the next block): w = n (one block) unless the (node, order, direction) array would not fit
  // in an eighth of the memory cap (derivative_block_width, taylor/memory_cap.hpp). No row of one
  // direction reads another direction's, so every block width gives the same numbers bit for
  // bit (tests/taylor/tape_blocks_test.cpp); only the memory, nodes·(q+1)·w + n·(q+1)·n
  // coefficients instead of nodes·(q+1)·n, changes.
  void solve(bool derivatives, std::size_t derivative_order = static_cast<std::size_t>(-1));
  // Directions per block of the next derivative passes: 0 = chosen from the memory cap (the
  // default); w ≥ 1 forces blocks of w (tests and benches; the cap still applies).
  void set_derivative_block(std::size_t w) { forced_block_ = w; }
  // The block width of the last derivative pass (n: one block).
  std::size_t derivative_block() const { return w_; }
  // Runs two jobs and returns when both have ended, possibly at once on two threads (e.g.
  // support::run_both, which takes a second thread only while the CPU cap has a core free).
  using BlockRunner = std::function<void(const std::function<void()>&, const std::function<void()>&)>;
  // With a runner, a derivative pass over at least kTwoWayFrom directions in the double fast
  // arithmetic runs its blocks in two interleaved halves, the odd blocks in a copy of this tape
  // (its own block array and scratch): the same numbers bit for bit, since no direction's row
  // reads another's (tests/taylor/tape_blocks_test.cpp). Other kinds stay on one thread (an
  // MPFR precision is per thread).
  void set_block_runner(BlockRunner r) { runner_ = std::move(r); }
  static constexpr std::size_t kTwoWayFrom = 256;

  std::size_t dimension() const { return n_; }
  std::size_t order() const { return K_ - 1; }
  std::size_t size() const { return nodes_.size(); }
  // Coefficient k of solution component i.
  S coefficient(std::size_t i, std::size_t k) const { return FastArith<S>::from(coef_[i * K_ + k]); }
  // ∂ coefficient(i, k) / ∂ x0_j (after solve(true)), for k ≤ the derivative order solved.
  S derivative(std::size_t i, std::size_t k, std::size_t j) const {
    assert(k < Kd_);
    return FastArith<S>::from(w_ == n_ ? d_[(i * Kd_ + k) * n_ + j] : out_[(i * Kd_ + k) * n_ + j]);
  }
  // Coefficient 0 of any node (its value at the recorded box).
  S value0(std::size_t node) const { return FastArith<S>::from(coef_[node * K_]); }

  static Tape*& active() {
    thread_local Tape* t = nullptr;
    return t;
  }

 private:
  friend class Var<S>;
  struct Node {
    Op op;
    std::uint32_t a, b;
  };

  A& c(std::size_t node, std::size_t k) { return coef_[node * K_ + k]; }
  A* cp(std::size_t node) { return &coef_[node * K_]; }
  // Row of node's order-k derivatives for the directions of the current block (w_ of them).
  A* d(std::size_t node, std::size_t k) { return &d_[(node * Kd_ + k) * w_]; }
  A& aux(std::size_t node) { return aux_[node]; }
  void set0(std::size_t node, const S& v) { coef_[node * K_] = FastArith<S>::to(v); }
  void set_aux(std::size_t node, const S& v) { aux_[node] = FastArith<S>::to(v); }

  std::uint32_t push(Node nd) {
    const std::size_t id = nodes_.size();
    nodes_.push_back(nd);
    if (coef_.size() < (id + 1) * K_) coef_.resize((id + 1) * K_, A(0));
    for (std::size_t k = 0; k < K_; ++k) coef_[id * K_ + k] = A(0);
    if (aux_.size() < id + 1) aux_.resize(id + 1, A(0));
    return static_cast<std::uint32_t>(id);
  }

  void clear_d(std::size_t i, std::size_t dq) {
    A* p = d(i, 0);
    for (std::size_t m = 0; m < (dq + 1) * w_; ++m) p[m] = A(0);
  }
  // The derivative pass for directions j0..j0+w_−1 (orders 0..dq); coefficients 0..dq are final.
  void derivative_block(std::size_t j0, std::size_t dq);
  // Copies the inputs' rows of the block at j0, computed in `from`'s block array, into out_.
  void gather_block(const Tape& from, std::size_t j0);
  // The pass in two halves (set_block_runner).
  void solve_two_way(std::size_t dq);

  // Coefficient k ≥ 1 of node i.
  void eval(std::size_t i, std::size_t k);
  // Derivatives (n directions) of coefficient k of node i, by the chain rule applied to the
  // recurrences of taylor/coefficients.hpp (each written out in docs/method.md §Taylor).
  void eval_d(std::size_t i, std::size_t k);

  std::vector<A>& scratch(std::size_t n) {
    if (scratch_.size() < n) scratch_.resize(n, A(0));
    return scratch_;
  }

  std::size_t n_ = 0, K_ = 1, used_ = 0;
  // Orders with derivatives stored per node (the derivative order solved + 1): with q < p the
  // (node, order, direction) array holds q + 1 orders, not p + 1 (it is the largest allocation
  // of a step: taylor/memory_cap.hpp).
  std::size_t Kd_ = 1;
  std::size_t w_ = 0, forced_block_ = 0;  // directions per block (the last pass's; a forced width)
  bool derivatives_ = false;
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> outputs_;
  // d_: (node, order, direction-in-block); out_: (input, order, direction), the inputs' rows
  // gathered from every block (used only when w_ < n_; with one block d_ holds them).
  std::vector<A> coef_, d_, out_, aux_, scratch_;
  BlockRunner runner_;
  std::unique_ptr<Tape> other_;  // the second half's copy (kept: its block array is reused)
};

// ----- Tape: the coefficient passes ---------------------------------------------------------
// Defined out of the class (not inline) so that the explicit instantiations below keep every
// other translation unit from compiling them again (docs/performance.md, "Building from scratch").
template <class S>
void Tape<S>::solve(bool derivatives, std::size_t derivative_order) {
  [[maybe_unused]] const typename FastArith<S>::Guard rounding_guard;  // every A operation below is inside it
  derivatives_ = derivatives;
  const std::size_t dq = derivative_order < K_ - 1 ? derivative_order : K_ - 1;  // highest differentiated order
  if (derivatives) {  // the sizes first: refuse before any allocation (taylor/memory_cap.hpp)
    Kd_ = dq + 1;
    const std::size_t auto_w = derivative_block_width(nodes_.size(), Kd_, n_, sizeof(A));
    w_ = forced_block_ ? std::min(forced_block_, auto_w) : auto_w;  // a forced width stays under the cap
  }
  // The coefficients: every order first (they never read a derivative).
  for (std::size_t k = 0; k + 1 < K_; ++k) {
    if (k > 0)
      for (std::size_t i = n_; i < nodes_.size(); ++i) eval(i, k);
    // x_{k+1} = f_k / (k+1)
    const A kk(static_cast<int>(k + 1));
    for (std::size_t i = 0; i < n_; ++i) {
      const std::uint32_t o = outputs_[i];
      c(i, k + 1) = c(o, k) / kk;
    }
  }
  if (!derivatives) return;
  if (runner_ && std::is_same_v<A, FastIntervalD> && n_ >= kTwoWayFrom) return solve_two_way(dq);
  if (d_.size() < nodes_.size() * Kd_ * w_) d_.resize(nodes_.size() * Kd_ * w_, A(0));
  if (w_ < n_ && out_.size() < n_ * Kd_ * n_) out_.resize(n_ * Kd_ * n_, A(0));
  for (std::size_t j0 = 0; j0 < n_; j0 += w_) {
    derivative_block(j0, dq);
    if (w_ == n_) break;  // one block: d_ holds the inputs' rows (derivative() reads them there)
    gather_block(*this, j0);
  }
}

template <class S>
void Tape<S>::gather_block(const Tape& from, std::size_t j0) {
  const std::size_t w = std::min(w_, n_ - j0);
  for (std::size_t i = 0; i < n_; ++i)
    for (std::size_t k = 0; k < Kd_; ++k) {
      const A* src = &from.d_[(i * Kd_ + k) * from.w_];
      A* dst = &out_[(i * Kd_ + k) * n_ + j0];
      for (std::size_t j = 0; j < w; ++j) dst[j] = src[j];
    }
}

// Blocks of half the single pass's width (two block arrays: the same memory as its one), the
// even ones on this thread and the odd ones in other_, a copy of the recorded tape and its
// coefficients; each thread gathers its blocks into out_'s own columns. The runner's second
// thread may be in any rounding mode (a new thread inherits its creator's, a pooled one keeps
// what it had): each job holds its own FastArith guard.
template <class S>
void Tape<S>::solve_two_way(std::size_t dq) {
  w_ = w_ < n_ ? std::max<std::size_t>(1, w_ / 2) : (n_ + 1) / 2;  // < n_: derivative() reads out_
  if (d_.size() < nodes_.size() * Kd_ * w_) d_.resize(nodes_.size() * Kd_ * w_, A(0));
  if (out_.size() < n_ * Kd_ * n_) out_.resize(n_ * Kd_ * n_, A(0));
  if (!other_) other_ = std::make_unique<Tape>();
  Tape& o = *other_;
  o.n_ = n_;
  o.K_ = K_;
  o.Kd_ = Kd_;
  o.w_ = w_;
  o.nodes_ = nodes_;
  o.outputs_ = outputs_;
  o.coef_.assign(coef_.begin(), coef_.begin() + static_cast<std::ptrdiff_t>(nodes_.size() * K_));
  o.aux_.assign(aux_.begin(), aux_.begin() + static_cast<std::ptrdiff_t>(nodes_.size()));
  if (o.d_.size() < nodes_.size() * Kd_ * w_) o.d_.resize(nodes_.size() * Kd_ * w_, A(0));
  auto half = [this, dq](Tape& t, std::size_t first) {
    [[maybe_unused]] const typename FastArith<S>::Guard rounding_guard;
    for (std::size_t j0 = first * w_; j0 < n_; j0 += 2 * w_) {
      t.derivative_block(j0, dq);
      gather_block(t, j0);
    }
  };
  runner_([&] { half(*this, 0); }, [&] { half(o, 1); });
}

template <class S>
void Tape<S>::derivative_block(std::size_t j0, std::size_t dq) {
  // The last block may be narrower: its surplus columns seed nothing and stay 0 (never read).
  for (std::size_t i = 0; i < nodes_.size(); ++i) clear_d(i, dq);
  for (std::size_t i = j0; i < n_ && i < j0 + w_; ++i) d(i, 0)[i - j0] = A(1);  // inputs are nodes 0..n−1
  for (std::size_t i = 0; i < nodes_.size(); ++i) eval_d(i, 0);
  for (std::size_t k = 0; k < dq; ++k) {
    if (k > 0)
      for (std::size_t i = n_; i < nodes_.size(); ++i) eval_d(i, k);
    const A kk(static_cast<int>(k + 1));
    for (std::size_t i = 0; i < n_; ++i) {
      A* di = d(i, k + 1);
      const A* dout = d(outputs_[i], k);
#if defined(__SSE2__) && !defined(SOFTCERT_NO_SIMD_TAPE)
      if constexpr (std::is_same_v<A, FastIntervalD>) {
        div_rows_pos_sse(di, dout, static_cast<double>(k + 1), w_);  // the same doubles (taylor/mac.hpp)
        continue;
      }
#endif
      for (std::size_t j = 0; j < w_; ++j) di[j] = dout[j] / kk;
    }
  }
}

template <class S>
void Tape<S>::eval(std::size_t i, std::size_t k) {
  const Node& nd = nodes_[i];
  const A* a = cp(nd.a);
  const A* b = cp(nd.b);
  A* r = cp(i);
  switch (nd.op) {
    case Op::constant:
    case Op::input: break;
    case Op::add: r[k] = a[k] + b[k]; break;
    case Op::sub: r[k] = a[k] - b[k]; break;
    case Op::neg: r[k] = -a[k]; break;
    case Op::mul: r[k] = coef::mul(a, b, k); break;
    case Op::scale: r[k] = a[k] * b[0]; break;
    case Op::div: r[k] = coef::div(a, b, r, k); break;
    case Op::div_const: r[k] = a[k] / b[0]; break;
    case Op::exp: r[k] = coef::exp(a, r, k); break;
    case Op::expm1: r[k] = coef::expm1(a, r, aux_[i], k); break;
    case Op::log:
    case Op::log1p: r[k] = coef::log(a, r, aux_[i], k); break;
    case Op::sqrt: r[k] = coef::sqrt(a, r, k); break;
    case Op::sqr: r[k] = coef::sqr(a, k); break;
  }
}

// Derivatives (n directions) of coefficient k of node i (see the declaration).
template <class S>
void Tape<S>::eval_d(std::size_t i, std::size_t k) {
  const Node& nd = nodes_[i];
  if (nd.op == Op::constant || nd.op == Op::input) return;
  const A* a = cp(nd.a);
  const A* b = cp(nd.b);
  const A* r = cp(i);
  A* dr = d(i, k);
  const std::size_t n = w_;  // the directions of the current block
  auto da = [&](std::size_t m) { return d(nd.a, m); };
  auto db = [&](std::size_t m) { return d(nd.b, m); };
  auto dc = [&](std::size_t m) { return d(i, m); };
  const A kk(static_cast<int>(k == 0 ? 1 : k));
  switch (nd.op) {
    case Op::constant:
    case Op::input: break;
    case Op::add:
#if defined(__SSE2__) && !defined(SOFTCERT_NO_SIMD_TAPE)
      if constexpr (std::is_same_v<A, FastIntervalD>) {
        add_rows_sse(dr, da(k), db(k), n);  // the same doubles (taylor/mac.hpp)
        break;
      }
#endif
      for (std::size_t j = 0; j < n; ++j) dr[j] = da(k)[j] + db(k)[j];
      break;
    case Op::sub:
#if defined(__SSE2__) && !defined(SOFTCERT_NO_SIMD_TAPE)
      if constexpr (std::is_same_v<A, FastIntervalD>) {
        sub_rows_sse(dr, da(k), db(k), n);
        break;
      }
#endif
      for (std::size_t j = 0; j < n; ++j) dr[j] = da(k)[j] - db(k)[j];
      break;
    case Op::neg: for (std::size_t j = 0; j < n; ++j) dr[j] = -da(k)[j]; break;
    case Op::scale:
#if defined(__SSE2__) && !defined(SOFTCERT_NO_SIMD_TAPE)
      if constexpr (std::is_same_v<A, FastIntervalD>) {
        if (scale_rows_sse(dr, da(k), b[0], n) && all_finite(dr, n)) break;
      }
#endif
      for (std::size_t j = 0; j < n; ++j) dr[j] = da(k)[j] * b[0];
      break;
    case Op::div_const: for (std::size_t j = 0; j < n; ++j) dr[j] = da(k)[j] / b[0]; break;
    case Op::mul:
#if defined(__SSE2__) && !defined(SOFTCERT_NO_SIMD_TAPE)  // (the macro: benches of the scalar path)
      if constexpr (std::is_same_v<A, FastIntervalD>) {
        // The vector kernel (taylor/mac.hpp): identical results; any non-finite operand or
        // result sends the node back to the generic loop below, from dr = 0 (clear_d).
        bool ok = true;
        for (std::size_t m = 0; m <= k && ok; ++m) ok = mac2_rows_sse(dr, da(m), b[k - m], db(m), a[k - m], n);
        if (ok && all_finite(dr, n)) break;
        for (std::size_t j = 0; j < n; ++j) dr[j] = A(0);
      }
#endif
      for (std::size_t m = 0; m <= k; ++m) {
        const A* dam = da(m);
        const A* dbm = db(m);
        const A& bk = b[k - m];
        const A& ak = a[k - m];
        // d(Σ a_m b_{k−m}) = Σ (da_m b_{k−m} + db_m a_{k−m})
        for (std::size_t j = 0; j < n; ++j) {
          mac(dr[j], dam[j], bk);
          mac(dr[j], dbm[j], ak);
        }
      }
      break;
    case Op::sqr:
      for (std::size_t m = 0; m <= k; ++m) {
        const A* dam = da(m);
        const A ak = A(2) * a[k - m];
        for (std::size_t j = 0; j < n; ++j) mac(dr[j], dam[j], ak);
      }
      break;
    case Op::div: {
      // b_0 c_k = a_k − Σ_{m<k} c_m b_{k−m}
      for (std::size_t j = 0; j < n; ++j) dr[j] = da(k)[j] - r[k] * db(0)[j];
      std::vector<A>& tmp = scratch(n);
      for (std::size_t j = 0; j < n; ++j) tmp[j] = A(0);
      for (std::size_t m = 0; m < k; ++m) {
        const A* dcm = dc(m);
        const A* dbm = db(k - m);
        for (std::size_t j = 0; j < n; ++j) {
          mac(tmp[j], dcm[j], b[k - m]);
          mac(tmp[j], dbm[j], r[m]);
        }
      }
      for (std::size_t j = 0; j < n; ++j) dr[j] = (dr[j] - tmp[j]) / b[0];
      break;
    }
    case Op::exp:
    case Op::expm1: {
      // e = exp(a): e_0 = exp(a_0) (aux for expm1, r[0] for exp), e_m = r[m] for m ≥ 1.
      const A& e0 = nd.op == Op::exp ? r[0] : aux_[i];
#if defined(__SSE2__) && !defined(SOFTCERT_NO_SIMD_TAPE)
      if constexpr (std::is_same_v<A, FastIntervalD>) {
        // The vector kernels of the mul case (taylor/mac.hpp), the same products and sums in the
        // same order (interval products commute bit for bit): the pairwise softmax has T(T − 1)
        // exponentials, so on the regression instance these rows are a large part of the
        // derivative pass (docs/performance.md, "The exponentials' rows"). Any non-finite value:
        // the generic loops below, from dr = 0.
        bool ok = true;
        if (k == 0) ok = scale_rows_sse(dr, da(0), e0, n);
        for (std::size_t m = 1; m <= k && ok; ++m) {
          const A mm(static_cast<int>(m));
          const A em = (k - m == 0) ? e0 : r[k - m];
          ok = mac2_rows_sse(dr, da(m), mm * em, dc(k - m), mm * a[m], n);
        }
        if (ok && all_finite(dr, n)) {
          if (k > 0) div_rows_pos_sse(dr, dr, static_cast<double>(k), n);  // finite / k ≥ 1 stays finite
          break;
        }
        for (std::size_t j = 0; j < n; ++j) dr[j] = A(0);
      }
#endif
      if (k == 0) {
        for (std::size_t j = 0; j < n; ++j) dr[j] = e0 * da(0)[j];
        break;
      }
      // k e_k = Σ_{m=1}^{k} m a_m e_{k−m}
      for (std::size_t m = 1; m <= k; ++m) {
        const A mm(static_cast<int>(m));
        const A em = (k - m == 0) ? e0 : r[k - m];
        const A ma = mm * a[m];
        const A me = mm * em;
        const A* dam = da(m);
        const A* dem = dc(k - m);
        for (std::size_t j = 0; j < n; ++j) {
          mac(dr[j], dam[j], me);
          mac(dr[j], ma, dem[j]);
        }
      }
      for (std::size_t j = 0; j < n; ++j) dr[j] /= kk;
      break;
    }
    case Op::log:
    case Op::log1p: {
      const A& b0 = aux_[i];  // a_0 or 1 + a_0
      // b_0 c_k = a_k − (1/k) Σ_{m=1}^{k−1} m c_m a_{k−m}
      for (std::size_t j = 0; j < n; ++j) dr[j] = da(k)[j] - (k == 0 ? A(0) : r[k]) * da(0)[j];
      if (k > 1) {
        std::vector<A>& tmp = scratch(n);
        for (std::size_t j = 0; j < n; ++j) tmp[j] = A(0);
        for (std::size_t m = 1; m < k; ++m) {
          const A mm(static_cast<int>(m));
          const A mc = mm * r[m];
          const A ma = mm * a[k - m];
          const A* dcm = dc(m);
          const A* dam = da(k - m);
          for (std::size_t j = 0; j < n; ++j) {
            mac(tmp[j], dcm[j], ma);
            mac(tmp[j], mc, dam[j]);
          }
        }
        for (std::size_t j = 0; j < n; ++j) dr[j] -= tmp[j] / kk;
      }
      for (std::size_t j = 0; j < n; ++j) dr[j] /= b0;
      break;
    }
    case Op::sqrt: {
      const A& two_c0 = aux_[i];
      // 2 c_0 c_k + Σ_{m=1}^{k−1} c_m c_{k−m} = a_k  (k ≥ 1);  c_0² = a_0
      if (k == 0) {
        for (std::size_t j = 0; j < n; ++j) dr[j] = da(0)[j] / two_c0;
        break;
      }
      const A two_ck = A(2) * r[k];
      for (std::size_t j = 0; j < n; ++j) dr[j] = da(k)[j] - two_ck * dc(0)[j];
      std::vector<A>& tmp = scratch(n);
      for (std::size_t j = 0; j < n; ++j) tmp[j] = A(0);
      for (std::size_t m = 1; m < k; ++m) {
        const A* dcm = dc(m);
        const A two_ckm = A(2) * r[k - m];
        for (std::size_t j = 0; j < n; ++j) mac(tmp[j], dcm[j], two_ckm);
      }
      for (std::size_t j = 0; j < n; ++j) dr[j] -= tmp[j];
      for (std::size_t j = 0; j < n; ++j) dr[j] /= two_c0;
      break;
    }
  }
}

// ----- Var implementation -----------------------------------------------------------------
template <class S>
S Var<S>::value() const {
  return Tape<S>::active()->value0(id_);
}

template <class S>
std::uint32_t Var<S>::constant_id(const S& v) {
  Tape<S>* t = Tape<S>::active();
  if (!t) throw std::logic_error("taylor::Var used outside Tape::record");
  const std::uint32_t id = t->push(typename Tape<S>::Node{Op::constant, 0, 0});
  t->set0(id, v);
  return id;
}

template <class S>
Var<S> Var<S>::unary(Op op, const Var& x) {
  Tape<S>* t = Tape<S>::active();
  const std::uint32_t id = t->push(typename Tape<S>::Node{op, x.id_, x.id_});
  const S a0 = t->value0(x.id_);
  S r0;
  switch (op) {
    case Op::neg: r0 = -a0; break;
    case Op::exp: r0 = num::exp(a0); break;
    case Op::expm1:
      r0 = num::expm1(a0);
      t->set_aux(id, num::exp(a0));
      break;
    case Op::log:
      r0 = num::log(a0);
      t->set_aux(id, a0);
      break;
    case Op::log1p:
      r0 = num::log1p(a0);
      t->set_aux(id, S(S(1) + a0));
      break;
    case Op::sqrt:
      r0 = num::sqrt(a0);
      t->set_aux(id, S(S(2) * r0));
      break;
    case Op::sqr: r0 = num::sqr(a0); break;
    default: throw std::logic_error("not a unary operation");
  }
  t->set0(id, r0);
  return from_id(id);
}

template <class S>
Var<S> Var<S>::binary(Op op, const Var& x, const Var& y) {
  Tape<S>* t = Tape<S>::active();
  const bool xc = t->nodes_[x.id_].op == Op::constant, yc = t->nodes_[y.id_].op == Op::constant;
  std::uint32_t a = x.id_, b = y.id_;
  if (op == Op::mul && (xc || yc)) {
    op = Op::scale;  // series × constant: O(1) per order instead of O(k)
    if (xc) std::swap(a, b);
  } else if (op == Op::div && yc) {
    op = Op::div_const;
  }
  const std::uint32_t id = t->push(typename Tape<S>::Node{op, a, b});
  const S a0 = t->value0(a), b0 = t->value0(b);
  S r0;
  switch (op) {
    case Op::add: r0 = a0 + b0; break;
    case Op::sub: r0 = a0 - b0; break;
    case Op::mul:
    case Op::scale: r0 = a0 * b0; break;
    case Op::div:
    case Op::div_const: r0 = a0 / b0; break;
    default: throw std::logic_error("not a binary operation");
  }
  t->set0(id, r0);
  if (xc && yc) t->nodes_[id].op = Op::constant;  // constant folding: higher coefficients stay 0
  return from_id(id);
}

}  // namespace softcert::taylor

namespace softcert::num {

template <class S>
struct ElementaryOps<taylor::Var<S>> {
  using X = taylor::Var<S>;
  using Op = typename X::Op;
  static X exp(const X& a) { return X::unary_public(Op::exp, a); }
  static X log(const X& a) { return X::unary_public(Op::log, a); }
  static X log1p(const X& a) { return X::unary_public(Op::log1p, a); }
  static X expm1(const X& a) { return X::unary_public(Op::expm1, a); }
  static X sqrt(const X& a) { return X::unary_public(Op::sqrt, a); }
  static X sqr(const X& a) { return X::unary_public(Op::sqr, a); }
};

// Bounds of a recorded value are those of its coefficient 0 (its value at the recorded box);
// is_interval = false for the reason given in taylor/series.hpp.
template <class S>
struct ScalarTraits<taylor::Var<S>> {
  using X = taylor::Var<S>;
  using Bound = BoundOf<S>;
  static constexpr bool is_interval = false, is_exact = false, is_rigorous = is_rigorous_v<S>;
  static const char* name() { return "taylor-var"; }
  static Bound lower(const X& x) { return num::lower(x.value()); }
  static Bound upper(const X& x) { return num::upper(x.value()); }
  static Bound mid(const X& x) { return num::mid(x.value()); }
  static Bound width(const X& x) { return num::width(x.value()); }
  static bool contains(const X& x, const Bound& v) { return num::contains(x.value(), v); }
  static X hull(const Bound& lo, const Bound& hi) { return X(num::hull_of_bounds<S>(lo, hi)); }
  static double to_double(const X& x) { return num::to_double(x.value()); }
};

}  // namespace softcert::num

namespace softcert::taylor {

// The tapes of the four scalar kinds are compiled once, in taylor/tape.cpp; every other
// translation unit links those (their coefficient passes are most of the code a tape makes).
extern template class Tape<Real>;
extern template class Tape<MpReal>;
extern template class Tape<IntervalD>;
extern template class Tape<IntervalMp>;

}  // namespace softcert::taylor
