"""Test support for kgen.runtime.webhook: Go struct tags read from the module sources, and
certificates for the webhook server."""
