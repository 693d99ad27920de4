"""A ServiceAccount's ``create_token`` (client-go's ``CreateToken``, the ``token`` subresource)
against the real apiserver: the TokenRequest comes back with a token for the asked audience and
lifetime, and the apiserver authenticates a client holding it as the service account. Both
flavours."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.kubernetes.models.authentication.v1 import SelfSubjectReview, TokenRequest, TokenRequestSpec
from kgen.kubernetes.models.core.v1 import ServiceAccount
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery.errors import Unauthorized
from kgen.runtime.rest.auth import StaticToken
from kgen.runtime.testing import KubeAPIServer
from tests.support.apiserver import unthrottled_config


#: The harness's --service-account-issuer, which is also the apiserver's own audience.
ISSUER = "https://kubernetes.default.svc.cluster.local"


def _request(seconds: int = 3600, audiences: list[str] | None = None) -> TokenRequest:
    return TokenRequest(spec=TokenRequestSpec(audiences=audiences or [], expiration_seconds=seconds))


def test_a_token_for_a_service_account_authenticates_as_it(kube_apiserver: KubeAPIServer, namespace: str) -> None:
    config = unthrottled_config(kube_apiserver)
    with Clientset(config) as cs:
        cs.core_v1.service_accounts(namespace).create(ServiceAccount(metadata=ObjectMeta(name="robot")))
        sa = cs.core_v1.service_accounts(namespace)
        issued = sa.create_token("robot", _request())  # no audience asked: the apiserver's own
        assert issued.spec is not None and issued.spec.audiences == [ISSUER]
        assert issued.status is not None and issued.status.expiration_timestamp
        token = issued.status.token
        assert token and token.count(".") == 2  # a JWT
        elsewhere = sa.create_token("robot", _request(600, ["https://vault.example"]))
        assert elsewhere.spec is not None and elsewhere.spec.audiences == ["https://vault.example"]
        assert elsewhere.spec.expiration_seconds == 600
    as_robot = dataclasses.replace(config, credentials=StaticToken(token), cert_data=None, key_data=None)
    with Clientset(as_robot) as robot:
        review = robot.authentication_v1.self_subject_reviews().create(SelfSubjectReview())
    assert review.status is not None and review.status.user_info is not None
    assert review.status.user_info.username == f"system:serviceaccount:{namespace}:robot"
    assert elsewhere.status is not None and elsewhere.status.token
    for_vault = dataclasses.replace(as_robot, credentials=StaticToken(elsewhere.status.token))
    with Clientset(for_vault) as stranger, pytest.raises(Unauthorized):
        stranger.authentication_v1.self_subject_reviews().create(SelfSubjectReview())  # another audience's token


def test_the_async_client_creates_tokens_too(kube_apiserver: KubeAPIServer, namespace: str) -> None:
    async def scenario() -> str:
        async with AsyncClientset(unthrottled_config(kube_apiserver)) as cs:
            await cs.core_v1.service_accounts(namespace).create(ServiceAccount(metadata=ObjectMeta(name="robot")))
            issued = await cs.core_v1.service_accounts(namespace).create_token("robot", _request(600))
            assert issued.status is not None and issued.status.token
            return issued.status.token

    assert asyncio.run(scenario()).count(".") == 2
