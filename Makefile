# socmon: the two commands of the README, and the pieces they are made of.
#   make run    installs what is needed, builds, runs socmon on the virtual ESP SoC
#   make test   installs what is needed, builds, runs every test (plain, ASan+UBSan, TSan, fuzzers,
#               the install test, and the unit tests cross-built for 32-bit Arm under qemu-arm)
#   make install PREFIX=DIR   installs socmon under DIR (default /usr/local; docs/install.md)
MAKEFLAGS += --no-print-directory
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
BUILD ?= build
PREFIX ?= /usr/local

.PHONY: all deps configure cli build run install test test-plain test-asan test-tsan test-fuzz test-install test-arm bench clean

all: build

deps:
	@sh scripts/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null

# The socmon command and the shared library: what `make run` needs. The build's own output (some
# 240 lines of compiler progress) goes to $(BUILD)/build.log, so make run shows the run; a failed
# build prints its errors, or the log's end when no line says "error", and where the log is.
cli: configure
	@echo "building socmon in $(BUILD)/ (its output: $(BUILD)/build.log)"
	@cmake --build $(BUILD) -j $(JOBS) --target socmon_cli socmon_shared >$(BUILD)/build.log 2>&1 || { \
	  if grep -qE 'error|Error' $(BUILD)/build.log; then grep -E -A4 'error|Error' $(BUILD)/build.log | head -n 60 >&2; \
	  else tail -n 30 $(BUILD)/build.log >&2; fi; \
	  echo "make: the build failed: all of its output is in $(BUILD)/build.log" >&2; exit 1; }

# Everything: library, CLI, tests, examples, benchmarks.
build: configure
	cmake --build $(BUILD) -j $(JOBS)

# The run once: its timeline live as it is recorded, then its totals, metrics and findings, then
# the charts as a page (tests/cli/make_run.test.sh checks no table prints twice).
run: cli
	./$(BUILD)/socmon record -t esp -w multifft -I 500us -o socmon-esp.rec
	./$(BUILD)/socmon report -i socmon-esp.rec --summary
	./$(BUILD)/socmon report -i socmon-esp.rec --html socmon-esp.html

# The sampler test once failed intermittently (a timing race); running it 50
# times in a row keeps the fix honest (it takes seconds).
test-plain: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	cd $(BUILD) && ctest --output-on-failure -R '^test_sampler$$' --repeat until-fail:50

# Under the sanitizers, every test that runs socmon's C code; not the checks that only read the
# sources (layering, names, labels, docs, man page: test-plain runs them) nor the browser tests,
# whose subject is the page's JavaScript (the C that writes the page's data runs under the
# sanitizers in sh_baseline's --html cases). Nor the two that run the 8x8 SoC at length for its
# numbers (sh_noc_counts: every count of 27 runs; sh_wire_bytes: 20,001 samples of 2,840 counters
# streamed): the code they run is the same in the unit tests and remote_record, which the
# sanitizers check. Nor the 10,000-point Parquet campaign (sh_parquet_campaign: 10,000 stat processes;
# its writer and format code run under the sanitizers in sh_parquet_tables and sh_parquet_fuzz).
# Saves about 5 minutes of a CI run.
ASAN_SKIP = ^sh_(ctest_labels|docs_facts|make_targets|manpage|internal_names|layering|struct_init|noc_counts|wire_bytes|recording_long|noc_rtl_fixture|noc_rtl_tool|parquet_campaign)$$
# -O1, as the sanitizers' documentation advises: the models' tests run 1.3-2x as fast as at -O0
# with the same checks (and -O1's analysis finds format truncations -O0 does not).
test-asan: deps
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DSOCMON_SANITIZE=ON \
		"-DCMAKE_C_FLAGS_DEBUG=-g -O1" "-DCMAKE_CXX_FLAGS_DEBUG=-g -O1" >/dev/null
	cmake --build build-asan -j $(JOBS)
	cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --output-on-failure -j $(JOBS) -LE browser -E '$(ASAN_SKIP)'

# Under ThreadSanitizer, the tests whose code runs on several threads (SOCMON_THREAD_TESTS in
# CMakeLists.txt, label thread: the agent's threads and its collector, the ring, the live store,
# HTTP connections, regions, per-thread errors, readers racing a model). Only they and what they
# link are built (target thread_tests), and no C++: TSan adds about a minute to CI, not a third
# build of everything (docs/testing.md). A race fails the test (halt_on_error).
test-tsan: deps
	cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Debug -DSOCMON_SANITIZE=thread -DSOCMON_CXX_TESTS=OFF \
		"-DCMAKE_C_FLAGS_DEBUG=-g -O1" >/dev/null
	cmake --build build-tsan -j $(JOBS) --target thread_tests
	cd build-tsan && TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
		ctest --output-on-failure -j $(JOBS) -L thread

test-fuzz: deps
	CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DSOCMON_FUZZ=ON -DSOCMON_TESTS=OFF >/dev/null
	cmake --build build-fuzz -j $(JOBS)
	cd build-fuzz && ctest --output-on-failure -j $(JOBS)

# The Zynq's Cortex-A9 cores run 32-bit Arm Linux: cross-build library, CLI, tests, examples and
# benchmarks with gcc-arm-linux-gnueabihf (armhf libraries from scripts/armhf-sysroot.sh) and run
# the cmocka tests and examples under qemu-arm. Host-only tests (shell, Python, browser, ABI) are
# not registered there; no sanitizers under qemu (docs/install.md).
test-arm: deps
	sh scripts/armhf-sysroot.sh
	cmake -S . -B build-arm -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-arm-linux-gnueabihf.cmake >/dev/null
	cmake --build build-arm -j $(JOBS)
	cd build-arm && ctest --output-on-failure -j $(JOBS)

# Installs into a temporary prefix, moves the source copy away, builds the
# examples against the install (pkg-config and find_package), runs socmon.
test-install: deps
	sh scripts/test-install.sh

# The library looks for its data under the prefix it was configured with, so
# the prefix is set at configure time, in a build tree of its own (build/ keeps
# the default prefix and its tests their data from this tree).
install: deps
	cmake -S . -B $(BUILD)-install -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSOCMON_TESTS=OFF \
		-DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	cmake --build $(BUILD)-install -j $(JOBS) --target socmon socmon_shared socmon_cli esp_socdefs
	cmake --install $(BUILD)-install

test: test-plain test-asan test-tsan test-fuzz test-install test-arm
	@echo "socmon: all test suites passed"

bench: build
	cmake --build $(BUILD) --target bench

clean:
	rm -rf build build-asan build-tsan build-fuzz build-install build-arm
