"""apimachinery's ``runtime/schema``: the names of an API resource (``GroupVersionResource``).

Clients that serve any resource without a generated model for it (the metadata client, its
informer factory) are addressed by group, version and plural resource name, as in client-go.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GroupVersionResource:
    """``group`` is "" for the core group; ``resource`` is the plural (``pods``, ``foos``)."""

    group: str
    version: str
    resource: str

    @property
    def group_version(self) -> str:
        """The apiVersion of the resource's objects: ``v1`` for core, else ``group/version``."""
        return f"{self.group}/{self.version}" if self.group else self.version

    def __str__(self) -> str:  # schema.GroupVersionResource.String()
        return f"{self.group}/{self.version}, Resource={self.resource}"
