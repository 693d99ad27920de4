"""kubectl cp (issue 34): ``copy_to_pod`` / ``copy_from_pod`` on the typed pods client, and their
async twins on the asyncio one; the mistakes mypy --strict must reject are marked ``# E: <code>``."""

from __future__ import annotations

from pathlib import Path

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.runtime.kubectl import CopyError, CopyResult, async_copy_from_pod, async_copy_to_pod, copy_from_pod, copy_to_pod


def publish(cs: Clientset, pod: str, site: Path) -> str:
    pods = cs.core_v1.pods("default")
    result: CopyResult = copy_to_pod(pods, pod, site, "/srv/www", container="web", no_preserve=True)
    return result.destination


def fetch_logs(cs: Clientset, pod: str) -> list[str]:
    try:
        result = copy_from_pod(cs.core_v1.pods("default"), pod, "/var/log/app", Path("logs"))
    except CopyError as e:
        return [f"exit {e.exit_code}: {e.stderr}"]
    return result.written + result.warnings


async def round_trip(cs: AsyncClientset, pod: str) -> list[str]:
    pods = cs.core_v1.pods("default")
    await async_copy_to_pod(pods, pod, "config.yaml", "/etc/app/config.yaml")
    fetched = await async_copy_from_pod(pods, pod, "/etc/app", "app-config", container="app")
    return fetched.written


def mistakes(cs: Clientset, acs: AsyncClientset, pod: str) -> None:
    copy_to_pod(cs.core_v1.config_maps("default"), pod, "a", "b")  # E: arg-type
    copy_to_pod(acs.core_v1.pods("default"), pod, "a", "b")  # E: arg-type
    copy_from_pod(cs.core_v1.pods("default"), pod, Path("/remote"), "local")  # E: arg-type
    count: int = copy_from_pod(cs.core_v1.pods("default"), pod, "/remote", "local").written  # E: assignment
