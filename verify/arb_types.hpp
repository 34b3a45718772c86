#pragma once
// Owning C++ handles for Arb balls and ball polynomials (truncated power series), so the checks
// read as arithmetic. Every operation keeps Arb's guarantee: the result ball contains the exact
// result for every choice of points in the operand balls.
#include <arb.h>
#include <arb_mat.h>
#include <arb_poly.h>

#include <string>
#include <vector>

namespace verify {

inline constexpr slong kPrec = 128;  // working precision (bits) of every ball operation

class Ball {
 public:
  Ball() { arb_init(x_); }
  explicit Ball(slong v) { arb_init(x_); arb_set_si(x_, v); }
  Ball(const Ball& o) { arb_init(x_); arb_set(x_, o.x_); }
  Ball& operator=(const Ball& o) { arb_set(x_, o.x_); return *this; }
  ~Ball() { arb_clear(x_); }
  arb_ptr get() { return x_; }
  arb_srcptr get() const { return x_; }

  friend Ball operator+(const Ball& a, const Ball& b) { Ball r; arb_add(r.x_, a.x_, b.x_, kPrec); return r; }
  friend Ball operator-(const Ball& a, const Ball& b) { Ball r; arb_sub(r.x_, a.x_, b.x_, kPrec); return r; }
  friend Ball operator*(const Ball& a, const Ball& b) { Ball r; arb_mul(r.x_, a.x_, b.x_, kPrec); return r; }
  Ball& operator+=(const Ball& b) { arb_add(x_, x_, b.x_, kPrec); return *this; }
  // [0, this] for a nonnegative ball: the range of s^k·… over s ∈ [0, h] is taken as c·[0, h^k].
  Ball from_zero() const { Ball r, z; arb_union(r.x_, z.x_, x_, kPrec); return r; }
  bool positive() const { return arb_is_positive(x_); }
  bool nonnegative() const { return arb_is_nonnegative(x_); }
  bool finite() const { return arb_is_finite(x_); }
  // The ball's lower end, rounded down, as an exact ball: a lower bound of every point of it.
  Ball lower_end() const {
    Ball r;
    arf_t l;
    arf_init(l);
    arb_get_lbound_arf(l, x_, kPrec);
    arb_set_arf(r.x_, l);
    arf_clear(l);
    return r;
  }
  std::string text(slong digits = 10) const {
    char* s = arb_get_str(x_, digits, 0);
    std::string out(s);
    flint_free(s);
    return out;
  }

 private:
  arb_t x_;
};

// A truncated power series with ball coefficients.
class Poly {
 public:
  Poly() { arb_poly_init(p_); }
  explicit Poly(const Ball& c) { arb_poly_init(p_); arb_poly_set_coeff_arb(p_, 0, c.get()); }
  Poly(const Poly& o) { arb_poly_init(p_); arb_poly_set(p_, o.p_); }
  Poly& operator=(const Poly& o) { arb_poly_set(p_, o.p_); return *this; }
  ~Poly() { arb_poly_clear(p_); }
  arb_poly_struct* get() { return p_; }
  const arb_poly_struct* get() const { return p_; }
  Ball coeff(slong k) const { Ball b; arb_poly_get_coeff_arb(b.get(), p_, k); return b; }

 private:
  arb_poly_t p_;
};

inline Poly add(const Poly& a, const Poly& b) { Poly r; arb_poly_add(r.get(), a.get(), b.get(), kPrec); return r; }
inline Poly sub(const Poly& a, const Poly& b) { Poly r; arb_poly_sub(r.get(), a.get(), b.get(), kPrec); return r; }
inline Poly mul(const Poly& a, const Poly& b, slong len) { Poly r; arb_poly_mullow(r.get(), a.get(), b.get(), len, kPrec); return r; }
inline Poly scale(const Poly& a, const Ball& c) { Poly r; arb_poly_scalar_mul(r.get(), a.get(), c.get(), kPrec); return r; }
inline Poly exp_series(const Poly& a, slong len) { Poly r; arb_poly_exp_series(r.get(), a.get(), len, kPrec); return r; }
inline Poly inv_series(const Poly& a, slong len) { Poly r; arb_poly_inv_series(r.get(), a.get(), len, kPrec); return r; }
// c + ∫₀ a: the Picard map of one component.
inline Poly integral_from(const Ball& c, const Poly& a) {
  Poly r;
  arb_poly_integral(r.get(), a.get(), kPrec);
  arb_poly_set_coeff_arb(r.get(), 0, c.get());
  return r;
}

// A ball matrix, row-major n×n, with the products and the inverse the Lohner check needs.
class Matrix {
 public:
  explicit Matrix(slong n) : n_(n) { arb_mat_init(m_, n, n); }
  Matrix(const Matrix& o) : n_(o.n_) { arb_mat_init(m_, n_, n_); arb_mat_set(m_, o.m_); }
  Matrix& operator=(const Matrix& o) {
    if (this != &o) {
      arb_mat_clear(m_);
      n_ = o.n_;
      arb_mat_init(m_, n_, n_);
      arb_mat_set(m_, o.m_);
    }
    return *this;
  }
  ~Matrix() { arb_mat_clear(m_); }
  slong size() const { return n_; }
  arb_ptr at(slong i, slong j) { return arb_mat_entry(m_, i, j); }
  arb_srcptr at(slong i, slong j) const { return arb_mat_entry(m_, i, j); }
  friend Matrix operator*(const Matrix& a, const Matrix& b) { Matrix r(a.n_); arb_mat_mul(r.m_, a.m_, b.m_, kPrec); return r; }
  // An enclosure of the inverse of every point matrix in this one; false when Arb cannot show it
  // invertible.
  bool inverse(Matrix& out) const { return arb_mat_inv(out.m_, m_, kPrec) != 0; }
  // Whether every point matrix in this symmetric one is positive definite (Arb's Cholesky).
  bool positive_definite() const {
    Matrix l(n_);
    return arb_mat_cho(l.m_, m_, kPrec) != 0;
  }
  std::vector<Ball> apply(const std::vector<Ball>& v) const {
    std::vector<Ball> r(n_);
    for (slong i = 0; i < n_; ++i)
      for (slong j = 0; j < n_; ++j) { Ball t; arb_mul(t.get(), at(i, j), v[j].get(), kPrec); r[i] += t; }
    return r;
  }

 private:
  slong n_;
  arb_mat_t m_;
};

}  // namespace verify
