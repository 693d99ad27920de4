"""Probes that measure validation against the real kube-apiserver (issue 15).

- ``structural_probe``: CRD structural schemas (types, formats, ranges, list types, pruning) and the
  choice of the structural validator; its answers are saved under ``tests/fixtures/validation/``.
  Run: ``.venv/bin/python -m hack.validation_probe.structural_probe [--offline]``
- ``cel_probe``: Python CEL libraries against the apiserver's CRD validation rules.
  Run: ``KUBEBUILDER_ASSETS="$(hack/envtest/build.sh)" .venv/bin/python -m hack.validation_probe.cel_probe``

See docs/design/validation.md.
"""
