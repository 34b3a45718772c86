// The one compilation of enclose_full_state for each interval kind (see integrate/rigorous_full.hpp).
#include "integrate/rigorous_full.hpp"

namespace softcert::integrate {

template FullStateEnclosure<IntervalD> enclose_full_state<IntervalD>(const instances::Instance&, const IntervalD&,
                                                                    ValidatedOptions);
template FullStateEnclosure<IntervalMp> enclose_full_state<IntervalMp>(const instances::Instance&, const IntervalMp&,
                                                                      ValidatedOptions);

}  // namespace softcert::integrate
