"""Each error the real server produces arrives as its typed exception; 429/5xx are retried."""

from __future__ import annotations


import pytest

from kgen.kubernetes.models.core.v1 import ConfigMap, ConfigMapList
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.rest import StaticToken
from kgen.runtime.apimachinery.codec import ModelCodec
from kgen.runtime.rest import Config, load_kubeconfig
from kgen.runtime.apimachinery.errors import (
    AlreadyExists, Conflict, Expired, Forbidden, Invalid, NotFound, ServiceUnavailable, TooManyRequests,
)
from kgen.runtime.gentype import ResourceClient, ResourceInfo
from kgen.runtime.rest.client import RESTClient
from kgen.runtime.testing import RESTRICTED_NAMESPACE, KubeAPIServer
from tests.support.faultproxy import FaultProxy, Scripted

CONFIGMAPS = ResourceInfo("", "v1", "configmaps", True, "ConfigMap")


def _configmaps(rest: RESTClient, ns: str) -> ResourceClient[ConfigMap, ConfigMapList]:
    return ResourceClient(rest, CONFIGMAPS, ns, ModelCodec(ConfigMap, ConfigMapList))



def test_not_found(rest: RESTClient, namespace: str) -> None:
    with pytest.raises(NotFound) as e:
        _configmaps(rest, namespace).get("missing")
    assert e.value.code == 404 and e.value.reason == "NotFound" and e.value.details["name"] == "missing"


def test_already_exists(rest: RESTClient, namespace: str) -> None:
    cms = _configmaps(rest, namespace)
    cms.create(ConfigMap(metadata=ObjectMeta(name="dup")))
    with pytest.raises(AlreadyExists) as e:
        cms.create(ConfigMap(metadata=ObjectMeta(name="dup")))
    assert isinstance(e.value, Conflict) and e.value.code == 409


def test_conflict_on_stale_resource_version(rest: RESTClient, namespace: str) -> None:
    cms = _configmaps(rest, namespace)
    first = cms.create(ConfigMap(metadata=ObjectMeta(name="stale"), data={"v": "1"}))
    cms.patch("stale", {"data": {"v": "2"}})
    first.data = {"v": "3"}
    with pytest.raises(Conflict) as e:
        cms.update(first)
    assert not isinstance(e.value, AlreadyExists) and e.value.reason == "Conflict"


def test_forbidden_for_the_restricted_identity(kube_apiserver: KubeAPIServer) -> None:
    config = load_kubeconfig(kube_apiserver.restricted_kubeconfig)
    with RESTClient(config) as rest:
        secrets = ResourceClient(rest, ResourceInfo("", "v1", "secrets", True, "Secret"), RESTRICTED_NAMESPACE, _dict_codec())
        with pytest.raises(Forbidden) as e:
            secrets.list()
        assert e.value.code == 403 and "kgen-restricted" in e.value.message


def _dict_codec():  # type: ignore[no-untyped-def]
    from kgen.runtime.gentype import DictCodec

    return DictCodec()


def test_invalid_carries_field_causes(rest: RESTClient, namespace: str) -> None:
    cms = _configmaps(rest, namespace)
    with pytest.raises(Invalid) as e:
        cms.create(ConfigMap(metadata=ObjectMeta(name="Not_Valid")))
    assert e.value.code == 422
    assert any(c.field == "metadata.name" for c in e.value.causes), e.value.causes


def test_expired_continue_token_after_compaction(kube_apiserver_without_watch_cache: KubeAPIServer) -> None:
    server = kube_apiserver_without_watch_cache
    config = load_kubeconfig(server.kubeconfig)
    with RESTClient(config) as rest:
        cms = _configmaps(rest, "default")
        for i in range(4):
            cms.create(ConfigMap(metadata=ObjectMeta(name=f"exp-{i}")))
        first = cms.list(limit=1)
        token = first.metadata.continue_  # type: ignore[union-attr]
        assert token
        cms.create(ConfigMap(metadata=ObjectMeta(name="exp-later")))
        server.compact_etcd()
        with pytest.raises(Expired) as e:
            cms.list(limit=1, continue_=token)
        assert e.value.code == 410
        # The pager falls back to a full list; the inconsistent iterator continues from the offered token.
        names = {c.metadata.name for c in cms.list_all(page_size=1).items or [] if c.metadata}
        assert {f"exp-{i}" for i in range(4)} | {"exp-later"} <= names


def _token_config(server: KubeAPIServer, url: str) -> Config:
    return Config(host=url, ca_data=server.ca_pem, credentials=StaticToken(server.tokens["kgen-token-1"]), qps=-1)


def test_429_and_5xx_with_retry_after_are_retried(kube_apiserver: KubeAPIServer) -> None:
    with FaultProxy(kube_apiserver) as proxy, RESTClient(_token_config(kube_apiserver, proxy.url)) as rest:
        proxy.script.extend([Scripted(429), Scripted(503), Scripted(500)])
        assert _configmaps(rest, "default").list().kind == "ConfigMapList"
        assert sum(proxy.faults.values()) == 3 and len(proxy.requests) == 4


def test_5xx_without_retry_after_is_not_retried(kube_apiserver: KubeAPIServer) -> None:
    with FaultProxy(kube_apiserver) as proxy, RESTClient(_token_config(kube_apiserver, proxy.url)) as rest:
        proxy.script.append(Scripted(503, retry_after=None))
        with pytest.raises(ServiceUnavailable):
            _configmaps(rest, "default").list()
        assert len(proxy.requests) == 1


def test_retries_stop_after_ten(kube_apiserver: KubeAPIServer) -> None:
    with FaultProxy(kube_apiserver) as proxy, RESTClient(_token_config(kube_apiserver, proxy.url)) as rest:
        proxy.script.extend([Scripted(429)] * 11)
        with pytest.raises(TooManyRequests):
            _configmaps(rest, "default").list()
        assert len(proxy.requests) == 11  # the first try and ten retries
