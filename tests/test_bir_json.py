"""Tests of the BIR JSON export (`neuron_cc.translate.bir_json`) and its schema.

- unit tests: every opcode and every field, built from generic-form bir MLIR (the property order
  written in the text is the key order of the JSON object);
- the schema (`neuron_cc/translate/bir_schema.json`, JSON Schema draft 2020-12) accepts every
  emitted document and rejects documents that break a field rule;
- the command lines `neuron-translate --bir-to-json` and `neuron-opt --emit bir-json`, with errors;
- the corpus: every `tests/corpus/jax/*/spmd.hlo` through `convert-hlo-to-bir` exports a document
  the schema accepts, and three of them are compared exactly with golden files.

Regenerating the golden files (after a deliberate change of the lowering or the export; review
the diff before keeping it):

    for c in jit_auto_megatron_mlp reduce_scatter_variants_2x4 ppermute_ring_loop; do
      .venv/bin/neuron-opt tests/corpus/jax/$c/spmd.hlo -p convert-hlo-to-bir --emit bir-json \\
        -o tests/golden/bir/$c.json
    done
"""

from __future__ import annotations

import functools
import json
import re
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64
from xdsl.ir import Operation
from xdsl.parser import Parser

from neuron_cc.testing.ir import neuron_context
from neuron_cc.tools.registry import available_dialects, available_passes
from neuron_cc.translate.bir_json import BirJsonError, bir_schema, bir_to_json
from neuron_cc.translate.hlo_text.importer import import_hlo

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus" / "jax"
GOLDEN = ROOT / "tests" / "golden" / "bir"
CASES = sorted(p.parent.name for p in CORPUS.glob("*/spmd.hlo"))
GOLDEN_CASES = ("jit_auto_megatron_mlp", "reduce_scatter_variants_2x4", "ppermute_ring_loop")


_context = functools.cache(neuron_context)
"""One context for the whole file (building it registers every dialect)."""


def parse(src: str) -> ModuleOp:
    module = Parser(_context(), src).parse_module()
    module.verify()
    return module


@functools.cache
def validator() -> jsonschema.Draft202012Validator:
    schema = bir_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def export(src: str) -> list[dict[str, Any]]:
    """Export, check the text is deterministic and schema-valid, and return the parsed list."""
    module = parse(src)
    text = bir_to_json(module)
    assert text.endswith("]\n")
    assert text == bir_to_json(module.clone())
    document = json.loads(text)
    validator().validate(document)
    return document


def func(body: str, args: str = "%x: tensor<8xf32>", devices: int = 8) -> str:
    """A module of `devices` partitions holding one function with `body`."""
    return (
        f"builtin.module attributes {{hlo.num_partitions = {devices} : i64}} {{\n"
        f"func.func @f({args}) {{\n{body}\n  func.return\n}}\n}}"
    )


KIND = "#bir<collective_kind {}>"
ALU = "#bir<alu_op {}>"
HINT = "#bir<cc_type_hint {}>"
ENGINE = "#bir<engine {}>"
ROW8 = "[#bir.ap<0, [[1, 8]]>]"


def ap(offset: int, pattern: list[list[int]]) -> dict[str, Any]:
    return {"offset": offset, "pattern": pattern}


ALL_REDUCE = func(
    '  %0 = "bir.collective_compute"(%x) <{op = '
    + ALU.format("add")
    + ", replica_groups = #hlo.replica_groups<[2,4]<=[4,2]T(1,0)>, kind = "
    + KIND.format("AllReduce")
    + f", stream_id = 0 : i64, input_aps = {ROW8}, output_aps = {ROW8}}}>"
    " : (tensor<8xf32>) -> tensor<8xf32>"
)


def test_all_reduce_fields_with_iota_groups_expanded() -> None:
    [node] = export(ALL_REDUCE)
    assert list(node) == [
        "opcode",
        "inst_type",
        "op",
        "replica_groups",
        "kind",
        "stream_id",
        "access_patterns",
    ]
    assert node == {
        "opcode": "CollectiveCompute",
        "inst_type": 48,
        "op": "add",
        "replica_groups": [[0, 2, 4, 6], [1, 3, 5, 7]],
        "kind": "AllReduce",
        "stream_id": 0,
        "access_patterns": {"inputs": [ap(0, [[1, 8]])], "outputs": [ap(0, [[1, 8]])]},
    }


