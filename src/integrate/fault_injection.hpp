#pragma once
// Deliberate unsoundness for one test: the certificate verifier must reject what a broken
// integrator writes (tests/verify/broken_remainder_certificate.cpp, run by
// tests/verify/certificate_test.py). With drop_taylor_remainder set, the Lohner step's centre
// enclosure y_c omits the Taylor remainder x_{p+1}(E)·h^{p+1} (integrate/lohner_step.hpp), so the
// moved sets are too small: the bug a remainder-free build would have. No run of softcert sets it:
// nothing in src/, python/ or proofs_checks/ writes it (tests/architecture/layers_test.py checks).
#include <atomic>

namespace softcert::integrate::fault_injection {

inline std::atomic<bool> drop_taylor_remainder{false};

}  // namespace softcert::integrate::fault_injection
