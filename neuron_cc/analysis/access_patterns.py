"""Access-pattern geometry of the bir collectives (convert-hlo-to-bir, docs/dialects.md §4).

An access pattern is `(offset, pairs)` over the FLAT row-major element index of one device's
tensor; `pairs` are `(step, num)` outermost first, and element k of the pattern (mixed radix over
the nums) lives at `offset + sum(i_j * step_j)`.

Conventions (S = the buffer's shape, stride_i = row-major stride of dim i):

- row-major: `[(stride_i, S_i) for every dim i]`, offset 0; a rank-0 tensor is `[(1, 1)]`.
- chunked over dim d with group size n (the collective dimension, outermost): with
  c = S_d / n, `[(c * stride_d, n)] + [(stride_i, C_i) for every dim i]` where C = S with
  C_d = c. Element (j, rest...) is element `rest` of chunk j (the chunk of rank j).
  Example: tensor<8x32xf32> chunked on dim 1 over 8 ranks -> `[(4, 8), (32, 8), (1, 4)]`.
- tiles: the chunk (the whole buffer when not chunked) is cut along its OUTERMOST dimension C_0
  into `tiles` row ranges (numpy.array_split sizes: the first `C_0 % tiles` tiles get one extra
  row); the tile of rows [r, r + k) is the pattern above with C_0 replaced by k and offset
  `r * stride_0`. A rank-0 buffer is a single tile.
"""

from __future__ import annotations

from collections.abc import Sequence

Pairs = tuple[tuple[int, int], ...]
Pattern = tuple[int, Pairs]
"""(offset, ((step, num), ...)) outermost first."""


def row_major_strides(shape: Sequence[int]) -> list[int]:
    """Element strides of a row-major tensor of `shape`."""
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    return strides


def tile_rows(rows: int, tiles: int) -> list[tuple[int, int]]:
    """(first row, row count) of each tile, numpy.array_split sizes."""
    base, extra = divmod(rows, tiles)
    result: list[tuple[int, int]] = []
    start = 0
    for t in range(tiles):
        count = base + (1 if t < extra else 0)
        result.append((start, count))
        start += count
    return result


def chunk_shape(shape: Sequence[int], dim: int | None, n: int) -> list[int]:
    """The per-rank chunk of `shape` (dim `dim` divided by `n`), or `shape` when dim is None."""
    chunk = list(shape)
    if dim is not None:
        chunk[dim] //= n
    return chunk


def patterns(
    shape: Sequence[int], dim: int | None = None, n: int = 1, tiles: int = 1
) -> list[Pattern]:
    """The pattern of every tile of a buffer (one pattern when `tiles` is 1).

    `dim` None: row-major; otherwise chunked over `dim` with group size `n` (module docstring).
    """
    if not shape:
        return [(0, ((1, 1),))]
    strides = row_major_strides(shape)
    chunk = chunk_shape(shape, dim, n)
    outer: list[tuple[int, int]] = []
    if dim is not None:
        outer.append((chunk[dim] * strides[dim], n))
    result: list[Pattern] = []
    for start, count in tile_rows(chunk[0], min(tiles, max(chunk[0], 1))):
        dims = [count, *chunk[1:]]
        pairs = (*outer, *zip(strides, dims, strict=True))
        result.append((start * strides[0], tuple(pairs)))
    return result


def row_major(shape: Sequence[int]) -> Pattern:
    """The plain row-major pattern of `shape`."""
    return patterns(shape)[0]


def chunked(shape: Sequence[int], dim: int, n: int) -> Pattern:
    """The pattern of `shape` with the collective dimension `dim` (group size n) outermost."""
    return patterns(shape, dim, n)[0]


def tile_count(largest_bytes: int, tile_bytes: int, chunk_rows: Sequence[int]) -> int:
    """Tiles of a collective: ceil(largest buffer / tile_bytes), at most the fewest chunk rows."""
    wanted = -(-largest_bytes // tile_bytes)
    return max(1, min([wanted, *chunk_rows]))