def test_custom_syntax_round_trip_exports_the_same_document() -> None:
    module = parse(ALL_REDUCE)
    reparsed = parse(str(module))
    assert [op.name for op in reparsed.walk()] == [op.name for op in module.walk()]
    op = next(o for o in reparsed.walk() if o.name == "bir.collective_compute")
    assert next(iter(op.properties)) == "kind"  # the custom syntax parses kind first ...
    assert bir_to_json(reparsed) == bir_to_json(module)  # ... the export order is fixed


def test_output_text_is_indented_json_array() -> None:
    text = bir_to_json(parse(ALL_REDUCE))
    assert text.startswith('[\n  {\n    "opcode": "CollectiveCompute",\n    "inst_type": 48,\n')
    assert text == json.dumps(json.loads(text), indent=2) + "\n"


def test_reduce_scatter_hint_qos_unique_tensors_and_dimension_ap() -> None:
    src = func(
        '  %0 = "bir.collective_compute"(%x) <{op = '
        + ALU.format("max")
        + ", replica_groups = #hlo.replica_groups<[[0, 1]]>, kind = "
        + KIND.format("ReduceScatter")
        + ", cc_type_hint = "
        + HINT.format("FSDP")
        + ', dma_qos = 3 : i64, unique_tensors_type = "shared", stream_id = 1 : i64,'
        " input_aps = [#bir.ap<0, [[4, 2], [1, 4]]>], output_aps = [#bir.ap<0, [[1, 4]]>]}>"
        " : (tensor<8xf32>) -> tensor<4xf32>",
        devices=2,
    )
    [node] = export(src)
    assert node == {
        "opcode": "CollectiveCompute",
        "inst_type": 48,
        "op": "max",
        "replica_groups": [[0, 1]],
        "kind": "ReduceScatter",
        "cc_type_hint": "FSDP",
        "dma_qos": 3,
        "unique_tensors_type": "shared",
        "stream_id": 1,
        "access_patterns": {
            "inputs": [ap(0, [[4, 2], [1, 4]])],
            "outputs": [ap(0, [[1, 4]])],
        },
    }


@pytest.mark.parametrize(("hint", "name"), [("TP", "TP"), ("NONE", "None")])
def test_all_gather_type_hint_names(hint: str, name: str) -> None:
    src = func(
        '  %0 = "bir.collective_compute"(%x) <{replica_groups = #hlo.replica_groups<[[0, 1]]>,'
        " kind = "
        + KIND.format("AllGather")
        + ", cc_type_hint = "
        + HINT.format(name)
        + ", stream_id = 0 : i64, input_aps = [#bir.ap<0, [[1, 8]]>],"
        " output_aps = [#bir.ap<0, [[8, 2], [1, 8]]>]}> : (tensor<8xf32>) -> tensor<16xf32>",
        devices=2,
    )
    [node] = export(src)
    assert node["cc_type_hint"] == name
    assert "op" not in node
    assert node["access_patterns"]["outputs"] == [ap(0, [[8, 2], [1, 8]])]


def test_all_to_all_split_count_in_canonical_order_whatever_the_property_order() -> None:
    src = func(
        '  %0 = "bir.collective_compute"(%x) <{split_count = 2 : i64, kind = '
        + KIND.format("AllToAll")
        + ", stream_id = 0 : i64, replica_groups = #hlo.replica_groups<[[0, 1]]>,"
        " input_aps = [#bir.ap<0, [[4, 2], [1, 4]]>], output_aps = [#bir.ap<0, [[4, 2], [1, 4]]>]}>"
        " : (tensor<8xf32>) -> tensor<8xf32>",
        devices=2,
    )
    [node] = export(src)
    assert list(node)[2:] == [
        "replica_groups",
        "kind",
        "stream_id",
        "split_count",
        "access_patterns",
    ]
    assert node["split_count"] == 2


