"""Code graders for the differential cases (resolved by HoloDeck at load time)."""

from typing import Any

NOT_A_FUNCTION = 42


def exact_match(ctx: Any) -> bool:
    """Pass when the response equals the ground truth."""
    return bool(ctx.response == ctx.ground_truth)
