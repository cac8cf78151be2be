"""XLA HloSharding as an attribute: `#hlo.sharding<{devices=[2,2]<=[4]}>`.

The body is XLA's own text syntax, so a sharding reads the same in an HLO dump and in MLIR:

- `{replicated}`, `{manual}`, `{maximal device=3}`;
- tiled with an explicit tile assignment `{devices=[2,1]0,1}` or an iota one
  `{devices=[2,2]<=[4]}` / `{devices=[4,2]<=[2,4]T(1,0)}` (= arange(8).reshape(2,4).T reshaped to
  the tile shape), optionally `last_tile_dim_replicate` (the last tile dimension replicates);
- tuple shardings `{{replicated}, {devices=[2]0,1}}`.

(It imports nothing from the hlo dialect package, which registers it: no import cycle.)
The HLO translator keeps an instruction's `sharding=` as the raw string attribute `xla.sharding`
(so text round trips stay byte-identical); `ShardingAttr.from_hlo_text(raw)` / `to_hlo_text()`
convert between that string and this attribute.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import numpy as np
from xdsl.ir import Data
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer

Kind = Literal["replicated", "manual", "maximal", "tiled", "tuple"]
IntArray = np.ndarray[Any, np.dtype[np.int64]]


class ShardingSyntaxError(ValueError):
    """A sharding string that is not XLA's sharding syntax (or uses an unsupported feature)."""


@dataclass(frozen=True)
class Sharding:
    """One XLA sharding. `tile_shape` includes the replication dim when `replicate_last`."""

    kind: Kind
    device: int = 0
    tile_shape: tuple[int, ...] = ()
    explicit_devices: tuple[int, ...] | None = None
    iota_dims: tuple[int, ...] = ()
    iota_perm: tuple[int, ...] = ()
    replicate_last: bool = False
    elements: tuple[Sharding, ...] = ()

    def problem(self) -> str | None:
        """Why this sharding is malformed, or None."""
        if self.kind != "tiled":
            return None
        count = int(np.prod(self.tile_shape, dtype=np.int64))
        if any(d <= 0 for d in self.tile_shape):
            return f"tile shape {list(self.tile_shape)} has a non-positive dimension"
        if self.explicit_devices is not None:
            if len(self.explicit_devices) != count:
                return f"tile shape {list(self.tile_shape)} needs {count} devices"
            return None
        if int(np.prod(self.iota_dims, dtype=np.int64)) != count:
            return f"iota dims {list(self.iota_dims)} do not hold {count} devices"
        if sorted(self.iota_perm) != list(range(len(self.iota_dims))):
            return f"iota transpose {list(self.iota_perm)} is not a permutation"
        return None

    def text(self) -> str:
        """XLA's text form (what `HloSharding::ToString` prints)."""
        if self.kind == "tuple":
            return "{" + ", ".join(e.text() for e in self.elements) + "}"
        if self.kind == "maximal":
            return f"{{maximal device={self.device}}}"
        if self.kind != "tiled":
            return "{" + self.kind + "}"
        body = "devices=[" + ",".join(map(str, self.tile_shape)) + "]"
        if self.explicit_devices is not None:
            body += ",".join(map(str, self.explicit_devices))
        else:
            body += "<=[" + ",".join(map(str, self.iota_dims)) + "]"
            if self.iota_perm != tuple(range(len(self.iota_dims))):
                body += "T(" + ",".join(map(str, self.iota_perm)) + ")"
        if self.replicate_last:
            body += " last_tile_dim_replicate"
        return "{" + body + "}"


# ---------------------------------------------------------------------------
# One grammar, two token sources (MLIR's AttrParser and raw HLO text)
# ---------------------------------------------------------------------------


class _Tokens(Protocol):
    def punct(self, p: str) -> None: ...
    def opt_punct(self, p: str) -> bool: ...
    def integer(self) -> int: ...
    def opt_integer(self) -> int | None: ...
    def opt_keyword(self) -> str | None: ...
    def opt_named(self, keyword: str) -> bool: ...
    def error(self, message: str) -> ShardingSyntaxError: ...


class _TextTokens:
    _TOKEN = re.compile(r"\s*(\d+|[A-Za-z_][A-Za-z_0-9.]*|\S)")

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[str] = self._TOKEN.findall(text)
        self.pos = 0

    def _peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def error(self, message: str) -> ShardingSyntaxError:
        return ShardingSyntaxError(f"invalid sharding '{self.text}': {message}")

    def opt_punct(self, p: str) -> bool:
        if self._peek() == p:
            self.pos += 1
            return True
        return False

    def punct(self, p: str) -> None:
        if not self.opt_punct(p):
            raise self.error(f"expected '{p}', got '{self._peek() or 'end of text'}'")

    def opt_integer(self) -> int | None:
        token = self._peek()
        if token is None or not token.isdigit():
            return None
        self.pos += 1
        return int(token)

    def integer(self) -> int:
        value = self.opt_integer()
        if value is None:
            raise self.error(f"expected an integer, got '{self._peek() or 'end of text'}'")
        return value

    def opt_keyword(self) -> str | None:
        token = self._peek()
        if token is None or not (token[0].isalpha() or token[0] == "_"):
            return None
        self.pos += 1
        return token

    def opt_named(self, keyword: str) -> bool:
        return self.opt_punct(keyword)

    def at_end(self) -> bool:
        return self.pos == len(self.tokens)