def test_tiled_permute_chain_channel_and_one_ap_per_tile() -> None:
    src = func(
        '  %0 = "bir.collective_compute"(%x) <{kind = '
        + KIND.format("Permute")
        + ", permute_chain = #hlo.pairs<[[0, 1], [1, 0]]>, stream_id = 0 : i64,"
        " channel_id = 2 : i64, tiled,"
        " input_aps = [#bir.ap<0, [[1, 4]]>, #bir.ap<4, [[1, 4]]>],"
        " output_aps = [#bir.ap<0, [[1, 4]]>, #bir.ap<4, [[1, 4]]>]}>"
        " : (tensor<8xf32>) -> tensor<8xf32>",
        devices=2,
    )
    [node] = export(src)
    assert node == {
        "opcode": "CollectiveCompute",
        "inst_type": 48,
        "kind": "Permute",
        "permute_chain": [[0, 1], [1, 0]],
        "stream_id": 0,
        "channel_id": 2,
        "tiled": True,
        "access_patterns": {
            "inputs": [ap(0, [[1, 4]]), ap(4, [[1, 4]])],
            "outputs": [ap(0, [[1, 4]]), ap(4, [[1, 4]])],
        },
    }


def test_send_recv_local_fields() -> None:
    src = func(
        '  %0 = "bir.collective_compute"(%x) <{kind = '
        + KIND.format("SendRecv")
        + ", pipe_id = 5 : i64, dyn_pipe_id = 6 : i64,"
        " recv_from_rank = #hlo.dims<[1, 0, -1, -1]>, send_to_rank = #hlo.dims<[1, 0, -1, -1]>,"
        " local, initial_core_barrier, use_gpsimd_dma, dma_qos = 1 : i64,"
        f" input_aps = {ROW8}, output_aps = {ROW8}}}> : (tensor<8xf32>) -> tensor<8xf32>",
        devices=4,
    )
    [node] = export(src)
    assert node == {
        "opcode": "CollectiveCompute",
        "inst_type": 48,
        "kind": "SendRecv",
        "pipe_id": 5,
        "dyn_pipe_id": 6,
        "recv_from_rank": [1, 0, -1, -1],
        "send_to_rank": [1, 0, -1, -1],
        "local": True,
        "initial_core_barrier": True,
        "use_gpsimd_dma": True,
        "dma_qos": 1,
        "access_patterns": {"inputs": [ap(0, [[1, 8]])], "outputs": [ap(0, [[1, 8]])]},
    }


def test_send_recv_cce_sources_and_barrier() -> None:
    src = func(
        '  %0 = "bir.collective_compute"(%x) <{op = '
        + ALU.format("mult")
        + ", kind = "
        + KIND.format("SendRecvCCE")
        + ", recv_from_ranks = #hlo.pairs<[[0, 1], [0, 2]]>, barrier_id = 3 : i64,"
        f" input_aps = {ROW8}, output_aps = {ROW8}}}> : (tensor<8xf32>) -> tensor<8xf32>",
        devices=4,
    )
    [node] = export(src)
    assert list(node)[2:] == ["op", "kind", "recv_from_ranks", "barrier_id", "access_patterns"]
    assert node["op"] == "mult"
    assert node["recv_from_ranks"] == [[0, 1], [0, 2]]
    assert node["barrier_id"] == 3


P2P_AND_SYNC = func(
    '  "bir.collective_send"(%x) <{peer_id = #hlo.dims<[1, -1]>, channel_id = 7 : i64}>'
    " : (tensor<8xf32>) -> ()\n"
    '  %r = "bir.collective_recv"() <{peer_id = #hlo.dims<[-1, 0]>, channel_id = 7 : i64}>'
    " : () -> tensor<8xf32>\n"
    '  %b = "bir.core_barrier"(%s) <{cores = #hlo.dims<[0, 1]>, engine = '
    + ENGINE.format("Pool")
    + ", cb_id = 2 : i64}> : (tensor<1xui32>) -> tensor<1xui32>\n"
    '  %c = "bir.core_barrier"(%b) <{cb_id = 0 : i64, cores = #hlo.dims<[3]>}>'
    " : (tensor<1xui32>) -> tensor<1xui32>\n"
    '  %g = "bir.get_global_rank_id"() <{world_size = 8 : i64, engine = '
    + ENGINE.format("ALL")
    + "}> : () -> tensor<ui32>",
    "%x: tensor<8xf32>, %s: tensor<1xui32>",
    devices=2,
)


