"""Token counts without a tokenizer download.

HoloDeck's vector store chunker estimates a token as four characters; its hierarchical
chunker counts cl100k tokens with tiktoken, which downloads its encoding at run time.
Nothing may download here, so both count with the same estimate: English prose averages
about four characters per cl100k token, so chunks come out about the same size.
"""

from __future__ import annotations

CHARS_PER_TOKEN = 4


def estimate_tokens(text: str) -> int:
    return len(text) // CHARS_PER_TOKEN