class _MlirTokens:
    def __init__(self, parser: AttrParser) -> None:
        self.parser = parser

    def error(self, message: str) -> ShardingSyntaxError:
        return ShardingSyntaxError(message)

    def opt_punct(self, p: str) -> bool:
        return self.parser.parse_optional_punctuation(p) is not None  # pyright: ignore[reportArgumentType]

    def punct(self, p: str) -> None:
        self.parser.parse_punctuation(p)  # pyright: ignore[reportArgumentType]

    def opt_integer(self) -> int | None:
        return self.parser.parse_optional_integer(allow_boolean=False, allow_negative=False)

    def integer(self) -> int:
        return self.parser.parse_integer(allow_boolean=False, allow_negative=False)

    def opt_keyword(self) -> str | None:
        return self.parser.parse_optional_identifier()

    def opt_named(self, keyword: str) -> bool:
        return self.parser.parse_optional_keyword(keyword) is not None


def _int_list(tokens: _Tokens, close: str) -> tuple[int, ...]:
    values = [tokens.integer()]
    while tokens.opt_punct(","):
        values.append(tokens.integer())
    tokens.punct(close)
    return tuple(values)


def _parse_tiled(tokens: _Tokens) -> Sharding:
    tokens.punct("=")
    tokens.punct("[")
    tile = _int_list(tokens, "]")
    explicit: tuple[int, ...] | None = None
    dims: tuple[int, ...] = ()
    perm: tuple[int, ...] = ()
    if tokens.opt_punct("<"):
        tokens.punct("=")
        tokens.punct("[")
        dims = _int_list(tokens, "]")
        perm = tuple(range(len(dims)))
        if tokens.opt_named("T"):
            tokens.punct("(")
            perm = _int_list(tokens, ")")
    else:
        first = tokens.integer()
        rest: list[int] = [first]
        while tokens.opt_punct(","):
            rest.append(tokens.integer())
        explicit = tuple(rest)
    replicate = False
    keyword = tokens.opt_keyword()
    if keyword == "last_tile_dim_replicate":
        replicate = True
    elif keyword is not None:
        raise tokens.error(f"unsupported sharding field '{keyword}'")
    tokens.punct("}")
    sharding = Sharding("tiled", 0, tile, explicit, dims, perm, replicate)
    problem = sharding.problem()
    if problem is not None:
        raise tokens.error(problem)
    return sharding


def _parse_sharding(tokens: _Tokens) -> Sharding:
    tokens.punct("{")
    return _parse_after_brace(tokens)


def _parse_after_brace(tokens: _Tokens) -> Sharding:
    if tokens.opt_punct("{"):
        return _parse_tuple(tokens)
    if tokens.opt_punct("}"):
        return Sharding("tuple")
    keyword = tokens.opt_keyword()
    if keyword in ("replicated", "manual"):
        tokens.punct("}")
        return Sharding("replicated" if keyword == "replicated" else "manual")
    if keyword == "maximal":
        if tokens.opt_keyword() != "device":
            raise tokens.error("expected 'device=' after 'maximal'")
        tokens.punct("=")
        device = tokens.integer()
        tokens.punct("}")
        return Sharding("maximal", device)
    if keyword == "devices":
        return _parse_tiled(tokens)
    raise tokens.error(f"unsupported sharding '{keyword}'")


def _parse_tuple(tokens: _Tokens) -> Sharding:
    """After `{{`: the first element's body, more elements, then the closing `}`."""
    elements = [_parse_after_brace(tokens)]
    while tokens.opt_punct(","):
        elements.append(_parse_sharding(tokens))
    tokens.punct("}")
    return Sharding("tuple", elements=tuple(elements))


# ---------------------------------------------------------------------------
# The attribute
# ---------------------------------------------------------------------------


