"""ShardingAttr: XLA sharding syntax in MLIR and HLO text, tile queries, replication groups."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer

from neuron_cc.dialects.sharding import ShardingAttr, ShardingSyntaxError
from neuron_cc.spmd.reshard import partition_groups_for_replication
from neuron_cc.testing.ir import neuron_context as _context

CORPUS = Path(__file__).parent / "corpus" / "jax"

FORMS = [
    "{replicated}",
    "{manual}",
    "{maximal device=3}",
    "{devices=[2,1]0,1}",
    "{devices=[2,2]<=[4]}",
    "{devices=[4,2]<=[2,4]T(1,0)}",
    "{devices=[2,1,4]<=[8] last_tile_dim_replicate}",
    "{devices=[2,1,2]3,2,1,0 last_tile_dim_replicate}",
    "{{devices=[2,4]<=[8]}, {replicated}}",
    "{{replicated}, {{maximal device=0}, {devices=[2]1,0}}}",
]


def _print(module: ModuleOp, generic: bool = False) -> str:
    import io

    stream = io.StringIO()
    Printer(stream=stream, print_generic_format=generic).print_op(module)
    return stream.getvalue()


@pytest.mark.parametrize("text", FORMS)
def test_hlo_text_round_trip(text: str) -> None:
    assert ShardingAttr.from_hlo_text(text).to_hlo_text() == text


@pytest.mark.parametrize("text", FORMS)
def test_mlir_round_trip(text: str) -> None:
    source = f'"test.op"() {{s = #hlo.sharding<{text}>}} : () -> ()'
    module = Parser(_context(), source).parse_module()
    attr = next(iter(module.ops)).attributes["s"]
    assert attr == ShardingAttr.from_hlo_text(text)
    for generic in (False, True):
        printed = _print(module, generic)
        assert f"#hlo.sharding<{text}>" in printed
        assert Parser(_context(), printed).parse_module().is_structurally_equivalent(module)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{devices=[2,2]0,1,2}", "needs 4 devices"),
        ("{devices=[2,2]<=[8]}", "do not hold 4 devices"),
        ("{devices=[2,2]<=[2,2]T(0,0)}", "is not a permutation"),
        ("{devices=[2]0,1 last_tile_dims={manual}}", "unsupported sharding field"),
        ("{bogus}", "unsupported sharding 'bogus'"),
        ("{replicated} x", "trailing text"),
    ],
)
def test_bad_text(text: str, message: str) -> None:
    with pytest.raises(ShardingSyntaxError, match=re.escape(message)):
        ShardingAttr.from_hlo_text(text)


def test_bad_mlir() -> None:
    with pytest.raises(Exception, match="needs 4 devices"):
        Parser(
            _context(), '"test.op"() {s = #hlo.sharding<{devices=[2,2]0,1}>} : () -> ()'
        ).parse_module()


def _corpus_shardings() -> list[str]:
    found: set[str] = set()
    for path in sorted(CORPUS.glob("*/*.hlo")):
        for line in path.read_text().splitlines():
            start = line.find("sharding={")
            if start < 0:
                continue
            i, depth = start + len("sharding="), 0
            for j in range(i, len(line)):
                depth += {"{": 1, "}": -1}.get(line[j], 0)
                if depth == 0:
                    found.add(line[i : j + 1])
                    break
    return sorted(found)


def test_corpus_shardings_round_trip() -> None:
    shardings = _corpus_shardings()
    assert len(shardings) >= 10
    for text in shardings:
        assert ShardingAttr.from_hlo_text(text).to_hlo_text() == text


def test_tile_queries() -> None:
    s = ShardingAttr.from_hlo_text("{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}")
    assert s.is_tiled
    assert not s.is_replicated
    assert s.is_iota
    assert s.tile_dims == (4, 1)
    assert s.replication_factor == 2
    assert s.num_tiles == 4
    expected = np.arange(8).reshape(2, 4).T.reshape(4, 1, 2)
    assert np.array_equal(s.tile_assignment(), expected)
    assert s.device_tile_index(5) == (1, 0)
    assert s.device_tile_index(3) == (3, 0)
    explicit = ShardingAttr.from_hlo_text(
        "{devices=[4,1,2]0,4,1,5,2,6,3,7 last_tile_dim_replicate}"
    )
    assert explicit.same_placement(s)
    assert not explicit.is_iota
    assert ShardingAttr.from_hlo_text("{replicated}").is_replicated
    assert ShardingAttr.from_hlo_text(
        "{devices=[1,1,4]<=[4] last_tile_dim_replicate}"
    ).is_replicated
    assert ShardingAttr.from_hlo_text("{maximal device=2}").is_maximal
    with pytest.raises(ValueError, match="not in sharding"):
        s.device_tile_index(8)


def test_builders() -> None:
    assert ShardingAttr.tiled([2, 2]).to_hlo_text() == "{devices=[2,2]<=[4]}"
    assert ShardingAttr.tiled([2, 1], [1, 0]).to_hlo_text() == "{devices=[2,1]1,0}"
    text = ShardingAttr.tiled([2, 2], iota_dims=[2, 2], iota_perm=[1, 0], replicate_last=True)
    assert text.to_hlo_text() == "{devices=[2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"
    assert ShardingAttr.replicated().to_hlo_text() == "{replicated}"
    assert ShardingAttr.maximal(1).to_hlo_text() == "{maximal device=1}"


def _groups(text: str, dims: list[int], iota: bool = True) -> str:
    attr = partition_groups_for_replication(ShardingAttr.from_hlo_text(text), dims, iota)
    import io

    stream = io.StringIO()
    attr.print_body(Printer(stream=stream))
    return stream.getvalue()


@pytest.mark.parametrize(
    ("text", "dims", "explicit", "iota"),
    [
        ("{devices=[2,2]<=[4]}", [0], "[[0, 2], [1, 3]]", "[2,2]<=[2,2]T(1,0)"),
        ("{devices=[2,2]<=[4]}", [1], "[[0, 1], [2, 3]]", "[2,2]<=[4]"),
        ("{devices=[2,2]<=[4]}", [0, 1], "[[0, 1, 2, 3]]", "[1,4]<=[4]"),
        ("{devices=[2,2]0,1,2,3}", [0], "[[0, 2], [1, 3]]", "[2,2]<=[2,2]T(1,0)"),
        (
            "{devices=[2,1,4]<=[8] last_tile_dim_replicate}",
            [0],
            "[[0, 4], [1, 5], [2, 6], [3, 7]]",
            "[4,2]<=[2,4]T(1,0)",
        ),
        ("{devices=[2,2]3,1,2,0}", [1], "[[3, 1], [2, 0]]", "[[3, 1], [2, 0]]"),
    ],
)
def test_partition_groups_for_replication(
    text: str, dims: list[int], explicit: str, iota: str
) -> None:
    assert _groups(text, dims, iota=False) == explicit
    assert _groups(text, dims) == iota
