"""Known gaps of the HLO front end against XLA's own test modules (issue 17), read by
tests/test_xla_conformance.py: the test fails when a listed case starts to pass, so the lists
only shrink. Each reason is what the importer says today."""

GAPS: dict[str, str] = {
    "hlo_parser_test/CollectivePermuteStartAndDoneInplaceUpdate": "collective-permute-start '%collective-permute-start.1': collective-permute-start takes 1 operands, got 4",
    "hlo_parser_test/CombinedCollectivePermuteStartAndDone": "collective-permute-start '%collective-permute-start.1': collective-permute-start takes 1 operands, got 2",
    "hlo_parser_test/Scan": "scan '%scan': unsupported opcode 'scan'",
    "hlo_parser_test/SendRecvWoChannelID": "recv '%recv': recv needs attribute 'channel_id'",
    "hlo_parser_test/ShortConstant": "constant '%constant.1': constant value is elided ('{...}'); re-dump with print_large_constants=True or pass --allow-elid",
    "while_loop_all_reduce_code_motion_test/MixMovableAllReduceWithNotMovable": "constant '%accumulation_buffer.0': constant value is elided ('{...}'); re-dump with print_large_constants=True or pass -",
    "while_loop_all_reduce_code_motion_test/MultipleAllReduceAccumulate": "constant '%accumulation_buffer.0': constant value is elided ('{...}'); re-dump with print_large_constants=True or pass -",
    "while_loop_all_reduce_code_motion_test/MultipleReduceScatterAccumulate": "constant '%accumulation_buffer.0': constant value is elided ('{...}'); re-dump with print_large_constants=True or pass -",
}
"""Modules XLA accepts that we refuse (or cannot export): case -> our reason."""

ACCEPTED_INVALID: dict[str, str] = {}
"""Modules XLA refuses that we import."""
