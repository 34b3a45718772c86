// Formula: the recursive-descent reader of the grammar in formula.hpp, the symbolic derivative
// and the text form.
#include "instances/formula.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "numerics/nearest_word.hpp"
#include "numerics/quote.hpp"

namespace softcert::instances {

namespace {

struct Function {
  const char* name;
  Formula::Op op;
};
constexpr Function kFunctions[] = {{"exp", Formula::Op::exp},     {"log", Formula::Op::log},   {"log1p", Formula::Op::log1p},
                                   {"expm1", Formula::Op::expm1}, {"sqrt", Formula::Op::sqrt}, {"sqr", Formula::Op::sqr}};
constexpr std::uint32_t kMaxPower = 64;

bool is_constant(const Formula::Node& n, const char* decimal) { return n.op == Formula::Op::constant && n.decimal == decimal; }

}  // namespace

// Builds a formula node by node; the reader below and the derivative use it.
class FormulaBuilder {
 public:
  explicit FormulaBuilder(Formula& f) : f_(f) {}
  std::int32_t constant(const std::string& decimal) {
    Formula::Node n;
    n.decimal = decimal;
    return f_.add_node(n);
  }
  std::int32_t variable(std::uint32_t index) {
    Formula::Node n;
    n.op = Formula::Op::variable;
    n.index = index;
    return f_.add_node(n);
  }
  std::int32_t unary(Formula::Op op, std::int32_t a, std::uint32_t index = 0) {
    Formula::Node n;
    n.op = op;
    n.a = a;
    n.index = index;
    return f_.add_node(n);
  }
  std::int32_t binary(Formula::Op op, std::int32_t a, std::int32_t b) {
    Formula::Node n;
    n.op = op;
    n.a = a;
    n.b = b;
    return f_.add_node(n);
  }
  // With the exact simplifications of formula.hpp (none changes a value).
  bool zero(std::int32_t i) const { return is_constant(f_.nodes_[static_cast<std::size_t>(i)], "0"); }
  bool one(std::int32_t i) const { return is_constant(f_.nodes_[static_cast<std::size_t>(i)], "1"); }
  std::int32_t add(std::int32_t a, std::int32_t b) {
    if (zero(a)) return b;
    if (zero(b)) return a;
    return binary(Formula::Op::add, a, b);
  }
  std::int32_t sub(std::int32_t a, std::int32_t b) {
    if (zero(b)) return a;
    if (zero(a)) return neg(b);
    return binary(Formula::Op::sub, a, b);
  }
  std::int32_t neg(std::int32_t a) {
    if (zero(a)) return a;
    const Formula::Node& n = f_.nodes_[static_cast<std::size_t>(a)];
    if (n.op == Formula::Op::neg) return n.a;
    return unary(Formula::Op::neg, a);
  }
  std::int32_t mul(std::int32_t a, std::int32_t b) {
    if (zero(a) || zero(b)) return constant("0");
    if (one(a)) return b;
    if (one(b)) return a;
    const Formula::Node& na = f_.nodes_[static_cast<std::size_t>(a)];
    const Formula::Node& nb = f_.nodes_[static_cast<std::size_t>(b)];
    if (na.op == Formula::Op::neg && one(na.a)) return neg(b);
    if (nb.op == Formula::Op::neg && one(nb.a)) return neg(a);
    return binary(Formula::Op::mul, a, b);
  }
  std::int32_t div(std::int32_t a, std::int32_t b) {
    if (zero(a)) return a;
    if (one(b)) return a;
    const Formula::Node& na = f_.nodes_[static_cast<std::size_t>(a)];
    if (na.op == Formula::Op::neg) return neg(binary(Formula::Op::div, na.a, b));  // (−u)/v = −(u/v)
    return binary(Formula::Op::div, a, b);
  }

