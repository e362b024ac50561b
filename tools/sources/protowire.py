"""Protocol-buffer wire format, the little of it the native readers need (TensorBoard events, .wandb records)."""

from __future__ import annotations


def varint(buf: bytes | memoryview, pos: int) -> tuple[int, int]:
    """(value, next position) of the base-128 varint at ``pos``; ValueError when it runs past 10 bytes."""
    result = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise ValueError("varint too long")
