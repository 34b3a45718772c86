// The one compilation of enclose_full_state for each interval kind, and of its certificate-writing
// run (see integrate/rigorous_full.hpp).
#include "integrate/rigorous_full.hpp"

#include "integrate/step_certificate.hpp"

namespace softcert::integrate {

template FullStateEnclosure<IntervalD> enclose_full_state<IntervalD>(const instances::Instance&, const IntervalD&,
                                                                    ValidatedOptions);
template FullStateEnclosure<IntervalMp> enclose_full_state<IntervalMp>(const instances::Instance&, const IntervalMp&,
                                                                      ValidatedOptions);

FullStateEnclosure<IntervalD> enclose_tau_full_state_writing(const instances::Instance& inst, const IntervalD& t_end,
                                                            ValidatedOptions options, StepCertificateWriter& writer) {
  return enclose_model_state<IntervalD>(models::ValueSoftmax<IntervalD>(inst, true), t_end, std::move(options),
                                        [&writer](const TubeStep<IntervalD>& st) { writer.visit(st); });
}

}  // namespace softcert::integrate
