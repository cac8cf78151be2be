"""Reading `frontend_attributes` (neuron_cc.dialects.hlo.frontend_attributes)."""

from __future__ import annotations

import pytest
from xdsl.dialects import test as xdsl_test
from xdsl.dialects.builtin import StringAttr

from neuron_cc.dialects.hlo.frontend_attributes import (
    FRONTEND_ATTRIBUTES,
    SEND_RECV_PAIRS,
    parse_frontend_attributes,
    send_recv_pairs,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{}", {}),
        ('{a="b"}', {"a": "b"}),
        ("{a='b', c=\"d\"}", {"a": "b", "c": "d"}),
        ('{a="x,y}z", b="q\\"uote\\\\"}', {"a": "x,y}z", "b": 'q"uote\\'}),
        ("{p={{0,1},{1,2}}}", {"p": "{{0,1},{1,2}}"}),
        ('{p={{0,1},{1,2}},q="v"}', {"p": "{{0,1},{1,2}}", "q": "v"}),
        ('{j={"k": "}", "l": {"m": 1}}, n=tok}', {"j": '{"k": "}", "l": {"m": 1}}', "n": "tok"}),
        (
            '{xla.sdy.meshes={mesh = #sdy.mesh<["x"=8]>}}',
            {"xla.sdy.meshes": '{mesh = #sdy.mesh<["x"=8]>}'},
        ),
    ],
)
def test_values_are_strings_groups_or_tokens(text: str, expected: dict[str, str]) -> None:
    assert parse_frontend_attributes(text) == expected


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("a=b", "not a"),
        ("{a}", "has no '='"),
        ('{a="b}', "unterminated string"),
        ("{a={{0,1}}", "unbalanced braces"),
    ],
)
def test_malformed_text_is_a_value_error(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        parse_frontend_attributes(text)


def _op(**attributes: str) -> xdsl_test.TestOp:
    return xdsl_test.TestOp(attributes={k: StringAttr(v) for k, v in attributes.items()})


def test_send_recv_pairs_quoted_unquoted_and_direct() -> None:
    ring = [(0, 1), (1, 2), (2, 0)]
    unquoted = _op(
        **{FRONTEND_ATTRIBUTES: "{_xla_send_recv_source_target_pairs={{0,1},{1,2},{2,0}}}"}
    )
    quoted = _op(
        **{FRONTEND_ATTRIBUTES: '{a="1",_xla_send_recv_source_target_pairs="{{0,1},{1,2},{2,0}}"}'}
    )
    direct = _op(**{SEND_RECV_PAIRS: "{{0,1},{1,2},{2,0}}"})
    assert send_recv_pairs(unquoted) == send_recv_pairs(quoted) == send_recv_pairs(direct) == ring
    assert send_recv_pairs(_op(**{SEND_RECV_PAIRS: "{}"})) == []
    assert send_recv_pairs(_op(**{FRONTEND_ATTRIBUTES: '{a="b"}'})) is None
    assert send_recv_pairs(_op()) is None


def test_malformed_pairs_are_a_value_error() -> None:
    with pytest.raises(ValueError, match="malformed _xla_send_recv_source_target_pairs"):
        send_recv_pairs(_op(**{SEND_RECV_PAIRS: "{{0,1},{2}}"}))