 private:
  Formula& f_;
};

namespace {

class Reader {
 public:
  Reader(const std::string& text, const std::vector<std::string>& variables, const std::string& field, Formula& out)
      : s_(text), vars_(variables), field_(field), b_(out) {}

  void read() {
    skip();
    if (pos_ == s_.size()) fail("is empty");
    expr(0);
    skip();
    if (pos_ != s_.size()) fail("unexpected " + num::quoted(std::string(1, s_[pos_])) + " after a complete formula");
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument(field_ + ": " + what + " at column " + std::to_string(pos_ + 1) + " of " + num::quoted(s_));
  }
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void deeper(std::size_t depth) const {
    if (depth > Formula::kMaxDepth) fail("nested deeper than " + std::to_string(Formula::kMaxDepth) + " levels");
  }

  // `depth` counts the parentheses, function calls and unary minus signs around the text read.
  std::int32_t expr(std::size_t depth) {
    std::int32_t left = term(depth);
    for (;;) {
      if (eat('+')) left = b_.binary(Formula::Op::add, left, term(depth));
      else if (eat('-')) left = b_.binary(Formula::Op::sub, left, term(depth));
      else return left;
    }
  }
  std::int32_t term(std::size_t depth) {
    std::int32_t left = unary(depth);
    for (;;) {
      if (eat('*')) left = b_.binary(Formula::Op::mul, left, unary(depth));
      else if (eat('/')) left = b_.binary(Formula::Op::div, left, unary(depth));
      else return left;
    }
  }
  std::int32_t unary(std::size_t depth) {
    if (eat('-')) {
      deeper(depth + 1);
      return b_.unary(Formula::Op::neg, unary(depth + 1));
    }
    return power(depth);
  }
  std::int32_t power(std::size_t depth) {
    const std::int32_t base = primary(depth);
    if (!eat('^')) return base;
    skip();
    const std::size_t start = pos_;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    if (start == pos_ || pos_ - start > 2 || std::stoul(s_.substr(start, pos_ - start)) > kMaxPower) {
      pos_ = start;
      fail("the exponent after '^' must be an integer from 0 to " + std::to_string(kMaxPower) +
           " (write exp(y * log(x)) for other powers)");
    }
    const auto n = static_cast<std::uint32_t>(std::stoul(s_.substr(start, pos_ - start)));
    return n == 2 ? b_.unary(Formula::Op::sqr, base) : b_.unary(Formula::Op::pow, base, n);
  }
  std::int32_t primary(std::size_t depth) {
    skip();
    if (pos_ == s_.size()) fail("unexpected end: expected a number, a variable, a function or '('");
    const char c = s_[pos_];
    if (c == '(') {
      deeper(depth + 1);
      ++pos_;
      const std::int32_t inner = expr(depth + 1);
      if (!eat(')')) fail("expected ')'");
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return name(depth);
    fail("unexpected " + num::quoted(std::string(1, c)) + ": expected a number, a variable, a function or '('");
  }
  std::int32_t number() {
    const std::size_t start = pos_;
    while (pos_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '.')) ++pos_;
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      std::size_t q = pos_ + 1;
      if (q < s_.size() && (s_[q] == '+' || s_[q] == '-')) ++q;
      if (q < s_.size() && std::isdigit(static_cast<unsigned char>(s_[q]))) {
        pos_ = q;
        while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      }
    }
    const std::string text = s_.substr(start, pos_ - start);
    if (!num::is_decimal_syntax(text)) {
      pos_ = start;
      fail("malformed number " + num::quoted(text));
    }
    return b_.constant(text);
  }
  std::int32_t name(std::size_t depth) {
    const std::size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
    const std::string word = s_.substr(start, pos_ - start);
    for (const Function& f : kFunctions)
      if (word == f.name) {
        if (!eat('(')) fail("expected '(' after the function " + num::quoted(word));
        deeper(depth + 1);
        const std::int32_t arg = expr(depth + 1);
        if (!eat(')')) fail("expected ')' closing " + num::quoted(word + "("));
        return b_.unary(f.op, arg);
      }
    const auto it = std::find(vars_.begin(), vars_.end(), word);
    if (it != vars_.end()) return b_.variable(static_cast<std::uint32_t>(it - vars_.begin()));
    std::vector<std::string> known(vars_);
    for (const Function& f : kFunctions) known.emplace_back(f.name);
    std::string list;
    for (const auto& v : vars_) list += (list.empty() ? "" : ", ") + v;
    pos_ = start;
    fail("unknown name " + num::quoted(word) + num::did_you_mean(word, known) + " (variables: " + list +
         "; functions: exp, log, log1p, expm1, sqrt, sqr)");
  }

