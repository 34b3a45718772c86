// The one compilation of enclose_kinked_full_state for each interval kind (integrate/kink_crossing.hpp).
#include "integrate/kink_crossing.hpp"

namespace softcert::integrate {

template FullStateEnclosure<IntervalD> enclose_kinked_full_state<IntervalD>(const instances::Instance&, const IntervalD&,
                                                                           ValidatedOptions);
template FullStateEnclosure<IntervalMp> enclose_kinked_full_state<IntervalMp>(const instances::Instance&, const IntervalMp&,
                                                                             ValidatedOptions);

}  // namespace softcert::integrate
