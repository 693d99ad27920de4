# Every target sets up what it needs (idempotently): a venv in .venv with kgen-k8s and
# kgen-runtime installed editable, and for tests the envtest binaries built from the Go module
# proxy into ~/.cache/kgen/envtest (see hack/envtest/build.sh).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.installed-bench
# The bench's peers, at their latest releases when the stamp is (re)made: pyproject's `bench` extra.
BENCH_PEERS := kubernetes lightkube lightkube-models datamodel-code-generator

.PHONY: generate test test-cluster test-matrix bench bench-docs docs snapshot envtest cluster clean validation-projects

# The generator's distribution was called `kgen` before it became `kgen-k8s` (PyPI's `kgen` is
# another project): a venv made before the rename still holds that editable `kgen`, which would
# answer `importlib.metadata.version("kgen")` and own bin/kgen too. It is removed before the
# install, so the install's bin/kgen is the one left, and so is its metadata folder, which the
# editable install wrote beside the link farm (on sys.path through the .pth file). In a new venv
# and a fresh checkout there is nothing to remove.
$(STAMP): pyproject.toml packaging/kgen-runtime/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	! $(BIN)/python -m pip show --quiet kgen >/dev/null 2>&1 || $(BIN)/python -m pip uninstall --quiet --yes kgen
	rm -rf packaging/kgen/kgen.egg-info
	$(BIN)/python -m pip install --quiet -e './packaging/kgen-runtime[validation,metrics]' -e '.[test]'
	touch $(STAMP)

# The main job: the stock client, generated from the embedded snapshot into generated/kubernetes.
generate: $(STAMP)
	$(BIN)/kgen generate --package kubernetes --out generated