  const std::string& s_;
  const std::vector<std::string>& vars_;
  const std::string& field_;
  FormulaBuilder b_;
  std::size_t pos_ = 0;
};

}  // namespace

std::int32_t Formula::add_node(Node n) {
  nodes_.push_back(std::move(n));
  return static_cast<std::int32_t>(nodes_.size() - 1);
}

Formula Formula::parse(const std::string& text, const std::vector<std::string>& variables, const std::string& field) {
  if (text.size() > kMaxLength)
    throw std::invalid_argument(field + ": longer than " + std::to_string(kMaxLength) + " characters");
  Formula f;
  f.variables_ = variables;
  Reader(text, variables, field, f).read();
  return f;
}

bool Formula::uses(std::size_t variable) const {
  return std::any_of(nodes_.begin(), nodes_.end(),
                     [&](const Node& n) { return n.op == Op::variable && n.index == variable; });
}

std::int32_t Formula::copy_into(std::int32_t node, Formula& out, std::vector<std::int32_t>& copy) const {
  const auto i = static_cast<std::size_t>(node);
  if (copy[i] >= 0) return copy[i];
  Node n = nodes_[i];
  if (n.a >= 0) n.a = copy_into(n.a, out, copy);
  if (n.b >= 0) n.b = copy_into(n.b, out, copy);
  return copy[i] = out.add_node(n);
}

