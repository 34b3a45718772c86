// The one compilation of taylor::Tape for each scalar kind (see the end of taylor/tape.hpp).
#include "taylor/tape.hpp"

namespace softcert::taylor {

template class Tape<Real>;
template class Tape<MpReal>;
template class Tape<IntervalD>;
template class Tape<IntervalMp>;

}  // namespace softcert::taylor
