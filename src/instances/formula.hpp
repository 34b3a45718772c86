#pragma once
// A real function of a few named variables written as text (docs/formulas.md): the loss or the
// normalization of an instance given as a formula instead of one of the built-in names.
//
// Grammar (whitespace between tokens is ignored):
//     expr    := term (('+' | '-') term)*
//     term    := unary (('*' | '/') unary)*
//     unary   := '-' unary | power
//     power   := primary ('^' integer)?          integer 0 … 64: a power by repeated squaring
//     primary := number | variable | function '(' expr ')' | '(' expr ')'
//     function: exp, log, log1p, expm1, sqrt, sqr
//     number:   the instances' decimal syntax without a sign (1, 0.5, 2e-3)
// These are exactly the operations the Taylor tape records (taylor/tape.hpp), so a formula is
// evaluated on the tape like a hand-written field and every tier works on it.
//
// Formula::parse refuses, with std::invalid_argument whose message starts with the field's
// name and gives the 1-based column: an unknown function or variable (listing the known ones),
// a malformed number, an exponent that is not an integer in 0 … 64, unbalanced parentheses,
// trailing text, text longer than kMaxLength characters, or more than kMaxDepth parentheses,
// function calls and unary minus signs nested in one another.
//
// Formula::derivative(v) is the symbolic derivative with respect to variable v, with the exact
// simplifications u·1 = u, u·0 = 0, u + 0 = u, 0 − u = −u, −(−u) = u, (−u)/v = −(u/v), and one rule written for
// interval enclosures: (log(c + e^w))' = w'/(1 + c e^{−w}) for a constant c (log1p(e^w): c = 1),
// so that w occurs once (the logistic loss log(1 + exp(−z)) gets −1/(1 + e^z), the built-in
// logistic gradient's form). Every other operation of the result is one the chain rule asks for. compile<S> turns the
// nodes into a program over scalar kind S: its constants are num::parse_decimal<S> of the
// written decimals (enclosed for interval kinds), evaluated over any X that S converts to.
// Domains are strict: log and sqrt of a value not certainly > 0, log1p of one not certainly
// > −1 and a division by one not certainly nonzero throw FormulaDomainError (for interval kinds:
// over the whole box, so a field that evaluates is defined and analytic on a neighbourhood of
// it; num::log of an interval partly outside its domain would enclose only the part inside).
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "numerics/decimal.hpp"
#include "numerics/elementary.hpp"
#include "numerics/traits.hpp"

namespace softcert::instances {

class Formula {
 public:
  enum class Op : std::uint8_t { constant, variable, add, sub, mul, div, neg, pow, exp, log, log1p, expm1, sqrt, sqr };
  struct Node {
    Op op = Op::constant;
    std::int32_t a = -1, b = -1;  // operands (indices of earlier nodes)
    std::uint32_t index = 0;      // variable: its position in variables(); pow: the exponent
    std::string decimal;          // constant: its decimal text
  };
  static constexpr std::size_t kMaxLength = 4096;
  static constexpr std::size_t kMaxDepth = 64;

  Formula() = default;
  // Parses `text` over the named variables; errors start with `field` (e.g. "loss_formula").
  static Formula parse(const std::string& text, const std::vector<std::string>& variables, const std::string& field);

  Formula derivative(std::size_t variable) const;
  bool uses(std::size_t variable) const;
  // Fully parenthesised text of the formula (what a derivative is, for messages and docs).
  std::string text() const;
  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<std::string>& variables() const { return variables_; }
  bool empty() const { return nodes_.empty(); }

 private:
  friend class FormulaBuilder;
  std::int32_t add_node(Node n);
  std::int32_t derive(std::int32_t node, std::size_t variable, Formula& out, std::vector<std::int32_t>& copy) const;
  std::int32_t copy_into(std::int32_t node, Formula& out, std::vector<std::int32_t>& copy) const;
  std::string text_of(std::int32_t node) const;

  std::vector<Node> nodes_;  // operands precede their node; the last node is the root
  std::vector<std::string> variables_;
};

// A formula evaluated outside its domain (see compile<S> above): the flow left it, or an interval
// argument is not certainly inside it.
class FormulaDomainError : public std::domain_error {
 public:
  using std::domain_error::domain_error;
};

// A formula as a program over scalar kind S (constants parsed once).
template <class S>
class CompiledFormula {
 public:
  CompiledFormula() = default;
  explicit CompiledFormula(const Formula& f) : nodes_(f.nodes()) {
    constants_.resize(nodes_.size(), S(0));
    for (std::size_t i = 0; i < nodes_.size(); ++i)
      if (nodes_[i].op == Formula::Op::constant) constants_[i] = num::parse_decimal<S>(nodes_[i].decimal);
  }
  bool empty() const { return nodes_.empty(); }

  // The formula at the variables' values (in the order of Formula::variables()).
  template <class X>
  X evaluate(const X* values) const {
    using Op = Formula::Op;
    std::vector<X> v(nodes_.size(), X(0));
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      const Formula::Node& n = nodes_[i];
      const auto A = [&] { return v[static_cast<std::size_t>(n.a)]; };
      const auto B = [&] { return v[static_cast<std::size_t>(n.b)]; };
      switch (n.op) {
        case Op::constant: v[i] = X(constants_[i]); break;
        case Op::variable: v[i] = values[n.index]; break;
        case Op::add: v[i] = A() + B(); break;
        case Op::sub: v[i] = A() - B(); break;
        case Op::mul: v[i] = A() * B(); break;
        case Op::div:
          if (!num::certainly_positive(B()) && !num::certainly_negative(B())) domain("a division by a value not certainly nonzero");
          v[i] = A() / B();
          break;
        case Op::neg: v[i] = X(0) - A(); break;
        case Op::pow: v[i] = num::pow_int(A(), n.index); break;
        case Op::exp: v[i] = num::exp(A()); break;
        case Op::log:
          if (!num::certainly_positive(A())) domain("log of a value not certainly > 0");
          v[i] = num::log(A());
          break;
        case Op::log1p:
          if (!num::certainly_gt(A(), X(-1))) domain("log1p of a value not certainly > -1");
          v[i] = num::log1p(A());
          break;
        case Op::expm1: v[i] = num::expm1(A()); break;
        case Op::sqrt:
          if (!num::certainly_positive(A())) domain("sqrt of a value not certainly > 0");
          v[i] = num::sqrt(A());
          break;
        case Op::sqr: v[i] = num::sqr(A()); break;
      }
    }
    return v.back();
  }
  // A formula of one variable at x.
  template <class X>
  X operator()(const X& x) const { return evaluate(&x); }

 private:
  [[noreturn]] static void domain(const char* what) { throw FormulaDomainError(std::string("formula: ") + what); }

  std::vector<Formula::Node> nodes_;
  std::vector<S> constants_;
};

}  // namespace softcert::instances
