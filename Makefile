# The two commands a user needs (README): `make demo` and `make test`.
# Both install missing Debian packages first (tools/install_deps.sh).
JOBS ?= $(shell nproc)
DEMO_TRACE ?= traces/geth-ethstate.ftr

.PHONY: demo test deps test-deps release debug asan bench clean

deps:
	@tools/install_deps.sh build

test-deps:
	@tools/install_deps.sh build capture analysis

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

# Build in release and replay the shipped geth/Pebble trace twice, without
# and with FDP placement, on the study's device scaled to the trace (GC
# threshold 60 as in the study's headline run), and compare the two.
demo: release
	./ftlsim compare --trace $(DEMO_TRACE) --preset femu-eth-512m --gc-thres 60 \
	  --a "--placement single" --b "--placement fdp" --out build/demo-out

# Every test: the full suite on the release build (validation and the root-only
# capture test and the Go tests of tools/geth_patch included), then everything
# but the slow, capture and Go tests again
# under ASan+UBSan with FTL invariant checks on.
test: test-deps release asan
	ctest --preset release -j $(JOBS)
	ctest --preset asan -j $(JOBS) -LE "slow|capture|go"

bench: release
	@tools/install_deps.sh bench
	bench/bench.py

clean:
	rm -rf build ftlsim
