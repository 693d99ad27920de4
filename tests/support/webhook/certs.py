"""Serving certificates for webhook tests: the test apiserver's own throwaway CA code
(kgen.runtime.testing), written to files as a webhook reads them."""

from __future__ import annotations

import ssl
from pathlib import Path

from kgen.runtime.testing._certs import CertificateAuthority, KeyPair

__all__ = ["CertificateAuthority", "KeyPair", "client_context", "write_pair"]


def write_pair(pair: KeyPair, folder: Path, prefix: str = "tls") -> tuple[Path, Path]:
    """``pair`` as ``<prefix>.crt`` and ``<prefix>.key`` in ``folder`` (replaced atomically, as
    the kubelet swaps a Secret volume's files), returning their paths."""
    cert, key = folder / f"{prefix}.crt", folder / f"{prefix}.key"
    for path, data in ((cert, pair.cert_pem), (key, pair.key_pem)):
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_bytes(data)
        tmp.replace(path)
    return cert, key


def client_context(ca: CertificateAuthority) -> ssl.SSLContext:
    """A client context trusting only ``ca``, verifying as the apiserver does."""
    return ssl.create_default_context(cadata=ca.cert_pem.decode())