def test_send_recv_barrier_and_rank_id_in_program_order() -> None:
    assert export(P2P_AND_SYNC) == [
        {"opcode": "CollectiveSend", "inst_type": 49, "peer_id": [1, -1], "channel_id": 7},
        {"opcode": "CollectiveRecv", "inst_type": 50, "peer_id": [-1, 0], "channel_id": 7},
        {"opcode": "CoreBarrier", "inst_type": 87, "cores": [0, 1], "engine": "Pool", "cb_id": 2},
        {"opcode": "CoreBarrier", "inst_type": 87, "cb_id": 0, "cores": [3]},
        {"opcode": "GetGlobalRankId", "inst_type": 11, "world_size": 8, "engine": "ALL"},
    ]


def test_every_function_and_nested_region_in_program_order_skipping_hlo_ops() -> None:
    rank = (
        '"bir.get_global_rank_id"() <{world_size = 2 : i64, engine = '
        + ENGINE.format("ALL")
        + "}> : () -> tensor<ui32>"
    )
    src = f"""
    builtin.module {{
    func.func @a(%x: tensor<f32>) -> tensor<f32> {{
      %y = hlo.add %x, %x : tensor<f32>
      %g = {rank.replace("2 : i64", "1 : i64")}
      func.return %y : tensor<f32>
    }}
    func.func @b(%c: i1) {{
      scf.if %c {{
        %g = {rank.replace("2 : i64", "2 : i64")}
        scf.yield
      }}
      %h = {rank.replace("2 : i64", "3 : i64")}
      func.return
    }}
    }}
    """
    assert [node["world_size"] for node in export(src)] == [1, 2, 3]


def test_module_without_bir_ops_is_an_empty_array() -> None:
    assert bir_to_json(parse(func("  %y = hlo.add %x, %x : tensor<8xf32>"))) == "[]\n"


def test_unknown_property_raises() -> None:
    module = parse(P2P_AND_SYNC)
    send = next(op for op in module.walk() if op.name == "bir.collective_send")
    send.properties["mystery"] = IntegerAttr(1, i64)
    with pytest.raises(BirJsonError, match=re.escape("'bir.collective_send' property 'mystery'")):
        bir_to_json(module)


def test_unknown_bir_op_raises() -> None:
    ctx = Context(allow_unregistered=True)
    for name, factory in available_dialects().items():
        ctx.register_dialect(name, factory)
    module = Parser(ctx, '"bir.mystery"() : () -> ()').parse_module()
    with pytest.raises(BirJsonError, match=re.escape("'bir.mystery' has no BIR JSON form")):
        bir_to_json(module)


# --- the schema ----------------------------------------------------------------------------


def test_schema_ships_as_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "translate/*.json" in config["tool"]["setuptools"]["package-data"]["neuron_cc"]
    assert bir_schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


