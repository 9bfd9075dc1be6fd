# Two entry points (see README.md): `make run` and `make test`.
BUILD ?= build
JOBS  ?= $(shell nproc)
CMAKE_FLAGS ?=
LAUNCHER := $(shell command -v ccache >/dev/null 2>&1 && echo -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)

.PHONY: all deps configure build run test clean
all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@[ -f $(BUILD)/build.ninja ] || cmake -G Ninja -S . -B $(BUILD) $(LAUNCHER) $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# The main job: ln-compile on the built-in LayerNorm kernels; on a machine with
# a CUDA GPU also the example (checked against a CPU reference) and a short bench.
run: build
	scripts/run-main.sh $(BUILD)

# Every test: lit suites and GoogleTest, through one ctest.
# GPU tests skip without a GPU; say why once, before ctest's summary.
test: build
	@$(BUILD)/bin/RuntimeGpuTests --gtest_filter=GpuLaunch.DeviceProperties 2>&1 \
	  | grep -E '^(no GPU|device 0)' | sed 's/^/GPU tests: /' || true
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD)