$(BENCH_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python -m pip install --quiet --upgrade $(BENCH_PEERS)
	touch $(BENCH_STAMP)

# Prints kgen's figures against lightkube and the official client (bench/run.py); exits 0.
# The scale table (1,000 and 10,000 Pods; kgen, client-go, official, lightkube) also writes
# PNG charts and a markdown report into build/bench/. The full curve, 100,000 Pods included:
#   make bench BENCH_ARGS="--only scale --scale-counts 1000,10000,100000"
# The operator table (1,000 Widgets each owning a ConfigMap; kgen's Manager vs controller-runtime (needs Go), kopf, and kopf with status storage) alone:
#   make bench BENCH_ARGS="--only operator"
bench: $(BENCH_STAMP)
	KUBEBUILDER_ASSETS="$$(hack/envtest/build.sh)" $(BIN)/python -m bench $(BENCH_ARGS)

envtest:
	hack/envtest/build.sh

# A whole cluster's binaries (kube-controller-manager, kube-scheduler, kubectl, kwok) beside the
# envtest ones, into ~/.cache/kgen/cluster and ~/.cache/kgen/kwok (see hack/envtest/cluster.sh).
cluster:
	hack/envtest/cluster.sh

# The documentation site (mkdocs.yml) into build/site, with --strict: a warning fails it.
# Chromium and its driver (Debian packages) are what tests/docs/test_site.py opens the site with.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
CHROMIUM := /usr/bin/chromedriver
$(CHROMIUM):
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver || \
	  { $(SUDO) apt-get update -q && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver; }

docs: $(STAMP) $(CHROMIUM)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

# The scale table (charts and report) the docs' bench page shows, into docs/bench/.
bench-docs: $(BENCH_STAMP)
	KUBEBUILDER_ASSETS="$$(hack/envtest/build.sh)" $(BIN)/python -m bench --only scale --scale-out docs/bench

# The releases kgen supports, oldest first (hack/envtest/versions.env): make test runs the
# compatibility suite on the oldest beside the whole suite on the newest; make test-matrix on each.
SUPPORTED_VERSIONS := $(shell . hack/envtest/versions.env && echo $$SUPPORTED_KUBERNETES_VERSIONS)
MATRIX_VERSIONS ?= $(SUPPORTED_VERSIONS)
COMPAT_VERSION ?= $(firstword $(SUPPORTED_VERSIONS))

# $(call compat_suite,RELEASE): the compatibility suite (marker `compat`, tests/conftest.py) on
# RELEASE's apiserver and whole cluster, whose binaries cluster.sh builds first if missing (cold:
# minutes). Every server of the run goes on the run log.
compat_suite = KGEN_ENVTEST_KUBERNETES_VERSION=$(1) KGEN_CLUSTER_ASSETS="$$(KGEN_ENVTEST_KUBERNETES_VERSION=$(1) hack/envtest/cluster.sh)" \
	$(BIN)/python -m pytest -m compat tests/integration tests/compat tests/cluster $(PYTEST_ARGS)

# The run log lists what this run's envtest servers and clusters start; check-leftovers looks at
# those only. The whole suite on the pinned release's apiserver but what needs a whole cluster runs
# in the foreground. Beside it: the tests marked `long` (minutes spent waiting on timers), and one
# after the other tests/cluster + tests/compat on the pinned release's cluster, then the
# compatibility suite on the oldest supported release's (each cluster's binaries built first,
# niced; cold: ~20 minutes of Go builds, warm: nothing). The first run leaves a core mostly idle
# (load ~1 on 2 cores), which the cluster runs use. The output of a run beside the foreground is
# shown when it ends.
test: $(STAMP) docs
	run_log="$$(mktemp -t kgen-test-run.XXXXXX)"; export KGEN_ENVTEST_RUN_LOG="$$run_log"; \
	assets="$$(hack/envtest/build.sh)" || exit 1; \
	logs="$$(mktemp -d -t kgen-test-logs.XXXXXX)"; \
	KUBEBUILDER_ASSETS="$$assets" $(BIN)/python -m pytest -m long tests/integration $(PYTEST_ARGS) >"$$logs/long" 2>&1 & long=$$!; \
	{ cluster=0; \
	  nice -n 19 hack/envtest/cluster.sh >"$$logs/builds" 2>&1 || { echo "== make test: building the cluster failed"; cat "$$logs/builds"; exit 1; }; \
	  KUBEBUILDER_ASSETS="$$assets" KGEN_CLUSTER_ASSETS="$$(hack/envtest/cluster.sh)" \
	    $(BIN)/python -m pytest tests/cluster tests/compat $(PYTEST_ARGS) || cluster=1; \
	  echo "== make test: the compatibility suite on Kubernetes $(COMPAT_VERSION)"; \
	  KGEN_ENVTEST_KUBERNETES_VERSION=$(COMPAT_VERSION) nice -n 19 hack/envtest/cluster.sh >"$$logs/builds" 2>&1 || cluster=1; \
	  $(call compat_suite,$(COMPAT_VERSION)) || cluster=1; exit $$cluster; } >"$$logs/cluster" 2>&1 & cluster=$$!; \
	KUBEBUILDER_ASSETS="$$assets" $(BIN)/python -m pytest -m "not long" --ignore=tests/cluster --ignore=tests/compat $(PYTEST_ARGS); tests=$$?; \
	wait $$long || tests=1; echo "== make test: the tests marked long, run beside the others"; cat "$$logs/long"; \
	wait $$cluster || tests=1; echo "== make test: tests/cluster + tests/compat on the pinned release's cluster, run beside the others"; cat "$$logs/cluster"; \
	rm -rf "$$logs"; hack/check-leftovers.sh "$$run_log"; left=$$?; rm -f "$$run_log"; exit $$(( tests ? tests : left ))

# The tests on a whole cluster alone (tests/cluster/, marker `cluster`), on the pinned release.
test-cluster: $(STAMP)
	run_log="$$(mktemp -t kgen-test-run.XXXXXX)"; \
	KGEN_ENVTEST_RUN_LOG="$$run_log" KGEN_CLUSTER_ASSETS="$$(hack/envtest/cluster.sh)" $(BIN)/python -m pytest tests/cluster $(PYTEST_ARGS); \
	tests=$$?; hack/check-leftovers.sh "$$run_log"; left=$$?; rm -f "$$run_log"; exit $$(( tests ? tests : left ))

# The compatibility suite on every supported release (MATRIX_VERSIONS), one pytest run each, and
# the fake's defaulting against each release's Go oracle (make test compares two releases').
test-matrix: $(STAMP)
	run_log="$$(mktemp -t kgen-test-run.XXXXXX)"; export KGEN_ENVTEST_RUN_LOG="$$run_log"; tests=0; \
	for version in $(MATRIX_VERSIONS); do \
	  echo "== the compatibility suite on Kubernetes $$version"; \
	  $(call compat_suite,$$version) || tests=1; \
	done; \
	echo "== the fake's defaulting against each release's Go oracle"; \
	KGEN_DEFAULTING_RELEASES="$(MATRIX_VERSIONS)" $(BIN)/python -m pytest tests/unit/test_fake_defaulting_oracle.py $(PYTEST_ARGS) || tests=1; \
	hack/check-leftovers.sh "$$run_log"; left=$$?; rm -f "$$run_log"; exit $$(( tests ? tests : left ))

# Issue 35's validation acceptance run: six projects' CRDs (KubeRay, MetalLB, Karpenter, Kyverno,
# Knative Serving, ExternalDNS) mutated, kgen's verdicts and causes vs the apiserver's dry-run
# (~4 minutes; make test runs a slice, tests/integration/test_validation_projects.py).
validation-projects: $(STAMP)
	KUBEBUILDER_ASSETS="$$(hack/envtest/build.sh)" $(BIN)/python hack/validation_projects.py $(VALIDATION_ARGS)

# Refreshes an embedded snapshot, openapi/kubernetes-<version>/, from a freshly started real
# apiserver of that version (built first if missing): the pinned one, or another supported one
# for `kgen generate --kubernetes`, e.g.  make snapshot KUBERNETES_VERSION=1.34.4
KUBERNETES_VERSION ?=
snapshot: $(STAMP)
	KUBEBUILDER_ASSETS="$$(KGEN_ENVTEST_KUBERNETES_VERSION=$(KUBERNETES_VERSION) hack/envtest/build.sh)" $(BIN)/python hack/snapshot.py

clean:
	rm -rf $(VENV) build *.egg-info

# A long differential run of JSON patch and merge patch against the apiserver's library
# (hack/oracle/jsonpatch): FUZZ_PATCH_CASES JSON patches and half as many merge patches.
FUZZ_PATCH_CASES ?= 200000
FUZZ_PATCH_SEED ?= 1
fuzz-patch: $(STAMP)
	KGEN_FUZZ_PATCH_CASES=$(FUZZ_PATCH_CASES) KGEN_FUZZ_PATCH_SEED=$(FUZZ_PATCH_SEED) \
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/unit/test_jsonpatch_oracle.py
.PHONY: fuzz-patch

# A long differential run of strategic merge patch against apimachinery's strategicpatch.
FUZZ_SMP_CASES ?= 200000
FUZZ_SMP_SEED ?= 20261203
# The fake against the real apiserver on every recorded seed of its random sequences
# (RECORDED_SEEDS in tests/integration/test_fake_vs_server.py; make test runs one), on the pinned
# release; KGEN_ENVTEST_KUBERNETES_VERSION=1.34.4 make fuzz-fake for the oldest.
fuzz-fake: $(STAMP)
	KUBEBUILDER_ASSETS="$$(hack/envtest/build.sh)" KGEN_FVS_SEED=recorded \
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/integration/test_fake_vs_server.py -k random
.PHONY: fuzz-fake

fuzz-smp: $(STAMP)
	KGEN_FUZZ_SMP_CASES=$(FUZZ_SMP_CASES) KGEN_FUZZ_SMP_SEED=$(FUZZ_SMP_SEED) \
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/unit/test_strategicpatch_oracle.py -k matches_apimachinery
.PHONY: fuzz-smp

# Long run of the two-way and three-way strategic merge patch creation against apimachinery
# (tests/unit/test_strategicpatch_diff_oracle.py), plus Go's sort.Sort/sort.SliceStable port.
FUZZ_SMP_DIFF_CASES ?= 100000
fuzz-smp-diff: $(STAMP)
	KGEN_FUZZ_SMP_DIFF_CASES=$(FUZZ_SMP_DIFF_CASES) KGEN_FUZZ_SMP_SEED=$(FUZZ_SMP_SEED) \
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/unit/test_strategicpatch_diff_oracle.py tests/unit/test_gosort_oracle.py
.PHONY: fuzz-smp-diff

# A long differential run of server-side apply (kgen.runtime.apimachinery.util.managedfields.fieldmanager) against
# apimachinery's field manager (hack/oracle/fieldmanager): FUZZ_SSA_OPS operations in sequences.
FUZZ_SSA_OPS ?= 100000
FUZZ_SSA_SEED ?= 20261203
fuzz-ssa: $(STAMP)
	KGEN_FUZZ_SSA_OPS=$(FUZZ_SSA_OPS) KGEN_FUZZ_SSA_SEED=$(FUZZ_SSA_SEED) \
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/unit/test_ssa_oracle.py -k matches_apimachinery
.PHONY: fuzz-ssa
