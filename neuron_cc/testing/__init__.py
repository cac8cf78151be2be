"""Test support shipped with neuron-cc: the semantic-equivalence harness."""

from neuron_cc.interpreter.equivalence import (
    EquivalenceError,
    assert_equivalent,
    random_inputs,
)

__all__ = ["EquivalenceError", "assert_equivalent", "random_inputs"]