BASES: dict[str, dict[str, Any]] = {
    "all-reduce": {
        "opcode": "CollectiveCompute",
        "inst_type": 48,
        "op": "add",
        "replica_groups": [[0, 1]],
        "kind": "AllReduce",
        "stream_id": 0,
        "access_patterns": {"inputs": [ap(0, [[1, 8]])], "outputs": [ap(0, [[1, 8]])]},
    },
    "permute": {
        "opcode": "CollectiveCompute",
        "inst_type": 48,
        "kind": "Permute",
        "permute_chain": [[0, 1], [1, 0]],
        "stream_id": 0,
        "access_patterns": {"inputs": [ap(0, [[1, 8]])], "outputs": [ap(0, [[1, 8]])]},
    },
    "send-recv": {
        "opcode": "CollectiveCompute",
        "inst_type": 48,
        "kind": "SendRecv",
        "recv_from_rank": [1, 0],
        "send_to_rank": [1, 0],
        "access_patterns": {"inputs": [ap(0, [[1, 8]])], "outputs": [ap(0, [[1, 8]])]},
    },
    "send": {"opcode": "CollectiveSend", "inst_type": 49, "peer_id": [1, -1], "channel_id": 1},
    "barrier": {"opcode": "CoreBarrier", "inst_type": 87, "cores": [0, 1], "cb_id": 0},
    "rank": {"opcode": "GetGlobalRankId", "inst_type": 11, "world_size": 8, "engine": "ALL"},
    "implicit": {
        "opcode": "CollectiveCompute",
        "inst_type": 48,
        "replica_groups": [[0, 1]],
        "kind": "PermuteReduceImplicit",
        "stream_id": 0,
        "access_patterns": {"inputs": [ap(0, [[1, 8]])] * 2, "outputs": [ap(0, [[1, 8]])]},
    },
    "all-to-all-v": {
        "opcode": "CollectiveCompute",
        "inst_type": 48,
        "replica_groups": [[0, 1]],
        "kind": "AllToAllV",
        "stream_id": 0,
        "input_offsets": [0, 4],
        "send_sizes": [4, 4],
        "output_offsets": [0, 4],
        "recv_sizes": [4, 4],
        "access_patterns": {"inputs": [ap(0, [[1, 8]])] * 2, "outputs": [ap(0, [[1, 8]])]},
    },
    "sequential": {
        "opcode": "CollectiveSend",
        "inst_type": 49,
        "peer_id": [1, -1],
        "channel_id": 1,
        "access_patterns": {"inputs": [ap(0, [[1, 8]])], "outputs": []},
    },
    "register": {
        "opcode": "GetGlobalRankId",
        "inst_type": 11,
        "world_size": 8,
        "engine": "ALL",
        "register": {"name": "rank_id_0", "dtype": "uint32"},
    },
    "broadcast-partition": {
        "opcode": "BroadcastPartition",
        "inst_type": 1000,
        "partitions": 4,
        "channels": 16,
        "access_patterns": {"inputs": [ap(0, [[1, 8]])], "outputs": [ap(0, [[8, 4], [1, 8]])]},
    },
}
"""Valid documents; each bad document below is one of them with one change."""

UNSET = object()

