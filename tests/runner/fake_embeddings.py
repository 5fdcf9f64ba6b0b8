"""Deterministic embeddings for the loopback model service: a hashed bag of words, so
texts that share words are near each other and a search finds the chunk it should."""

from __future__ import annotations

import hashlib
import re
from typing import Any

# Lengths of the vectors the service gives for well-known models (as the real ones do).
MODEL_DIMENSIONS = {
    "text-embedding-3-small": 1536,
    "text-embedding-3-large": 3072,
    "text-embedding-ada-002": 1536,
    "nomic-embed-text": 768,
    "nomic-embed-text:latest": 768,
}
DEFAULT_DIMENSIONS = 256
_WORD = re.compile(r"[a-z0-9]+")


def bag_of_words(text: str, dimensions: int) -> list[float]:
    vector = [0.0] * dimensions
    for word in _WORD.findall(text.lower()):
        slot = int.from_bytes(hashlib.sha256(word.encode()).digest()[:4], "big") % dimensions
        vector[slot] += 1.0
    return vector


def embeddings_payload(body: dict[str, Any]) -> dict[str, Any]:
    """An OpenAI `/embeddings` reply for this request body."""
    model = str(body.get("model", ""))
    dimensions = int(body.get("dimensions") or MODEL_DIMENSIONS.get(model, DEFAULT_DIMENSIONS))
    texts = body.get("input", [])
    texts = [texts] if isinstance(texts, str) else texts
    return {
        "object": "list",
        "model": model,
        "data": [
            {"object": "embedding", "index": i, "embedding": bag_of_words(t, dimensions)}
            for i, t in enumerate(texts)
        ],
        "usage": {"prompt_tokens": 0, "total_tokens": 0},
    }
