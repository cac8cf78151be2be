"""Random-number ops of the hlo dialect (XLA semantics and verifier rules).

- `rng(a, b)` with `distribution = "rng_uniform"` (values in [a, b), float or integer) or
  `"rng_normal"` (mean a, standard deviation b, float only): a tensor of the scalars' type.
- `rng_bit_generator(state)` with `algorithm = "rng_default" | "rng_philox" |
  "rng_three_fry"`: `(new state, bits)`; the state is a rank-1 u64 tensor, the bits unsigned
  or signed integers.
- `rng_get_and_update_state` with `delta`: the u64[2] seed of the program's generator, which
  advances by `delta`.

None of them is `Pure` (XLA treats them as side-effecting: each call draws new bits), so
DCE and CSE keep them. XLA's bits are backend-specific, so our interpreter refuses them.

```mlir
%r = hlo.rng %a, %b distribution = "rng_uniform" : (tensor<f32>, tensor<f32>) -> tensor<8xf32>
%s = hlo.rng_get_and_update_state delta = 4096 : tensor<2xui64>
```
"""

from __future__ import annotations

from xdsl.dialects.builtin import I64, IntegerAttr, IntegerType, Signedness, StringAttr, TensorType
from xdsl.ir import Operation
from xdsl.irdl import (
    EqAttrConstraint,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects.hlo.types import (
    HLO_TENSOR,
    HLO_VALUE,
    is_float_type,
    is_integer_type,
    tensor_type,
    tuple_elements,
)

DISTRIBUTIONS = ("rng_uniform", "rng_normal")
ALGORITHMS = ("rng_default", "rng_philox", "rng_three_fry")
U64 = IntegerType(64, Signedness.UNSIGNED)
U64_PAIR = TensorType(U64, [2])


@irdl_op_definition
class RngOp(IRDLOperation):
    """Random numbers of `distribution` with parameters a and b (two scalars of one type)."""

    name = "hlo.rng"
    a = operand_def(HLO_TENSOR)
    b = operand_def(HLO_TENSOR)
    result = result_def(HLO_TENSOR)
    distribution = prop_def(StringAttr)
    assembly_format = "$a `,` $b `distribution` `=` $distribution attr-dict `:` functional-type(operands, $result)"

    def verify_(self) -> None:
        kind = self.distribution.data
        if kind not in DISTRIBUTIONS:
            raise VerifyException(f"rng distribution must be one of {DISTRIBUTIONS}, got '{kind}'")
        a, b = tensor_type(self.a), tensor_type(self.b)
        if a.get_shape() or b.get_shape():
            raise VerifyException(f"rng parameters must be scalars, got {a} and {b}")
        if a != b:
            raise VerifyException(f"rng parameters must have one type, got {a} and {b}")
        elem = a.element_type
        if kind == "rng_normal" and not is_float_type(elem):
            raise VerifyException(f"rng_normal needs floating-point parameters, got {a}")
        if not (is_float_type(elem) or is_integer_type(elem)):
            raise VerifyException(f"rng_uniform needs float or integer parameters, got {a}")
        if tensor_type(self.result).element_type != elem:
            raise VerifyException(
                f"rng result {self.result.type} must have the parameters' element type"
            )


@irdl_op_definition
class RngBitGeneratorOp(IRDLOperation):
    """Random bits from `state` by `algorithm`: the result is (new state, bits)."""

    name = "hlo.rng_bit_generator"
    state = operand_def(HLO_TENSOR)
    result = result_def(HLO_VALUE)
    algorithm = prop_def(StringAttr)
    assembly_format = (
        "$state `algorithm` `=` $algorithm attr-dict `:` type($state) `->` type($result)"
    )

    def verify_(self) -> None:
        algorithm = self.algorithm.data
        if algorithm not in ALGORITHMS:
            raise VerifyException(
                f"rng_bit_generator algorithm must be one of {ALGORITHMS}, got '{algorithm}'"
            )
        state = tensor_type(self.state)
        if state.element_type != U64 or len(state.get_shape()) != 1:
            raise VerifyException(
                f"rng_bit_generator state must be a rank-1 u64 tensor, got {state}"
            )
        types = tuple_elements(self.result.type)
        if len(types) != 2 or types[0] != state:
            raise VerifyException(
                f"rng_bit_generator result must be (state {state}, bits), got {self.result.type}"
            )
        bits = types[1]
        if not isinstance(bits, TensorType) or not is_integer_type(bits.element_type):
            raise VerifyException(f"rng_bit_generator bits must be an integer tensor, got {bits}")


@irdl_op_definition
class RngGetAndUpdateStateOp(IRDLOperation):
    """The generator's u64[2] state; advances it by `delta`."""

    name = "hlo.rng_get_and_update_state"
    result = result_def(EqAttrConstraint(U64_PAIR))
    delta = prop_def(IntegerAttr[I64])
    assembly_format = "`delta` `=` $delta attr-dict `:` type($result)"


OPS: list[type[Operation]] = [RngOp, RngBitGeneratorOp, RngGetAndUpdateStateOp]