BAD_CHANGES: dict[str, tuple[str, dict[str, Any]]] = {
    "unknown opcode": ("send", {"opcode": "Send"}),
    "wrong inst_type": ("all-reduce", {"inst_type": 49}),
    "unknown key": ("all-reduce", {"dimension": 0}),
    "unknown kind": ("all-reduce", {"kind": "AllReduceV2"}),
    "unknown alu op": ("all-reduce", {"op": "subtract"}),
    "op on a non-reducer": ("all-reduce", {"kind": "AllGather"}),
    "reducer without op": ("all-reduce", {"op": UNSET}),
    "cc_type_hint on all-reduce": ("all-reduce", {"cc_type_hint": "TP"}),
    "unknown cc_type_hint": ("all-reduce", {"kind": "ReduceScatter", "cc_type_hint": "DP"}),
    "group kind without stream_id": ("all-reduce", {"stream_id": UNSET}),
    "permute without stream_id": ("permute", {"stream_id": UNSET}),
    "group kind without replica_groups": ("all-reduce", {"replica_groups": UNSET}),
    "empty replica_groups": ("all-reduce", {"replica_groups": []}),
    "all-to-all without split_count": ("all-reduce", {"kind": "AllToAll", "op": UNSET}),
    "split_count on all-reduce": ("all-reduce", {"split_count": 2}),
    "permute without chain": ("permute", {"permute_chain": UNSET}),
    "permute_chain on all-reduce": ("all-reduce", {"permute_chain": [[0, 1]]}),
    "permute pair of three": ("permute", {"permute_chain": [[0, 1, 2]]}),
    "channel_id on untiled permute": ("permute", {"channel_id": 1}),
    "channel_id on tiled all-reduce": ("all-reduce", {"tiled": True, "channel_id": 1}),
    "channel_id not a ring": ("permute", {"tiled": True, "channel_id": 3}),
    "negative stream_id": ("all-reduce", {"stream_id": -1}),
    "string stream_id": ("all-reduce", {"stream_id": "0"}),
    "false flag": ("send-recv", {"local": False}),
    "send-recv without ranks": ("send-recv", {"send_to_rank": UNSET}),
    "rank table below -1": ("send-recv", {"recv_from_rank": [-2, 0]}),
    "pipe_id on all-reduce": ("all-reduce", {"pipe_id": 1}),
    "barrier_id on all-reduce": ("all-reduce", {"barrier_id": 1}),
    "cce without sources": ("all-reduce", {"kind": "SendRecvCCE", "barrier_id": 0}),
    "without access patterns": ("all-reduce", {"access_patterns": UNSET}),
    "ap pair with zero count": (
        "all-reduce",
        {"access_patterns": {"inputs": [ap(0, [[1, 0]])], "outputs": [ap(0, [[1, 8]])]}},
    ),
    "ap triple": (
        "all-reduce",
        {"access_patterns": {"inputs": [ap(0, [[1, 8, 1]])], "outputs": [ap(0, [[1, 8]])]}},
    ),
    "ap without pairs": (
        "all-reduce",
        {"access_patterns": {"inputs": [ap(0, [])], "outputs": [ap(0, [[1, 8]])]}},
    ),
    "ap negative offset": (
        "all-reduce",
        {"access_patterns": {"inputs": [ap(-1, [[1, 8]])], "outputs": [ap(0, [[1, 8]])]}},
    ),
    "ap without outputs": ("all-reduce", {"access_patterns": {"inputs": [ap(0, [[1, 8]])]}}),
    "send without peer_id": ("send", {"peer_id": UNSET}),
    "send without channel_id": ("send", {"channel_id": UNSET}),
    "send with a replica_groups": ("send", {"replica_groups": [[0, 1]]}),
    "recv inst_type on a send": ("send", {"inst_type": 50}),
    "barrier without cores": ("barrier", {"cores": UNSET}),
    "barrier empty cores": ("barrier", {"cores": []}),
    "barrier repeated core": ("barrier", {"cores": [0, 0]}),
    "barrier unknown engine": ("barrier", {"engine": "GPU"}),
    "barrier negative cb_id": ("barrier", {"cb_id": -1}),
    "rank id on a non-ALL engine": ("rank", {"engine": "PE"}),
    "rank id without engine": ("rank", {"engine": UNSET}),
    "rank id world size 0": ("rank", {"world_size": 0}),
    "chain on an implicit permute": ("implicit", {"permute_chain": [[0, 1]]}),
    "implicit permute without rings": ("implicit", {"replica_groups": UNSET}),
    "op on PermuteReduceImplicit": ("implicit", {"op": "add"}),
    "all-to-all-v without a table": ("all-to-all-v", {"recv_sizes": UNSET}),
    "negative ragged offset": ("all-to-all-v", {"input_offsets": [-1, 4]}),
    "ragged table on all-to-all": ("all-to-all-v", {"kind": "AllToAll", "split_count": 2}),
    "two send patterns": (
        "sequential",
        {"access_patterns": {"inputs": [ap(0, [[1, 4]]), ap(4, [[1, 4]])], "outputs": []}},
    ),
    "register not uint32": ("register", {"register": {"name": "r", "dtype": "int32"}}),
    "register not a name": ("register", {"register": {"name": "0r", "dtype": "uint32"}}),
    "broadcast without partitions": ("broadcast-partition", {"partitions": UNSET}),
    "broadcast with zero channels": ("broadcast-partition", {"channels": 0}),
    "broadcast with a kind": ("broadcast-partition", {"kind": "Permute"}),
}


def bad_document(name: str) -> list[dict[str, Any]]:
    base, changes = BAD_CHANGES[name]
    node = json.loads(json.dumps(BASES[base]))
    for key, value in changes.items():
        if value is UNSET:
            del node[key]
        else:
            node[key] = value
    return [node]


@pytest.mark.parametrize("base", sorted(BASES))
def test_schema_accepts_the_bases(base: str) -> None:
    validator().validate([BASES[base]])


@pytest.mark.parametrize("name", sorted(BAD_CHANGES))
def test_schema_rejects(name: str) -> None:
    assert not validator().is_valid(bad_document(name))


def test_schema_rejects_a_non_array_document() -> None:
    assert not validator().is_valid(BASES["send"])


# --- command lines ---------------------------------------------------------------------------


def test_neuron_translate_bir_to_json(tool: Any, tmp_path: Path) -> None:
    source = tmp_path / "in.mlir"
    source.write_text(P2P_AND_SYNC)
    expected = bir_to_json(parse(P2P_AND_SYNC))
    result = tool("neuron-translate", "--bir-to-json", source)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == expected
    out = tmp_path / "out.json"
    result = tool("neuron-translate", "--bir-to-json", source, "-o", out)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    assert out.read_text() == expected