// d(node)/d(variable) as nodes of `out` (`copy` maps this formula's nodes to theirs in out).
std::int32_t Formula::derive(std::int32_t node, std::size_t variable, Formula& out, std::vector<std::int32_t>& copy) const {
  FormulaBuilder b(out);
  const Node& n = nodes_[static_cast<std::size_t>(node)];
  const auto u = [&] { return copy_into(n.a, out, copy); };
  const auto v = [&] { return copy_into(n.b, out, copy); };
  const auto du = [&] { return derive(n.a, variable, out, copy); };
  const auto dv = [&] { return derive(n.b, variable, out, copy); };
  switch (n.op) {
    case Op::constant: return b.constant("0");
    case Op::variable: return b.constant(n.index == variable ? "1" : "0");
    case Op::add: return b.add(du(), dv());
    case Op::sub: return b.sub(du(), dv());
    case Op::neg: return b.neg(du());
    case Op::mul: return b.add(b.mul(du(), v()), b.mul(u(), dv()));  // (uv)' = u'v + uv'
    case Op::div: {                                                  // (u/v)' = u'/v − u v'/v²
      const std::int32_t d_v = dv();
      if (b.zero(d_v)) return b.div(du(), v());
      return b.sub(b.div(du(), v()), b.div(b.mul(u(), d_v), b.unary(Op::sqr, v())));
    }
    case Op::pow: {  // (u^k)' = k u^{k−1} u'
      if (n.index == 0) return b.constant("0");
      const std::int32_t k = b.constant(std::to_string(n.index));
      const std::int32_t lower = n.index == 1   ? b.constant("1")
                                 : n.index == 2 ? u()
                                 : n.index == 3 ? b.unary(Op::sqr, u())
                                                : b.unary(Op::pow, u(), n.index - 1);
      return b.mul(b.mul(k, lower), du());
    }
    case Op::sqr: return b.mul(b.mul(b.constant("2"), u()), du());              // (u²)' = 2u u'
    case Op::exp: return b.mul(copy_into(node, out, copy), du());               // (eᵘ)' = eᵘ u'
    case Op::expm1: return b.mul(b.unary(Op::exp, u()), du());                  // (eᵘ − 1)' = eᵘ u'
    case Op::log:
    case Op::log1p: {
      // (log(c + e^w))' = w'/(1 + c e^{−w}) (log1p: c = 1): w occurs once, where u'/u would hold
      // e^w in both numerator and denominator and widen an interval enclosure by their dependency.
      const Node& arg = nodes_[static_cast<std::size_t>(n.a)];
      std::int32_t c = -1, w = -1;
      if (n.op == Op::log1p && arg.op == Op::exp) {
        w = arg.a;
      } else if (n.op == Op::log && arg.op == Op::add) {
        const Node& l = nodes_[static_cast<std::size_t>(arg.a)];
        const Node& r = nodes_[static_cast<std::size_t>(arg.b)];
        if (l.op == Op::constant && r.op == Op::exp) c = arg.a, w = r.a;
        else if (r.op == Op::constant && l.op == Op::exp) c = arg.b, w = l.a;
      }
      if (w >= 0) {
        const std::int32_t e = b.unary(Op::exp, b.neg(copy_into(w, out, copy)));
        const std::int32_t ce = c >= 0 ? b.mul(copy_into(c, out, copy), e) : e;
        return b.div(derive(w, variable, out, copy), b.add(b.constant("1"), ce));
      }
      if (n.op == Op::log) return b.div(du(), u());                            // (log u)' = u'/u
      return b.div(du(), b.add(b.constant("1"), u()));                         // (log(1 + u))' = u'/(1 + u)
    }
    case Op::sqrt: return b.div(du(), b.mul(b.constant("2"), copy_into(node, out, copy)));  // u'/(2√u)
  }
  throw std::logic_error("Formula::derive: unknown operation");
}

Formula Formula::derivative(std::size_t variable) const {
  Formula out;
  out.variables_ = variables_;
  if (nodes_.empty()) return out;
  std::vector<std::int32_t> copy(nodes_.size(), -1);
  const std::int32_t root = derive(static_cast<std::int32_t>(nodes_.size() - 1), variable, out, copy);
  // Re-emit from the root: the root becomes the last node and nodes the simplifications left
  // unreachable are dropped.
  Formula tidy;
  tidy.variables_ = variables_;
  std::vector<std::int32_t> again(out.nodes_.size(), -1);
  out.copy_into(root, tidy, again);
  return tidy;
}

std::string Formula::text_of(std::int32_t node) const {
  const Node& n = nodes_[static_cast<std::size_t>(node)];
  const auto A = [&] { return text_of(n.a); };
  const auto B = [&] { return text_of(n.b); };
  switch (n.op) {
    case Op::constant: return n.decimal;
    case Op::variable: return variables_.at(n.index);
    case Op::add: return "(" + A() + " + " + B() + ")";
    case Op::sub: return "(" + A() + " - " + B() + ")";
    case Op::mul: return "(" + A() + " * " + B() + ")";
    case Op::div: return "(" + A() + " / " + B() + ")";
    case Op::neg: return "(-" + A() + ")";
    case Op::pow: return "(" + A() + "^" + std::to_string(n.index) + ")";
    case Op::sqr: return "sqr(" + A() + ")";
    default: break;
  }
  for (const Function& f : kFunctions)
    if (f.op == n.op) return std::string(f.name) + "(" + A() + ")";
  throw std::logic_error("Formula::text: unknown operation");
}

std::string Formula::text() const { return nodes_.empty() ? "" : text_of(static_cast<std::int32_t>(nodes_.size() - 1)); }

}  // namespace softcert::instances
