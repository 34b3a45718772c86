// The one compilation of the fast tier's steppers for each kind (see the end of
// integrate/fast_stepper.hpp).
#include "integrate/fast_stepper.hpp"

namespace softcert::integrate {

template class TaylorStepper<double>;
template class TaylorStepper<MpReal>;
template class ControlledStepper<double>;
template class ControlledStepper<MpReal>;
template void accepted_step<double>(ControlledStepper<double>&, const FastField<double>&, std::vector<double>&, double&,
                                    double&, StepCount&);
template void accepted_step<MpReal>(ControlledStepper<MpReal>&, const FastField<MpReal>&, std::vector<MpReal>&, MpReal&,
                                    MpReal&, StepCount&);

}  // namespace softcert::integrate
