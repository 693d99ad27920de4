"""client-go's tools/pager without the I/O: which page to ask for next, and what the pages add up to.

Lists come in pages of 500 (``PAGE_SIZE``, tools/pager's default, the same default every list of
kgen's clients uses) so that neither the apiserver nor the client holds a whole large collection
in one response.
"""

from __future__ import annotations

from typing import Any

from kgen.runtime.apimachinery.errors import Expired
from kgen.runtime.apimachinery.meta import list_meta
from kgen.runtime.gentype import DEFAULT_PAGE_SIZE

PAGE_SIZE = DEFAULT_PAGE_SIZE
"""The page size of a paginated list (client-go's defaultPageSize, 500)."""


class ListPager:
    """client-go's tools/pager, without the I/O: the options of each page to ask for, and what
    the pages add up to.

    Continue pages drop the resourceVersion (the server refuses both at once). If the snapshot
    behind a continue token expires (410 on page 2 or later), one unpaged list at the requested
    resourceVersion replaces the pages gathered so far (FullListIfExpired).
    """

    def __init__(self, resource_version: str, limit: int) -> None:
        self.resource_version = resource_version
        self.limit = limit
        self.items: list[Any] = []
        self.list_resource_version = ""
        self.paginated = False
        self._token = ""
        self._full_list = False

    @staticmethod
    def _options(resource_version: str, limit: int, token: str) -> dict[str, Any]:
        return {"resource_version": resource_version or None, "limit": limit or None, "continue_": token or None}

    def first(self) -> dict[str, Any]:
        """The options of the first page."""
        return self._options(self.resource_version, self.limit, "")

    def received(self, page: Any) -> dict[str, Any] | None:
        """Takes a page; returns the options of the next one, or None when the list is complete."""
        items, self.list_resource_version, token = list_meta(page)
        self.items += items
        if not token or self._full_list:
            return None
        self.paginated = True
        self._token = token
        return self._options("", self.limit, token)

    def failed(self, error: BaseException) -> dict[str, Any]:
        """The options of the unpaged list that replaces expired pages; else raises ``error``."""
        if not isinstance(error, Expired) or not self._token or self._full_list:
            raise error
        self._full_list = True
        self.items = []
        return self._options(self.resource_version, 0, "")
