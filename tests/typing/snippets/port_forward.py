"""Port-forward on the typed pods client: the forwarder typed as a context manager (sync and
async), the bound ports as ``ForwardedPort`` pairs of ints, kubectl's port forms accepted and a
wrong kind of ``ports`` rejected."""

from __future__ import annotations

from typing import assert_type

import httpx

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.runtime.tools.portforward import AsyncPortForwarder, ForwardedPort, PortForwarder


def forward(cs: Clientset) -> str:
    pods = cs.core_v1.pods("default")
    with pods.port_forward("web", {8080: 80}) as pf:
        assert_type(pf, PortForwarder)
        port = pf.local_port(80)
        assert_type(port, int)
        return httpx.get(f"http://127.0.0.1:{port}/").text


def kubectl_forms(cs: Clientset) -> list[int]:
    pods = cs.core_v1.pods("default")
    with pods.port_forward("web", [80, "8443:443", ":9090"], address="127.0.0.1") as pf:
        for p in pf.ports:
            assert_type(p, ForwardedPort)
            assert_type(p.local, int)
        return [local for local, _remote in pf.ports]


def started_by_hand(cs: Clientset) -> None:
    pf = cs.core_v1.pods("default").port_forward("web", [":80"]).start()
    try:
        print(pf.local_port(80))
    finally:
        pf.close()


async def forward_async(acs: AsyncClientset) -> str:
    async with acs.core_v1.pods("default").port_forward("web", {0: 80}) as pf:
        assert_type(pf, AsyncPortForwarder)
        async with httpx.AsyncClient() as client:
            answer = await client.get(f"http://127.0.0.1:{pf.local_port(80)}/")
            return answer.text


def mistakes(cs: Clientset) -> None:
    pods = cs.core_v1.pods("default")
    pods.port_forward("web", 80)  # E: arg-type
    pods.port_forward("web", {"8080": 80})  # E: dict-item
    pods.port_forward("web", [80], address=None)  # E: arg-type
