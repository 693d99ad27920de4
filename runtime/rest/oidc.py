"""The ``oidc`` auth-provider (client-go's plugin/pkg/client/auth/oidc): its ``id-token`` as a
bearer token until the token's ``exp``.

kgen does not run the refresh flow: an expired id-token is an error telling the user to log in
again (or to switch to an exec credential plugin). Errors never quote the token.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable
from datetime import datetime, timedelta, timezone

from kgen.runtime.rest.auth import _REDACTED, CredentialError, _utcnow

OIDC_EXPIRY_LEEWAY = timedelta(seconds=10)
"""client-go's oidc provider treats an id-token as expired this long before its ``exp``."""


class OIDCIdToken:
    """The ``oidc`` auth-provider's ``id-token``, used as a bearer token until its ``exp``."""

    def __init__(self, id_token: str, *, clock: Callable[[], datetime] | None = None) -> None:
        self._token = id_token
        self._clock = clock or _utcnow
        self._expires = _jwt_expiry(id_token)

    def token(self) -> str:
        """The id-token; a ``CredentialError`` once it has expired (kgen does not run the refresh flow)."""
        if self._expired():
            raise CredentialError(
                "the oidc auth-provider's id-token has expired and kgen does not run the refresh "
                "flow: log in again (or switch the user to an exec credential plugin)"
            )
        return self._token

    def cached_token(self) -> str | None:
        """The id-token unless it has expired, else None."""
        return None if self._expired() else self._token

    def invalidate(self) -> None:
        """Nothing to renew: there is no refresh flow, the id-token in the kubeconfig is all there is."""

    def _expired(self) -> bool:
        return self._expires is not None and self._clock() + OIDC_EXPIRY_LEEWAY >= self._expires

    def __repr__(self) -> str:
        return f"OIDCIdToken({_REDACTED})"


def _jwt_expiry(token: str) -> datetime | None:
    """The ``exp`` claim of a JWT, or None when it has none. Errors never quote the token."""
    parts = token.split(".")
    if len(parts) != 3:
        raise CredentialError("the oidc id-token is not a JWT (expected three dot-separated parts)")
    try:
        payload = base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4))
        claims = json.loads(payload)
    except (binascii.Error, ValueError):
        raise CredentialError("the oidc id-token's payload is not base64url-encoded JSON") from None
    exp = claims.get("exp") if isinstance(claims, dict) else None
    if exp is None:
        return None
    if not isinstance(exp, (int, float)):
        raise CredentialError("the oidc id-token's 'exp' claim is not a number")
    return datetime.fromtimestamp(exp, tz=timezone.utc)
