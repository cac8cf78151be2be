"""`hlo.fft`: XLA's fast Fourier transform over the `len(fft_length)` (1 to 3) minor
dimensions, with the shape rules of ShapeInference::InferFftShape.

- FFT / IFFT: complex -> complex of the same shape; the minor dimensions are `fft_length`.
- RFFT: f32/f64 -> c64/c128; the operand's minor dimensions are `fft_length`, the result's
  last is `fft_length[-1] / 2 + 1` (the non-negative frequencies).
- IRFFT: c64/c128 -> f32/f64; the operand's minor dimensions are `fft_length` but the last,
  which is `fft_length[-1] / 2 + 1`; the result's are `fft_length`.

```mlir
%f = hlo.fft %x, type = RFFT, length = [64, 32] : (tensor<5x64x32xf32>) -> tensor<5x64x17xcomplex<f32>>
```

Where we differ from XLA: nothing in the rules (a zero `fft_length[-1]` keeps a zero dimension).
"""

from __future__ import annotations

from xdsl.dialects.builtin import ComplexType, Float32Type, Float64Type, TensorType
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Operation, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from neuron_cc.dialects.hlo.attributes import DimensionsAttr, DimsDirective
from neuron_cc.dialects.hlo.types import HLO_TENSOR, element_type_name, tensor_type


class FftType(StrEnum):
    FFT = "FFT"
    IFFT = "IFFT"
    RFFT = "RFFT"
    IRFFT = "IRFFT"


@irdl_attr_definition
class FftTypeAttr(EnumAttribute[FftType], SpacedOpaqueSyntaxAttribute):
    """`fft`'s `fft_type`: FFT, IFFT (complex to complex), RFFT (real to complex) or IRFFT."""

    name = "hlo.fft_type"


_COMPLEX_OF: dict[Attribute, Attribute] = {
    Float32Type(): ComplexType(Float32Type()),
    Float64Type(): ComplexType(Float64Type()),
}
_REAL_OF: dict[Attribute, Attribute] = {c: r for r, c in _COMPLEX_OF.items()}


def fft_result_type(
    operand: TensorType[Attribute], kind: FftType, length: tuple[int, ...]
) -> TensorType[Attribute]:
    """The result type of an fft; raises VerifyException where XLA's shape inference fails."""
    if not 1 <= len(length) <= 3:
        raise VerifyException(f"fft supports 1 to 3 dimensions, got fft_length {list(length)}")
    if any(n < 0 for n in length):
        raise VerifyException(f"fft_length {list(length)} must not be negative")
    shape = operand.get_shape()
    element = operand.element_type
    rank = len(length)
    if len(shape) < rank:
        raise VerifyException(f"fft operand rank {len(shape)} is below the fft_length rank {rank}")
    minor = list(shape[-rank:])
    expected = list(length)
    if kind == FftType.IRFFT and length[-1]:
        expected[-1] = length[-1] // 2 + 1
    if minor != expected:
        raise VerifyException(
            f"fft {kind.value} operand minor dimensions {minor} must be {expected} "
            f"(fft_length {list(length)})"
        )
    wants_real = kind == FftType.RFFT
    table = _COMPLEX_OF if wants_real else _REAL_OF
    if element not in table:
        raise VerifyException(
            f"fft {kind.value} needs a {'f32/f64' if wants_real else 'c64/c128'} operand, "
            f"got {element_type_name(element)}"
        )
    out = list(shape)
    if kind == FftType.RFFT:
        if length[-1]:
            out[-1] = length[-1] // 2 + 1
        return TensorType(table[element], out)
    if kind == FftType.IRFFT:
        out[-1] = length[-1]
        return TensorType(table[element], out)
    return operand


@irdl_op_definition
class FftOp(IRDLOperation):
    """The discrete Fourier transform (`FFT`, unnormalized), its inverse (`IFFT`, divided by
    the transform size), or their real variants (`RFFT`, `IRFFT`) over the minor dimensions
    given by `fft_length` (see the module docstring for the shapes)."""

    name = "hlo.fft"
    operand = operand_def(HLO_TENSOR)
    result = result_def(HLO_TENSOR)
    fft_type = prop_def(FftTypeAttr)
    fft_length = prop_def(DimensionsAttr)
    traits = traits_def(Pure())
    assembly_format = (
        "$operand `,` `type` `=` $fft_type `,` `length` `=` custom<Dims>($fft_length) "
        "attr-dict `:` functional-type($operand, $result)"
    )
    custom_directives = (DimsDirective,)

    def verify_(self) -> None:
        expected = fft_result_type(
            tensor_type(self.operand), self.fft_type.data, self.fft_length.data
        )
        if self.result.type != expected:
            raise VerifyException(f"fft result must be {expected}, got {self.result.type}")


OPS: list[type[Operation]] = [FftOp]
ATTRS: list[type[Attribute]] = [FftTypeAttr]
