# neuron-cc developer entry points. Only python3 and make are needed on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: venv demo test lint typecheck lit pytest browser bench bench-tools fuzz fuzz-xla clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dev,xla,report]'
	touch $(STAMP)

demo: venv
	@mkdir -p build
	$(BIN)/neuron-opt examples/grad_accum.mlir -p hlo-dce,neuron-default-pipeline \
		--verify-equivalence -o build/grad_accum.opt.mlir
	@echo "== examples/grad_accum.mlir after hlo-dce,neuron-default-pipeline"
	@cat build/grad_accum.opt.mlir
	@echo "== collectives before (8 simulated devices, random inputs)"
	@$(BIN)/neuron-run examples/grad_accum.mlir --random-inputs 0 --stats
	@echo "== collectives after"
	@$(BIN)/neuron-run build/grad_accum.opt.mlir --random-inputs 0 --stats

# lint = ruff check + ruff format --check + typecheck (basedpyright, strict; see pyproject.toml)
# + the import layers (import-linter contracts in pyproject.toml).
lint: venv typecheck
	$(BIN)/ruff check neuron_cc tests tools
	$(BIN)/ruff format --check neuron_cc tests tools
	$(BIN)/lint-imports

typecheck: venv
	$(BIN)/basedpyright

lit: venv
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/lit -v tests/filecheck

# Two workers (CI has 2 cores), one test file per worker at a time so that a file's module
# fixtures (XLA worker batches, the hostile corpus's pre-imported process) run once.
PYTEST_WORKERS ?= 2
# Test order is shuffled (pytest-randomly: files, then tests within a file) so that no test can
# lean on another's side effects; `make pytest PYTEST_SEED=N` repeats the order of a run.
ifeq ($(origin PYTEST_SEED),undefined)
PYTEST_SEED := $(shell $(PYTHON) -c 'import random; print(random.randrange(10**6))')
endif
pytest: venv browser
	@echo "pytest order seed: $(PYTEST_SEED) (make pytest PYTEST_SEED=$(PYTEST_SEED) repeats it)"
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/pytest -W error -q -n $(PYTEST_WORKERS) --dist loadfile \
		-p randomly --randomly-seed=$(PYTEST_SEED) tests

test: lint lit pytest

# Debian's Chromium for the report's rendering test (tests/test_report.py), where apt works;
# without it that test is skipped with a message.
browser:
	@command -v chromium >/dev/null || \
		(apt-get install -y -qq chromium >/dev/null 2>&1 || \
		 (apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq chromium >/dev/null 2>&1)) || \
		echo "chromium unavailable: the report rendering test is skipped"

# The benchmark's optional tools: matplotlib (the scaling plot), Debian's mlir-opt (the
# end-to-end baseline) and valgrind (instruction counts of the dimension cells above the
# limit); each is skipped with a message where it cannot be installed.
bench-tools: venv
	$(BIN)/python -m pip install --quiet -e '.[bench]' || echo "matplotlib unavailable: no plot"
	command -v mlir-opt >/dev/null || ls /usr/bin/mlir-opt-* >/dev/null 2>&1 || \
		ls /usr/lib/llvm-*/bin/mlir-opt >/dev/null 2>&1 || \
		(apt-get install -y -qq mlir-19-tools >/dev/null 2>&1 || \
		 (apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq mlir-19-tools >/dev/null 2>&1)) || \
		echo "mlir-opt unavailable: its baseline is skipped"
	command -v valgrind >/dev/null || \
		(apt-get install -y -qq valgrind >/dev/null 2>&1 || \
		 (apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq valgrind >/dev/null 2>&1)) || \
		echo "valgrind unavailable: the cells above the limit are not counted"

bench: bench-tools
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/python tools/bench.py --sizes 1000,10000,100000
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/python tools/bench_dimensions.py --scale 10 --count

# Property-based fuzzing with random seeds (issue 10): 30 minutes on two workers.
fuzz: venv
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/python tools/fuzz.py --minutes 30

# Differential fuzzing against XLA:CPU (issue 15): random HLO programs through neuron-run, every
# pass and XLA, 30 minutes on two workers; findings go to build/fuzz_xla_findings.md.
fuzz-xla: venv
	$(BIN)/python tools/fuzz_xla.py --minutes 30

clean:
	rm -rf $(VENV) build *.egg-info
