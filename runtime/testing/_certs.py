"""Certificates for the test apiserver: one CA, a serving cert, client certs, SA signing keys.

ECDSA P-256 keys: generating them takes microseconds, where RSA-2048 takes tens of
milliseconds each, and kube-apiserver accepts them everywhere it needs a key.
"""

from __future__ import annotations

import datetime as _dt
import ipaddress
from dataclasses import dataclass

from kgen.runtime.util.extras import missing_extra

try:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
except ModuleNotFoundError:
    raise missing_extra("cryptography", extra="testing", needed_by="kgen.runtime.testing") from None

_VALIDITY = _dt.timedelta(days=1)


@dataclass(frozen=True)
class KeyPair:
    cert_pem: bytes
    key_pem: bytes


def _new_key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def _name(common_name: str, organization: str | None = None) -> x509.Name:
    attrs = [x509.NameAttribute(NameOID.COMMON_NAME, common_name)]
    if organization:
        attrs.append(x509.NameAttribute(NameOID.ORGANIZATION_NAME, organization))
    return x509.Name(attrs)


class CertificateAuthority:
    """A throwaway CA that signs the serving certificate and the client identities."""

    def __init__(self, common_name: str = "kgen-envtest-ca") -> None:
        self._key = _new_key()
        now = _dt.datetime.now(_dt.timezone.utc)
        self._name = _name(common_name)
        self._cert = (
            x509.CertificateBuilder()
            .subject_name(self._name)
            .issuer_name(self._name)
            .public_key(self._key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - _dt.timedelta(minutes=5))
            .not_valid_after(now + _VALIDITY)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(
                x509.KeyUsage(
                    digital_signature=True, key_cert_sign=True, crl_sign=True,
                    content_commitment=False, key_encipherment=False, data_encipherment=False,
                    key_agreement=False, encipher_only=False, decipher_only=False,
                ),
                critical=True,
            )
            .sign(self._key, hashes.SHA256())
        )
        self.cert_pem = self._cert.public_bytes(serialization.Encoding.PEM)
        # kube-controller-manager signs CertificateSigningRequests with the cluster's CA.
        self.key_pem = _key_pem(self._key)

    def _issue(self, subject: x509.Name, usage: x509.ObjectIdentifier, sans: list[x509.GeneralName]) -> KeyPair:
        key = _new_key()
        now = _dt.datetime.now(_dt.timezone.utc)
        builder = (
            x509.CertificateBuilder()
            .subject_name(subject)
            .issuer_name(self._name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - _dt.timedelta(minutes=5))
            .not_valid_after(now + _VALIDITY)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
        )
        if sans:
            builder = builder.add_extension(x509.SubjectAlternativeName(sans), critical=False)
        cert = builder.sign(self._key, hashes.SHA256())
        return KeyPair(cert.public_bytes(serialization.Encoding.PEM), _key_pem(key))

    def serving(self, hosts: list[str]) -> KeyPair:
        sans: list[x509.GeneralName] = []
        for host in hosts:
            try:
                sans.append(x509.IPAddress(ipaddress.ip_address(host)))
            except ValueError:
                sans.append(x509.DNSName(host))
        return self._issue(_name("kube-apiserver"), ExtendedKeyUsageOID.SERVER_AUTH, sans)

    def client(self, user: str, group: str | None = None) -> KeyPair:
        """A client certificate: the apiserver reads the user from CN and groups from O."""
        return self._issue(_name(user, group), ExtendedKeyUsageOID.CLIENT_AUTH, [])


def signing_key() -> tuple[bytes, bytes]:
    """A service-account token signing key pair: (private PEM, public PEM)."""
    key = _new_key()
    public = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return _key_pem(key), public
