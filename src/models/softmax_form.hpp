#pragma once
// How a model evaluates softmax on interval kinds (point kinds always use the O(T) quotient):
// `pairwise` is num::softmax's O(T²) form, the tight one the rigorous tier's values and
// remainders need; `quotient` is num::softmax_quotient, the same function in T exponentials,
// for the derivative pass (the variational equations), where the Jacobian's width only enters
// scaled by the set's own width (docs/method.md §2, "Jacobian from another formula").
// Used by the reduced logistic form (integrate/rigorous_integrate.cpp). Not by the full and tied
// models: with many states the wider Jacobian widens their sets until the a priori enclosure
// fails (the authors' tied D = 20 run to t = 500), so they keep the pairwise form in every pass
// (docs/performance.md, "The reduced form's derivative pass").
#include <vector>

#include "numerics/stable.hpp"

namespace softcert::models {

enum class SoftmaxForm { pairwise, quotient };

template <class X>
std::vector<X> softmax_in(SoftmaxForm form, const std::vector<X>& a) {
  return form == SoftmaxForm::quotient ? num::softmax_quotient(a) : num::softmax(a);
}

}  // namespace softcert::models
