"""Secret data and tokens never show in a model's repr; the wire form keeps them."""

from __future__ import annotations

from kgen.kubernetes.models.authentication.v1 import TokenRequestStatus, TokenReviewSpec
from kgen.kubernetes.models.core.v1 import Secret
from kgen.kubernetes.models.meta.v1 import ObjectMeta


def test_secret_data_is_redacted_in_repr_and_str_but_sent_on_the_wire() -> None:
    secret = Secret(metadata=ObjectMeta(name="db"), data={"password": "c2VjcmV0"}, string_data={"token": "plain-t0ken"})
    for text in (repr(secret), str(secret), f"{secret}", repr([secret])):
        assert "c2VjcmV0" not in text and "plain-t0ken" not in text
        assert "data=<redacted>" in text and "ObjectMeta(name='db')" in text
    assert secret.to_dict()["data"] == {"password": "c2VjcmV0"}
    decoded = Secret.from_json(b'{"kind":"Secret","data":{"k":"c2VjcmV0"}}')
    assert "c2VjcmV0" not in repr(decoded) and decoded.data == {"k": "c2VjcmV0"}


def test_tokens_are_redacted_and_unset_fields_stay_out_of_repr() -> None:
    assert "s3cr3t" not in repr(TokenRequestStatus(token="s3cr3t", expiration_timestamp="2030-01-01T00:00:00Z"))
    assert repr(TokenReviewSpec(token="s3cr3t")) == "TokenReviewSpec(token=<redacted>)"
    assert repr(Secret()) == "Secret()"
