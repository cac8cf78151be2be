"""Host transfers of the hlo dialect: `hlo.infeed` and `hlo.outfeed` (XLA semantics).

- `infeed(token)` -> `(data, token)`: reads `data` from the host's infeed queue.
- `outfeed(data, token)` -> `token`: writes `data` to the host's outfeed queue.

Both have side effects (no memory-effect trait, like send/recv), so passes never drop them.
`infeed_config` / `outfeed_config` / `outfeed_shape` stay raw `xla.*` attributes for the round
trip; unlike XLA's ShapeVerifier we do not check `outfeed_shape` against the data. The
interpreter runs both on the host queues of a run (`neuron_cc.interpreter.host_feeds`;
`neuron-run --infeed/--outfeed`).

```mlir
%r = hlo.infeed %t : tuple<tensor<3xui32>, !hlo.token>
%t2 = hlo.outfeed %d, %t : tensor<3xui32>
```
"""

from __future__ import annotations

from xdsl.dialects.builtin import TupleType
from xdsl.ir import Attribute, Operation
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects.hlo.types import HLO_VALUE, TokenType, tuple_elements


def _has_token(t: Attribute) -> bool:
    if isinstance(t, TokenType):
        return True
    return isinstance(t, TupleType) and any(_has_token(e) for e in t.types.data)


@irdl_op_definition
class InfeedOp(IRDLOperation):
    """Reads a value from the host: the result is (data, token)."""

    name = "hlo.infeed"
    token = operand_def(TokenType)
    result = result_def(TupleType)
    assembly_format = "$token attr-dict `:` type($result)"

    def verify_(self) -> None:
        types = tuple_elements(self.result.type)
        if len(types) != 2 or not isinstance(types[1], TokenType):
            raise VerifyException(f"infeed result must be (data, token), got {self.result.type}")
        if _has_token(types[0]):
            raise VerifyException(f"infeed data must not contain a token, got {types[0]}")


@irdl_op_definition
class OutfeedOp(IRDLOperation):
    """Writes `data` to the host; the result token orders later side effects."""

    name = "hlo.outfeed"
    data = operand_def(HLO_VALUE)
    token = operand_def(TokenType)
    result = result_def(TokenType)
    assembly_format = "$data `,` $token attr-dict `:` type($data)"

    def verify_(self) -> None:
        if _has_token(self.data.type):
            raise VerifyException(f"outfeed data must not contain a token, got {self.data.type}")


OPS: list[type[Operation]] = [InfeedOp, OutfeedOp]
