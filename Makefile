# The two commands a user needs (README): `make demo` and `make test`.
# Both install missing Debian packages first (tools/install_deps.sh).
JOBS ?= $(shell nproc)
DEMO_TRACE ?= traces/geth-import.ftr

.PHONY: demo test deps test-deps release debug asan sim-only sim-only-check fuzz-smoke bench report clean

deps:
	@tools/install_deps.sh build

test-deps:
	@tools/install_deps.sh build capture analysis fuzz vm

release: deps
	@cmake --preset release >/dev/null
	@cmake --build --preset release -j $(JOBS)
	@ln -sfn build/release/src/cli/ftlsim ftlsim

debug: deps
	@cmake --preset debug >/dev/null
	@cmake --build --preset debug -j $(JOBS)

asan: deps
	@cmake --preset asan >/dev/null
	@cmake --build --preset asan -j $(JOBS)

# Build the ftlsim binary only (not the tests) and replay the shipped
# geth/Pebble trace twice, without and with FDP placement, on the study's
# device scaled to the trace (GC threshold 60 as in the study's headline
# run), and compare the two.
demo: deps
	@cmake --preset release >/dev/null
	@cmake --build --preset release -j $(JOBS) --target ftlsim
	@ln -sfn build/release/src/cli/ftlsim ftlsim
	./ftlsim compare --trace $(DEMO_TRACE) --preset femu-eth-512m --gc-thres 60 \
	  --a "--placement single" --b "--placement fdp" --out build/demo-out

# The simulator alone, without live replay and its libraries (liburing,
# libnvme, libblkid): what a machine without them builds.
sim-only:
	@cmake --preset sim-only >/dev/null
	@cmake --build --preset sim-only -j $(JOBS)

# It links none of them, gives the full build's numbers and refuses `replay`.
sim-only-check: sim-only release
	tests/build/check_sim_only.sh build/sim-only/src/cli/ftlsim build/release/src/cli/ftlsim

# Every test: the full suite on the release build (validation and the root-only
# capture test, the Go tests of tools/geth_patch, the Python tests of
# analysis/ and the VM tests of tests/vm included), then everything but the
# slow, capture, Go, Python and VM tests again
# under ASan+UBSan with FTL invariant checks on, the simulator built without
# live replay, and the fuzz smoke run.
test: test-deps release asan
	ctest --preset release -j $(JOBS)
	ctest --preset asan -j $(JOBS) -LE "slow|capture|go|python|vm"
	@$(MAKE) --no-print-directory sim-only-check
	@$(MAKE) --no-print-directory fuzz-smoke

# libFuzzer smoke run (clang, ASan+UBSan): every target of tests/fuzz for
# FUZZ_SECONDS on its committed corpus, one at a time (about a minute).
FUZZ_SECONDS ?= 6
fuzz-smoke:
	@tools/install_deps.sh build fuzz
	@cmake --preset fuzz >/dev/null
	@cmake --build --preset fuzz -j $(JOBS)
	tests/fuzz/smoke.sh build/fuzz $(FUZZ_SECONDS)

bench: release
	@tools/install_deps.sh bench
	bench/bench.py

# report/index.html from REPORT_TRACE: non-FDP vs FDP table, WAF over time,
# an RU-size x GC-threshold sweep, latency in timed mode (analysis/report.py
# --help for REPORT_OPTS; its defaults suit the geth trace). Simulation
# results are cached in REPORT_OUT/runs: a rerun only redraws.
REPORT_TRACE ?= traces/geth-ethstate.ftr
REPORT_OUT ?= report
REPORT_OPTS ?=
report: release
	@tools/install_deps.sh analysis
	/usr/bin/python3 analysis/report.py --ftlsim ./ftlsim --trace $(REPORT_TRACE) --out $(REPORT_OUT) $(REPORT_OPTS)

clean:
	rm -rf build ftlsim
