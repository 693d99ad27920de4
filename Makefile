# Every target sets up what it needs (idempotently): a venv in .venv with kgen installed
# editable, and for tests the envtest binaries built from the Go module proxy into
# ~/.cache/kgen/envtest (see hack/envtest/build.sh).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: generate test snapshot envtest clean

$(STAMP): pyproject.toml setup.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# The main job: the stock client, generated from the embedded snapshot into generated/kubernetes.
generate: $(STAMP)
	$(BIN)/kgen generate --out generated

envtest:
	hack/envtest/build.sh

test: $(STAMP)
	KUBEBUILDER_ASSETS="$$(hack/envtest/build.sh)" $(BIN)/python -m pytest $(PYTEST_ARGS)
	hack/check-leftovers.sh

# Refreshes the embedded snapshot from a freshly started real apiserver.
snapshot: $(STAMP)
	KUBEBUILDER_ASSETS="$$(hack/envtest/build.sh)" $(BIN)/python hack/snapshot.py

clean:
	rm -rf $(VENV) build *.egg-info
