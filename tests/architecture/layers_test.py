#!/usr/bin/env python3
"""The layers of src/ include only downward, and the theorem checks see the flows through the
executor alone (docs/architecture.md, "Layers").

Each folder of src/ is one CMake library linked to the layers below it (CMakeLists.txt), so a
wrong include in a .cpp fails to link; this test also catches one in a header, which links fine
until someone calls it. BELOW names, for each layer, the layers its files may include (the
transitive closure is taken here). proofs_checks/ may include the layers in CHECKS and, of
integrate/, only the executor's header; python/ and src/cli/ are front ends and may include
everything. plan_run is called only where a run is planned (PLAN_CALLERS). The test first plants a wrong include in a copy of the tree and fails unless it is
caught, so a pattern that stops matching cannot pass silently.
Usage: layers_test.py SOURCE_DIR
"""
import os
import re
import shutil
import sys
import tempfile

BELOW = {
    "numerics": [],
    "support": ["numerics"],
    "taylor": ["support"],
    "certify": ["support"],
    "instances": ["support"],
    "models": ["instances", "taylor"],
    "integrate": ["models"],
    "statistics": ["support"],
    "engine": ["statistics"],
    "report": ["engine"],
    "search": ["engine", "instances"],
    "reproduce": ["report", "integrate", "certify"],
}
FRONT_ENDS = ["cli"]
CHECKS = ["numerics", "support", "instances", "certify", "models", "statistics", "engine", "search"]
EXECUTOR = "integrate/flow.hpp"
# Checks that still drive integrate/ themselves, with the headers they include (none: every check
# asks the executor). The list may only shrink: an entry whose include is gone fails, so that it is
# removed with it.
NOT_YET_THROUGH_EXECUTOR = {}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/([^"]+)"', re.M)
# The deliberate-unsoundness switch (integrate/fault_injection.hpp) is read by the Lohner step
# alone; outside tests/ nothing else may mention it, so no run can turn it on.
FAULT_SWITCH = "fault_injection"
FAULT_READERS = {"src/integrate/fault_injection.hpp", "src/integrate/lohner_step.hpp"}
# A run is planned in one place (integrate/run_plan.hpp): plan_run is called by run_plan.cpp's
# plan_entry (the rigorous tier's entry points and the executor) and by the fast tier's one
# function that plans; any other caller plans beside them.
PLAN_CALL = re.compile(r"\bplan_run\(")
PLAN_CALLERS = {"src/integrate/run_plan.hpp", "src/integrate/run_plan.cpp", "src/integrate/fast_integrate.cpp"}


def closure(layer):
    seen, todo = set(), list(BELOW[layer])
    while todo:
        below = todo.pop()
        if below not in seen:
            seen.add(below)
            todo.extend(BELOW[below])
    return seen


def sources(folder):
    for root, _, files in os.walk(folder):
        for name in sorted(files):
            if name.endswith((".hpp", ".cpp", ".hpp.in")):
                yield os.path.join(root, name)


def violations(src_dir):
    found = []
    src = os.path.join(src_dir, "src")
    layers = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
    for layer in layers:
        if layer in FRONT_ENDS:
            continue
        if layer not in BELOW:
            found.append(f"src/{layer}: a folder that is no layer (add it to BELOW and CMakeLists.txt)")
            continue
        allowed = closure(layer) | {layer}
        for path in sources(os.path.join(src, layer)):
            with open(path, encoding="utf-8") as f:
                for m in INCLUDE.finditer(f.read()):
                    if m.group(1) in BELOW and m.group(1) not in allowed:
                        found.append(f"{os.path.relpath(path, src_dir)}: includes {m.group(1)}/{m.group(2)} "
                                     f"(layer {layer} sees only {', '.join(sorted(allowed))})")
    seen_not_yet = set()
    for path in sources(os.path.join(src_dir, "proofs_checks")):
        with open(path, encoding="utf-8") as f:
            for m in INCLUDE.finditer(f.read()):
                header = f"{m.group(1)}/{m.group(2)}"
                name = os.path.relpath(path, os.path.join(src_dir, "proofs_checks"))
                if header in NOT_YET_THROUGH_EXECUTOR.get(name, []):
                    seen_not_yet.add((name, header))
                    continue
                if m.group(1) in BELOW and m.group(1) not in CHECKS and header != EXECUTOR:
                    found.append(f"{os.path.relpath(path, src_dir)}: includes {header} "
                                 f"(a check sees {', '.join(CHECKS)} and {EXECUTOR})")
    for part in ("src", "proofs_checks", "python"):
        for path in sources(os.path.join(src_dir, part)):
            rel = os.path.relpath(path, src_dir)
            with open(path, encoding="utf-8") as f:
                text = f.read()
                if FAULT_SWITCH in text and rel not in FAULT_READERS:
                    found.append(f"{rel}: mentions integrate/{FAULT_SWITCH}.hpp (only the Lohner step reads it, only tests set it)")
                calls = len(PLAN_CALL.findall(re.sub(r"//[^\n]*", "", text)))
                if calls and (rel not in PLAN_CALLERS or (rel == "src/integrate/fast_integrate.cpp" and calls > 1)):
                    found.append(f"{rel}: calls plan_run {calls} time(s) (plan through integrate::plan_entry; "
                                 f"plan_run is called by run_plan.cpp and once by the fast tier)")
    for name, headers in NOT_YET_THROUGH_EXECUTOR.items():
        for header in headers:
            if (name, header) not in seen_not_yet:
                found.append(f"proofs_checks/{name}: no longer includes {header}: remove it from NOT_YET_THROUGH_EXECUTOR")
    return found


def main():
    src_dir = sys.argv[1]
    # The planted wrong include must be caught, or the test proves nothing.
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "tree")
        for part in ("src", "proofs_checks", "python"):
            shutil.copytree(os.path.join(src_dir, part), os.path.join(copy, part))
        with open(os.path.join(copy, "src", "engine", "planted.hpp"), "w", encoding="utf-8") as f:
            f.write('#pragma once\n#include "integrate/rigorous_full.hpp"\n')
        with open(os.path.join(copy, "proofs_checks", "planted.cpp"), "w", encoding="utf-8") as f:
            f.write('#include "integrate/validated_taylor.hpp"\n')
        with open(os.path.join(copy, "src", "integrate", "planted_switch.hpp"), "w", encoding="utf-8") as f:
            f.write('#pragma once\n#include "integrate/fault_injection.hpp"\n')
        with open(os.path.join(copy, "src", "integrate", "planted_plan.cpp"), "w", encoding="utf-8") as f:
            f.write('int f() { return plan_run(inst, q).order; }\n')
        planted = violations(copy)
        if not any("src/engine/planted.hpp" in v for v in planted) or \
           not any("proofs_checks/planted.cpp" in v for v in planted) or \
           not any("src/integrate/planted_switch.hpp" in v for v in planted) or \
           not any("src/integrate/planted_plan.cpp" in v for v in planted):
            print("FAIL: a planted wrong include was not caught:", planted)
            return 1
    found = violations(src_dir)
    for v in found:
        print("FAIL:", v)
    if found:
        return 1
    left = sum(len(h) for h in NOT_YET_THROUGH_EXECUTOR.values())
    print(f"layers: {len(BELOW)} layers include only downward; the checks include {', '.join(CHECKS)}, "
          f"{EXECUTOR} and {left} other integrate/ includes in {len(NOT_YET_THROUGH_EXECUTOR)} files not yet through it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