def test_neuron_opt_emit_bir_json(tool: Any, tmp_path: Path) -> None:
    source = tmp_path / "in.mlir"
    source.write_text(ALL_REDUCE)
    result = tool("neuron-opt", source, "--emit", "bir-json")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == bir_to_json(parse(ALL_REDUCE))


def test_cli_errors(tool: Any, tmp_path: Path) -> None:
    source = tmp_path / "bad.mlir"
    source.write_text(ALL_REDUCE.replace(", stream_id = 0 : i64", ""))
    for command in (
        ("neuron-translate", "--bir-to-json", source),
        ("neuron-opt", source, "--emit", "bir-json"),
    ):
        result = tool(*command)
        assert result.returncode == 1
        assert result.stdout == ""
        assert result.stderr.startswith("error: ")
        assert "stream_id" in result.stderr
        assert "Traceback" not in result.stderr


def test_neuron_opt_reports_an_op_without_json_form(tool: Any, tmp_path: Path) -> None:
    source = tmp_path / "unknown.mlir"
    source.write_text('"bir.mystery"() : () -> ()\n')
    result = tool("neuron-opt", "--allow-unregistered-dialect", source, "--emit", "bir-json")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"error: {source}:1:1: cannot export BIR JSON: 'bir.mystery' has no BIR JSON form\n"
    )


def test_neuron_translate_modes_are_exclusive(tool: Any, tmp_path: Path) -> None:
    source = tmp_path / "in.mlir"
    source.write_text(ALL_REDUCE)
    result = tool("neuron-translate", "--bir-to-json", source, "--export-hlo", source)
    assert result.returncode == 1
    assert result.stderr.startswith("error: ")
    assert "not allowed with argument" in result.stderr


# --- the corpus ------------------------------------------------------------------------------


def _convert_pass() -> Any:
    passes = available_passes()
    try:
        return passes["convert-hlo-to-bir"]()
    except ImportError:
        pytest.skip("convert-hlo-to-bir is not available")


@functools.cache
def converted(case: str, tile_bytes: int = 0) -> ModuleOp:
    pass_class = _convert_pass()
    module = import_hlo((CORPUS / case / "spmd.hlo").read_text(), case)
    pass_class(tile_bytes=tile_bytes, ring_channels=2).apply(_context(), module)
    module.verify()
    return module


def corpus_json(case: str) -> str:
    return bir_to_json(converted(case))


def _property_keys(op: Operation) -> list[str]:
    """The op's property names as JSON keys, in insertion order."""
    keys = ["access_patterns" if k.endswith("_aps") else k for k in op.properties]
    return list(dict.fromkeys(keys))


@pytest.mark.parametrize("case", CASES)
def test_corpus_bir_json_validates_in_the_pass_emission_order(case: str) -> None:
    document = json.loads(corpus_json(case))
    validator().validate(document)
    ops = [op for op in converted(case).walk() if op.name.startswith("bir.")]
    assert document, "every corpus case has collectives"
    assert len(document) == len(ops)
    for node, op in zip(document, ops, strict=True):
        assert list(node)[2:] == _property_keys(op)


@pytest.mark.parametrize("case", CASES)
def test_corpus_tiled_bir_json_validates(case: str) -> None:
    """tile-bytes=32 tiles almost every collective: one AP per tile, channel 2 on permutes."""
    document = json.loads(bir_to_json(converted(case, tile_bytes=32)))
    validator().validate(document)
    for node in document:
        if node.get("tiled"):
            patterns = node["access_patterns"]
            local = node["kind"] in ("PermuteReduce", "PermuteReduceImplicit")
            assert len(patterns["inputs"]) == len(patterns["outputs"]) * (2 if local else 1)
            permute = node["kind"].startswith("Permute")
            assert node.get("channel_id") == (2 if permute else None)
            keys = list(node)
            if permute:  # the codegen's tiled order: channel_id before kind
                assert keys.index("channel_id") < keys.index("kind")
            assert keys.index("stream_id") > keys.index("access_patterns")


