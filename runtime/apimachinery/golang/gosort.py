"""Go's ``sort.SliceStable`` (sort/zsortfunc.go: insertion sort in blocks of 20, then SymMerge) and
``sort.Sort`` (pdqsort, sort/zsortinterface.go), step by step. Needed where Go code sorts with a
``less`` that is not a strict weak order (strategicpatch's normalizeSliceOrder, and its scalar and
merge-key sorts, whose ``less`` is ``<=`` on ``%v`` strings), or where items that compare equal
differ: the result then depends on the algorithm, so only the same algorithm gives the same order."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

__all__ = ["slice_stable", "sort_unstable"]


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


# -- sort.Sort: pattern-defeating quicksort (Go >= 1.19, sort/zsortinterface.go) --------------------

_MASK64 = (1 << 64) - 1


def sort_unstable(items: list[T], less: Callable[[T, T], bool]) -> list[T]:
    """``items`` sorted in place, as ``sort.Sort`` (and ``sort.Slice``) sorts them; returns it.

    Go's unstable sort is pdqsort with a deterministic pattern breaker (an xorshift seeded by the
    length), so for a given ``less`` its result is a function of the input. Where ``less`` is not
    a strict weak order (strategicpatch's scalar sort answers true for equal strings), or where
    items that compare equal differ, only the same steps give the same order."""
    n = len(items)
    if n > 1:
        _Pdq(items, less).pdqsort(0, n, n.bit_length())
    return items


_UNKNOWN, _INCREASING, _DECREASING = 0, 1, 2


class _Pdq(_Sorter):
    def pdqsort(self, a: int, b: int, limit: int) -> None:
        was_balanced = was_partitioned = True
        while True:
            length = b - a
            if length <= 12:
                self.insertion_sort(a, b)
                return
            if limit == 0:
                self.heap_sort(a, b)
                return
            if not was_balanced:
                self.break_patterns(a, b)
                limit -= 1
            pivot, hint = self.choose_pivot(a, b)
            if hint == _DECREASING:
                self.reverse_range(a, b)
                pivot = (b - 1) - (pivot - a)
                hint = _INCREASING
            if was_balanced and was_partitioned and hint == _INCREASING:
                if self.partial_insertion_sort(a, b):
                    return
            if a > 0 and not self.less(a - 1, pivot):
                a = self.partition_equal(a, b, pivot)
                continue
            mid, was_partitioned = self.partition(a, b, pivot)
            left, right = mid - a, b - mid
            threshold = length // 8
            if left < right:
                was_balanced = left >= threshold
                self.pdqsort(a, mid, limit)
                a = mid + 1
            else:
                was_balanced = right >= threshold
                self.pdqsort(mid + 1, b, limit)
                b = mid

    def sift_down(self, lo: int, hi: int, first: int) -> None:
        root = lo
        while True:
            child = 2 * root + 1
            if child >= hi:
                return
            if child + 1 < hi and self.less(first + child, first + child + 1):
                child += 1
            if not self.less(first + root, first + child):
                return
            self.swap(first + root, first + child)
            root = child

    def heap_sort(self, a: int, b: int) -> None:
        first, hi = a, b - a
        for i in range((hi - 1) // 2, -1, -1):
            self.sift_down(i, hi, first)
        for i in range(hi - 1, -1, -1):
            self.swap(first, first + i)
            self.sift_down(0, i, first)

    def partition(self, a: int, b: int, pivot: int) -> tuple[int, bool]:
        self.swap(a, pivot)
        i, j = a + 1, b - 1
        while i <= j and self.less(i, a):
            i += 1
        while i <= j and not self.less(j, a):
            j -= 1
        if i > j:
            self.swap(j, a)
            return j, True
        self.swap(i, j)
        i, j = i + 1, j - 1
        while True:
            while i <= j and self.less(i, a):
                i += 1
            while i <= j and not self.less(j, a):
                j -= 1
            if i > j:
                break
            self.swap(i, j)
            i, j = i + 1, j - 1
        self.swap(j, a)
        return j, False

    def partition_equal(self, a: int, b: int, pivot: int) -> int:
        self.swap(a, pivot)
        i, j = a + 1, b - 1
        while True:
            while i <= j and not self.less(a, i):
                i += 1
            while i <= j and self.less(a, j):
                j -= 1
            if i > j:
                return i
            self.swap(i, j)
            i, j = i + 1, j - 1

    def partial_insertion_sort(self, a: int, b: int) -> bool:
        i = a + 1
        for _ in range(5):
            while i < b and not self.less(i, i - 1):
                i += 1
            if i == b:
                return True
            if b - a < 50:
                return False
            self.swap(i, i - 1)
            if i - a >= 2:
                for j in range(i - 1, 0, -1):
                    if not self.less(j, j - 1):
                        break
                    self.swap(j, j - 1)
            if b - i >= 2:
                for j in range(i + 1, b):
                    if not self.less(j, j - 1):
                        break
                    self.swap(j, j - 1)
        return False

    def break_patterns(self, a: int, b: int) -> None:
        length = b - a
        if length < 8:
            return
        state = length
        modulus = 1 << length.bit_length()
        for idx in range(a + (length // 4) * 2 - 1, a + (length // 4) * 2 + 2):
            state ^= (state << 13) & _MASK64
            state ^= state >> 7
            state ^= (state << 17) & _MASK64
            other = state & (modulus - 1)
            if other >= length:
                other -= length
            self.swap(idx, a + other)

    def choose_pivot(self, a: int, b: int) -> tuple[int, int]:
        length = b - a
        swaps = [0]
        i, j, k = a + length // 4, a + length // 4 * 2, a + length // 4 * 3
        if length >= 8:
            if length >= 50:
                i = self.median(i - 1, i, i + 1, swaps)
                j = self.median(j - 1, j, j + 1, swaps)
                k = self.median(k - 1, k, k + 1, swaps)
            j = self.median(i, j, k, swaps)
        if swaps[0] == 0:
            return j, _INCREASING
        if swaps[0] == 12:
            return j, _DECREASING
        return j, _UNKNOWN

    def median(self, a: int, b: int, c: int, swaps: list[int]) -> int:
        a, b = self.order2(a, b, swaps)
        b, c = self.order2(b, c, swaps)
        a, b = self.order2(a, b, swaps)
        return b

    def order2(self, a: int, b: int, swaps: list[int]) -> tuple[int, int]:
        if self.less(b, a):
            swaps[0] += 1
            return b, a
        return a, b

    def reverse_range(self, a: int, b: int) -> None:
        i, j = a, b - 1
        while i < j:
            self.swap(i, j)
            i, j = i + 1, j - 1
