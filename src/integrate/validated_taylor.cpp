// The one compilation of the validated integrator's step for each interval kind (see the end of
// integrate/validated_taylor.hpp).
#include "integrate/validated_taylor.hpp"
#include "integrate/ball_step.hpp"
#include "integrate/lohner_step.hpp"

namespace softcert::integrate {

template class ValidatedStepper<IntervalD>;
template class ValidatedStepper<IntervalMp>;

}  // namespace softcert::integrate
