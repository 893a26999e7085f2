# The two commands a user needs (README): `make demo` and `make test`.
# Both install missing Debian packages first (tools/install_deps.sh).
JOBS ?= $(shell nproc)
# The study's two host modes, captured (traces/README.md), and its device:
# ConfFDP's rules at the study's thresholds, counted from the reset marker.
DEMO_NONFDP ?= traces/geth-import-f2fs-nonfdp.ftr
DEMO_FDP ?= traces/geth-import-f2fs-fdp.ftr
STUDY_DEVICE = --rules confdp --preset confdp-eth-512m --gc-thres 60 --gc-thres-high 80 --reset-at device:0

.PHONY: demo test deps test-deps release debug asan sim-only sim-only-check fuzz-smoke bench report clean

deps:
	@tools/install_deps.sh build

test-deps:
	@tools/install_deps.sh build capture analysis fuzz format vm

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

# Build the ftlsim binary only (not the tests), then the Ethereum FDP
# study's comparison from its two shipped captures (docs/geth_study.md, "The
# study's table"): the non-FDP host mode with one placement against the FDP
# host mode with FDP placement, then the same split into the host's and the
# device's parts (tools/study_decomposition.sh). Its folders under
# build/demo-out are its own: each `make demo` replaces them (--force), also
# when an earlier build wrote them (results are keyed by the sources, so
# without it a `make demo` after any source change was refused).
demo: deps
	@cmake --preset release >/dev/null
	@cmake --build --preset release -j $(JOBS) --target ftlsim
	@ln -sfn build/release/src/cli/ftlsim ftlsim
ifneq ($(wildcard $(DEMO_FDP)),)
	./ftlsim compare --trace $(DEMO_NONFDP) --trace-b $(DEMO_FDP) $(STUDY_DEVICE) \
	  --a "--placement single" --b "--placement fdp" --out build/demo-out/study --force
	tools/study_decomposition.sh --nonfdp $(DEMO_NONFDP) --fdp $(DEMO_FDP) --out build/demo-out -- $(STUDY_DEVICE) --force
else
	@echo "demo: $(DEMO_FDP) (the FDP host mode) is not shipped yet: the non-FDP capture alone, without and with FDP placement"
	./ftlsim compare --trace $(DEMO_NONFDP) $(STUDY_DEVICE) \
	  --a "--placement single" --b "--placement fdp" --out build/demo-out/study --force
endif

# The simulator alone, without live replay and its libraries (liburing,
# libnvme, libblkid): what a machine without them builds.
sim-only:
	@cmake --preset sim-only >/dev/null
	@cmake --build --preset sim-only -j $(JOBS)

# The check of that build: the release tree's src/cli/sim-only/ftlsim (its
# ftlsim's objects, linked as FTLSIM_REPLAY=OFF links them) links none of
# those libraries, gives the full build's numbers and refuses `replay`. The
# sim-only preset is only configured: its libraries are release's (same
# sources and flags), so compiling them a third time would check nothing new.
sim-only-check: release
	@cmake --preset sim-only >/dev/null
	tests/build/check_sim_only.sh build/release/src/cli/sim-only/ftlsim build/release/src/cli/ftlsim

# Every test: the full suite on the release build (validation and the root-only
# capture test, the Go tests of tools/geth_patch, the Python tests of
# analysis/ and the VM tests of tests/vm included), then everything but the
# slow, capture, Go, Python and VM tests again
# under ASan+UBSan with FTL invariant checks on, the check of the simulator
# without live replay, and the fuzz smoke run.
test: test-deps release asan
	ctest --preset release -j $(JOBS)
	ctest --preset asan -j $(JOBS) -LE "slow|capture|go|python|vm"
	@$(MAKE) --no-print-directory sim-only-check
	@$(MAKE) --no-print-directory fuzz-smoke

# libFuzzer smoke run (clang, ASan+UBSan): every target of tests/fuzz for
# FUZZ_SECONDS on its committed corpus, one per core at a time (about 40 s on 2 cores).
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
