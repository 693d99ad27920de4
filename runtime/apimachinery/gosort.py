"""Go's ``sort.SliceStable``, step by step (sort/zsortfunc.go: insertion sort in blocks of 20, then
SymMerge). Needed where Go code sorts with a ``less`` that is not a strict weak order
(strategicpatch's normalizeSliceOrder): the result then depends on the algorithm, so only the
same algorithm gives the same order."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

__all__ = ["slice_stable"]


def slice_stable(items: list[T], less: Callable[[T, T], bool]) -> list[T]:
    """``items`` sorted in place, as ``sort.SliceStable(items, less)`` sorts them; returns it."""
    s = _Sorter(items, less)
    n, block = len(items), 20
    a, b = 0, block
    while b <= n:
        s.insertion_sort(a, b)
        a, b = b, b + block
    s.insertion_sort(a, n)
    while block < n:
        a, b = 0, 2 * block
        while b <= n:
            s.sym_merge(a, a + block, b)
            a, b = b, b + 2 * block
        m = a + block
        if m < n:
            s.sym_merge(a, m, n)
        block *= 2
    return items


class _Sorter:
    def __init__(self, data: list[Any], less: Callable[[Any, Any], bool]) -> None:
        self.data, self._less = data, less

    def less(self, i: int, j: int) -> bool:
        return self._less(self.data[i], self.data[j])

    def swap(self, i: int, j: int) -> None:
        self.data[i], self.data[j] = self.data[j], self.data[i]

    def insertion_sort(self, a: int, b: int) -> None:
        for i in range(a + 1, b):
            j = i
            while j > a and self.less(j, j - 1):
                self.swap(j, j - 1)
                j -= 1

    def sym_merge(self, a: int, m: int, b: int) -> None:
        if m - a == 1:
            i, j = m, b
            while i < j:
                h = (i + j) >> 1
                if self.less(h, a):
                    i = h + 1
                else:
                    j = h
            for k in range(a, i - 1):
                self.swap(k, k + 1)
            return
        if b - m == 1:
            i, j = a, m
            while i < j:
                h = (i + j) >> 1
                if not self.less(m, h):
                    i = h + 1
                else:
                    j = h
            for k in range(m, i, -1):
                self.swap(k, k - 1)
            return
        mid = (a + b) >> 1
        n = mid + m
        if m > mid:
            start, r = n - b, mid
        else:
            start, r = a, m
        p = n - 1
        while start < r:
            c = (start + r) >> 1
            if not self.less(p - c, c):
                start = c + 1
            else:
                r = c
        end = n - start
        if start < m < end:
            self.rotate(start, m, end)
        if a < start < mid:
            self.sym_merge(a, start, mid)
        if mid < end < b:
            self.sym_merge(mid, end, b)

    def rotate(self, a: int, m: int, b: int) -> None:
        i, j = m - a, b - m
        while i != j:
            if i > j:
                self.swap_range(m - i, m, j)
                i -= j
            else:
                self.swap_range(m - i, m + j - i, i)
                j -= i
        self.swap_range(m - i, m, i)

    def swap_range(self, a: int, b: int, n: int) -> None:
        for i in range(n):
            self.swap(a + i, b + i)
