"""The ``roc:`` decisions for cuSPARSE -> rocSPARSE (`--roc`) where HIPIFY's
ROC column (read by tools/catalogue/roc.py) is wrong: it swaps the dense
orders (CUSPARSE_ORDER_COL is rocsparse_order_column: cusparse.h of CUDA
12.9 and rocsparse-types.h of ROCm 6.4 and 7.2 say "Column-Major" and
"Column major"), and names plain ELL for sliced ELL, which rocSPARSE has as
rocsparse_format_sell from ROCm 7.x on (its header set dates it)."""
from __future__ import annotations

from typing import Any

CURATED: dict[str, dict[str, Any]] = {
    "CUSPARSE_ORDER_COL": {"name": "rocsparse_order_column"},
    "CUSPARSE_ORDER_ROW": {"name": "rocsparse_order_row"},
    "CUSPARSE_FORMAT_SLICED_ELLPACK": {"name": "rocsparse_format_sell"},
}
