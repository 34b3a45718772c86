# The two set-up commands of README.md. Each installs what is missing, builds and runs.
BUILD_DIR ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
SUITE ?= proofs_checks/suites/quick.toml

.PHONY: run test deps build build-debug bench fuzz clean python prove-tied-d100

deps:
	./scripts/install-deps.sh

# Ninja for a new build directory (scripts/install-deps.sh installs ninja-build): it starts each
# target's compiles as soon as a core is free instead of after the libraries they link are
# archived, which keeps both cores busy in a fresh build (docs/performance.md, "Building from
# scratch"). A build directory configured before keeps its generator (CMake cannot switch one).
# Recursive (=): expanded when the recipe runs, after `deps` has installed ninja.
GENERATOR = $(if $(wildcard $(BUILD_DIR)/CMakeCache.txt),,$(if $(shell command -v ninja 2>/dev/null),-G Ninja))

build: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release $(GENERATOR)
	cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	./scripts/run-default.sh $(BUILD_DIR) $(SUITE)

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

# The Python module `softcert` (docs/python.md), for Debian's /usr/bin/python3.
python: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release $(GENERATOR)
	cmake --build $(BUILD_DIR) -j $(JOBS) --target softcert_python
	@echo "built $$(ls $(BUILD_DIR)/python/softcert/_core*.so); import it with (or pip install .: docs/python.md):"
	@echo "  PYTHONPATH=$(abspath $(BUILD_DIR))/python /usr/bin/python3 -c 'import softcert'"

# Benchmarks against peers: configures BUILD_DIR with -DSOFTCERT_BENCH=ON, builds the drivers,
# runs them and writes out/bench/results.md (docs/performance.md).
bench: build
	./bench/run_all.sh $(BUILD_DIR)

# The authors' largest tied model (D = 100, 10101 states) proved to t = 500 with default options;
# longer than the nightly suite's budget (its time and memory: docs/performance.md, "The ball step
# in τ-time"). Prints the record and the time and memory it took.
prove-tied-d100: build
	/usr/bin/time -v $(BUILD_DIR)/softcert check varre2026.tied.attended_column_grows \
	  --instance proofs_checks/instances/authors/tied-D100.json --tier rigorous

# libFuzzer targets with ASan + UBSan (clang), FUZZ_RUNS executions each: see fuzz/README.md.
FUZZ_RUNS ?= 1000000
fuzz: deps
	./fuzz/run.sh $(FUZZ_RUNS)

clean:
	rm -rf $(BUILD_DIR)