def test_tiled_corpus_permute_has_one_ap_per_tile() -> None:
    [node] = json.loads(bir_to_json(converted("ppermute_ring_loop", tile_bytes=32)))
    assert (node["kind"], node["channel_id"], node["tiled"]) == ("PermuteImplicit", 2, True)
    assert node["replica_groups"] == [[0, 1, 2, 3, 4, 5, 6, 7]]
    assert "permute_chain" not in node
    tiles = [ap(0, [[8, 1], [1, 8]]), ap(8, [[8, 1], [1, 8]])]
    assert node["access_patterns"] == {"inputs": tiles, "outputs": tiles}


@pytest.mark.parametrize("case", GOLDEN_CASES)
def test_corpus_golden(case: str) -> None:
    assert corpus_json(case) == (GOLDEN / f"{case}.json").read_text()


def test_corpus_through_neuron_opt(tool: Any) -> None:
    case = GOLDEN_CASES[0]
    _convert_pass()
    spmd = CORPUS / case / "spmd.hlo"
    result = tool("neuron-opt", spmd, "-p", "convert-hlo-to-bir", "--emit", "bir-json")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == (GOLDEN / f"{case}.json").read_text()


# --- issue 19: the new kinds and fields through the lowering ---------------------------------

KINDS_LIT = ROOT / "tests" / "filecheck" / "transforms" / "convert-hlo-to-bir-kinds.mlir"


def _kinds_case(name: str, **options: Any) -> list[dict[str, Any]]:
    chunk = next(c for c in KINDS_LIT.read_text().split("// -----\n") if f"@{name}(" in c)
    body = "\n".join(line for line in chunk.splitlines() if not line.startswith("//"))
    module = parse(body)
    _convert_pass()(**options).apply(_context(), module)
    module.verify()
    document = json.loads(bir_to_json(module))
    validator().validate(document)
    return document


def test_permute_reduce_and_tiled_variant_json() -> None:
    untiled = _kinds_case("permute_reduce")
    assert [n["kind"] for n in untiled] == ["PermuteReduce"] * 4
    assert [n["op"] for n in untiled] == ["add", "mult", "max", "min"]
    assert len(untiled[0]["access_patterns"]["inputs"]) == 2  # the sent and the local buffer
    assert list(untiled[0])[2:] == ["op", "kind", "permute_chain", "stream_id", "access_patterns"]
    tiled = _kinds_case("permute_reduce", tile_bytes=8, ring_channels=4)
    keys = ["op", "channel_id", "kind", "permute_chain", "tiled", "access_patterns", "stream_id"]
    assert list(tiled[0])[2:] == keys
    assert tiled[0]["channel_id"] == 4
    assert len(tiled[0]["access_patterns"]["inputs"]) == 4  # 2 buffers x 2 tiles


def test_implicit_permute_json_has_rings_not_a_chain() -> None:
    nodes = _kinds_case("implicit_permutes")
    ring = nodes[3]
    assert ring["kind"] == "PermuteImplicit"
    assert "permute_chain" not in ring
    assert ring["replica_groups"] == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert nodes[4]["kind"] == "Permute"


def test_cce_all_to_all_v_broadcast_and_fields_json() -> None:
    cce = _kinds_case("send_recv_cce")
    assert cce[1]["kind"] == "SendRecvCCE"
    assert cce[1]["barrier_id"] == 6
    assert cce[1]["recv_from_ranks"][:2] == [[0, 1], [0, 2]]
    assert "stream_id" not in cce[1]
    a2av, splat = _kinds_case("all_to_all_v")
    assert splat["send_sizes"] == [1, 1]  # a splat constant, expanded
    assert (a2av["input_offsets"], a2av["send_sizes"]) == ([0, 2], [2, 3])
    assert (a2av["output_offsets"], a2av["recv_sizes"]) == ([0, 2], [2, 3])
    nodes = _kinds_case("broadcast_partition", dve_channels=16)
    assert [(n["opcode"], n["partitions"], n["channels"]) for n in nodes] == [
        ("BroadcastPartition", 4, 16),
        ("BroadcastPartition", 16, 16),
    ]
    fields = _kinds_case("send_recv_fields", use_gpsimd_dma=True)
    assert (fields[0]["pipe_id"], fields[0]["dyn_pipe_id"], fields[0]["use_gpsimd_dma"]) == (
        3,
        1,
        True,
    )
    assert fields[1]["pipe_id"] == 7
    assert fields[1]["use_gpsimd_dma"] is True
