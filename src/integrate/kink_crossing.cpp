// The one compilation of enclose_kinked_states_at for each interval kind (integrate/kink_crossing.hpp).
#include "integrate/kink_crossing.hpp"

namespace softcert::integrate {

template std::vector<FullStateEnclosure<IntervalD>> enclose_kinked_states_at<IntervalD>(const models::ValueSoftmax<IntervalD>&,
                                                                                      const std::vector<IntervalD>&,
                                                                                      ValidatedOptions);
template std::vector<FullStateEnclosure<IntervalMp>> enclose_kinked_states_at<IntervalMp>(const models::ValueSoftmax<IntervalMp>&,
                                                                                        const std::vector<IntervalMp>&,
                                                                                        ValidatedOptions);

}  // namespace softcert::integrate
