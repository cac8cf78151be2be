"""HLO instruction names as xDSL SSA name hints, and back.

xDSL drops a `_<digits>` suffix from every name hint (`param_0` -> `param`), because its
printer adds such suffixes to tell values with the same hint apart. An HLO name that ends in
`_<digits>` followed by zero or more `_` therefore gets one extra `_` as a name hint
(`param_0` -> `%param_0_`, `a_1_` -> `%a_1__`), and the exporter drops one `_` from a hint
that ends in `_<digits>_`, `_<digits>__`, ... (other names, `x_` or `s32_`, stay as they
are). The mapping is a bijection on HLO names, so HLO -> MLIR -> HLO keeps every instruction
name, also through MLIR text (`%param_0_` parses back to the hint `param_0_`). A hint a pass
chose that ends in `_<digits>_` only loses that `_` in HLO.
"""

from __future__ import annotations

import re

__all__ = ["hint_of", "hlo_name_of"]

_ESCAPED = re.compile(r"_\d+_*$")
"""Names xDSL would strip (`_<digits>`), and those that look escaped already."""
_ESCAPE = re.compile(r"_\d+_+$")


def hint_of(name: str) -> str:
    """The SSA name hint of HLO instruction `name`."""
    return name + "_" if "_" in name and _ESCAPED.search(name) else name


def hlo_name_of(hint: str) -> str:
    """The HLO instruction name of SSA name hint `hint` (the inverse of `hint_of`)."""
    return hint[:-1] if _ESCAPE.search(hint) else hint
