#pragma once
// What the extension's parts share (python/softcert_module.cpp and the python/*.hpp it includes):
// the includes, the namespace aliases and the ValueError helper. The parts are headers of one
// translation unit — the module compiles as one TU at -O1 — so their helpers stay in an anonymous
// namespace.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gmp.h>
#include <mpfr.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <limits>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/registry.hpp"
#include "engine/run_identity.hpp"
#include "engine/runner.hpp"
#include "engine/suite.hpp"
#include "instances/instance.hpp"
#include "integrate/fast_integrate.hpp"
#include "integrate/rigorous_integrate.hpp"
#include "integrate/rigorous_model.hpp"
#include "integrate/run_knobs.hpp"
#include "integrate/run_plan.hpp"
#include "numerics/decimal.hpp"
#include "numerics/strict_json.hpp"
#include "integrate/derived_enclosures.hpp"
#include "softcert_build_config.hpp"
#include "instance_equality.hpp"

namespace py = pybind11;
using nlohmann::json;
using softcert::instances::Instance;

namespace {

namespace integ = softcert::integrate;
namespace inst_ns = softcert::instances;
namespace engine = softcert::engine;

[[noreturn]] void value_error(const std::string& message) { throw py::value_error(message); }
}  // namespace