@irdl_attr_definition
class ShardingAttr(Data[Sharding]):
    """XLA's HloSharding in its own text syntax: `#hlo.sharding<{devices=[2,1]0,1}>`.

    `tile_assignment()` is the ndarray of device ids (one per tile, in tile-shape order, the last
    axis being the replication axis under `last_tile_dim_replicate`).
    """

    name = "hlo.sharding"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Sharding:
        with parser.in_angle_brackets():
            return cls.parse_body(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            self.print_body(printer)

    @classmethod
    def parse_body(cls, parser: AttrParser) -> Sharding:
        try:
            return _parse_sharding(_MlirTokens(parser))
        except ShardingSyntaxError as e:
            parser.raise_error(str(e))

    def print_body(self, printer: Printer) -> None:
        printer.print_string(self.data.text())

    # -- construction ------------------------------------------------------------------------

    @staticmethod
    def from_hlo_text(raw: str) -> ShardingAttr:
        """Parse XLA's `sharding=` text (as kept in the `xla.sharding` string attribute)."""
        tokens = _TextTokens(raw)
        sharding = _parse_sharding(tokens)
        if not tokens.at_end():
            raise tokens.error("trailing text")
        return ShardingAttr(sharding)

    def to_hlo_text(self) -> str:
        return self.data.text()

    @staticmethod
    def replicated() -> ShardingAttr:
        return ShardingAttr(Sharding("replicated"))

    @staticmethod
    def maximal(device: int) -> ShardingAttr:
        return ShardingAttr(Sharding("maximal", device))

    @staticmethod
    def tiled(
        tile_shape: Sequence[int],
        devices: Sequence[int] | None = None,
        *,
        iota_dims: Sequence[int] | None = None,
        iota_perm: Sequence[int] | None = None,
        replicate_last: bool = False,
    ) -> ShardingAttr:
        """Explicit `devices`, else an iota assignment (default `<=[prod(tile_shape)]`)."""
        tile = tuple(tile_shape)
        if devices is not None:
            return ShardingAttr(Sharding("tiled", 0, tile, tuple(devices), (), (), replicate_last))
        dims = tuple(iota_dims) if iota_dims is not None else (int(np.prod(tile)),)
        perm = tuple(iota_perm) if iota_perm is not None else tuple(range(len(dims)))
        return ShardingAttr(Sharding("tiled", 0, tile, None, dims, perm, replicate_last))

    # -- queries -----------------------------------------------------------------------------

    @property
    def is_replicated(self) -> bool:
        """Every device holds the whole value (also a tiling with one tile per data dim)."""
        if self.data.kind == "replicated":
            return True
        return self.is_tiled and all(d == 1 for d in self.tile_dims)

    @property
    def is_tiled(self) -> bool:
        return self.data.kind == "tiled"

    @property
    def is_maximal(self) -> bool:
        return self.data.kind == "maximal"

    @property
    def is_iota(self) -> bool:
        return self.is_tiled and self.data.explicit_devices is None

    @property
    def tile_dims(self) -> tuple[int, ...]:
        """The tile counts of the data dimensions (without the replication dim)."""
        shape = self.data.tile_shape
        return shape[:-1] if self.data.replicate_last else shape

    @property
    def replication_factor(self) -> int:
        """Devices holding each tile (1 for a plain tiling)."""
        return self.data.tile_shape[-1] if self.data.replicate_last else 1

    @property
    def num_tiles(self) -> int:
        return int(np.prod(self.tile_dims, dtype=np.int64))

    def tile_assignment(self) -> IntArray:
        """Device ids, shaped like the full tile shape (incl. a trailing replication dim)."""
        data = self.data
        if data.kind != "tiled":
            raise ValueError(f"sharding {data.text()} has no tile assignment")
        if data.explicit_devices is not None:
            flat = np.array(data.explicit_devices, dtype=np.int64)
        else:
            count = int(np.prod(data.iota_dims, dtype=np.int64))
            flat = np.arange(count, dtype=np.int64).reshape(data.iota_dims)
            flat = flat.transpose(data.iota_perm).reshape(-1)
        return flat.reshape(data.tile_shape)

    def tile_assignment_with_replication(self) -> IntArray:
        """The tile assignment with an explicit trailing replication axis (size 1 if none)."""
        ta = self.tile_assignment()
        return ta if self.data.replicate_last else ta.reshape(*ta.shape, 1)

    def device_tile_index(self, device: int) -> tuple[int, ...]:
        """The data-dim tile index of `device` (without the replication index)."""
        hits = np.argwhere(self.tile_assignment_with_replication() == device)
        if hits.size == 0:
            raise ValueError(f"device {device} is not in sharding {self.data.text()}")
        return tuple(int(i) for i in hits[0][:-1])

    def same_placement(self, other: ShardingAttr) -> bool:
        """Same kind, tiles and device placement (spelling of the assignment may differ)."""
        if self.data.kind != other.data.kind:
            return False
        if not self.is_tiled:
            return self.data == other.data
        return (
            self.data.tile_shape == other.data.tile_shape
            and (self.data.replicate_last == other.data.replicate_last)
            and bool(np.array_equal(self.tile_assignment(), other.tile_assignment()))
        )


ATTRS = [ShardingAttr]
