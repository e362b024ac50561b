"""What one read of run files may cost, whatever the files hold: the caps, and the checks that name them.

Run files are hostile input (a log, a folder, a cloned repo can be written by anyone who can write there). Every cap
is a named constant here; going past one is a one-line ``BadInput`` naming the cap and what to do, never a hang, a
gigabyte of memory or a minute of work:

- ``MAX_RECORD_BYTES``: one TensorBoard event record or ``.wandb`` record (a bigger one is skipped, with a note);
  ``MAX_READ_BYTES``: the event-file bytes of one part of a read (each part is stored before the next is read,
  so memory stays bounded whatever the file's size).
- ``MAX_PACKED_BYTES``: a packed protobuf field decoded as numbers (a scalar holds one value; a longer field is a
  tensor, never unpacked).
- ``MAX_DOCUMENT_BYTES``, ``MAX_CONTAINERS``, ``MAX_LOG_HISTORY``, ``MAX_DEPTH``: a JSON document
  (``trainer_state.json``, ``metrics.json``), the objects and arrays in it (counted before parsing), its
  ``log_history`` entries, and how deep any JSON value nests (``loads_bounded``, for a JSONL line too).
- ``MAX_METRICS``: distinct metric names in one read (``points.BatchBuilder`` refuses the next one).
"""

from __future__ import annotations

from .errors import BadInput

MAX_RECORD_BYTES = 16 << 20
MAX_READ_BYTES = 64 << 20  # event-file bytes in one part of a read (stored before the next part is read)
MAX_PACKED_BYTES = 16  # a scalar's packed value: one double (8 bytes) or one varint (at most 10)
MAX_DOCUMENT_BYTES = 32 << 20
MAX_CONTAINERS = 1_000_000  # objects and arrays in one JSON document (each costs ~100 bytes parsed)
MAX_LOG_HISTORY = 500_000
MAX_DEPTH = 64
MAX_METRICS = 20_000


def _mb(n: int) -> str:
    return f"{n / (1 << 20):g} MB"


def too_many_metrics(where: str = "the run") -> BadInput:
    return BadInput(f"{where} has more than {MAX_METRICS} distinct metric names (the cap per read): "
                    f"log fewer metrics or point training-check at a file with the ones to watch")


def check_document_size(size: int, where: str) -> None:
    """Refuse a JSON document over ``MAX_DOCUMENT_BYTES`` before reading it."""
    if size > MAX_DOCUMENT_BYTES:
        raise BadInput(f"{where} is {_mb(size)}, over the {_mb(MAX_DOCUMENT_BYTES)} cap for a JSON document: "
                       f"point training-check at a log of the metrics instead")


def _containers(data: bytes) -> int:
    """``data.count(b"{") + data.count(b"[")``: in one pass in C for a big document (a JSON line: in Python)."""
    if len(data) >= 1 << 20:
        from .parsers.kernel import _KERNEL  # not at the top: the parsers import this module

        if _KERNEL is not None and hasattr(_KERNEL, "doc_containers"):
            return int(_KERNEL.doc_containers(data))
    return data.count(b"{") + data.count(b"[")


def check_containers(data: bytes, where: str) -> None:
    """Refuse JSON text with more than ``MAX_CONTAINERS`` objects and arrays before parsing it (counted at C speed;
    brackets inside strings count too, which only errs towards refusing)."""
    n = _containers(data)
    if n > MAX_CONTAINERS:
        raise BadInput(f"{where} holds more than {MAX_CONTAINERS} JSON objects and arrays (the cap): not a metrics "
                       f"document training-check reads")


def check_depth(value: object, where: str) -> None:
    """Refuse a parsed JSON value nesting deeper than ``MAX_DEPTH`` (one iterative pass, no recursion): level by
    level, the containers of each found by comprehensions (a document's scalars cost no Python step each)."""
    level = [value] if isinstance(value, (dict, list)) else []
    depth = 1
    while level:
        if depth > MAX_DEPTH:
            raise BadInput(f"{where} nests JSON deeper than {MAX_DEPTH} levels (the cap): not a metrics document")
        children: list = []
        for v in level:
            children.extend(v.values() if isinstance(v, dict) else v)
        level = [x for x in children if isinstance(x, (dict, list))]
        depth += 1


def loads_bounded(data: bytes | str, where: str) -> object:
    """``json.loads`` within the caps on containers and depth (a line nested 200k deep is a one-line BadInput, not
    a RecursionError)."""
    import json

    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    check_containers(raw, where)
    try:
        value = json.loads(raw)
    except RecursionError:
        raise BadInput(f"{where} nests JSON deeper than {MAX_DEPTH} levels (the cap): not a metrics document") \
            from None
    except ValueError as e:
        raise BadInput(f"{where} is not valid JSON ({str(e)[:80]})") from None
    check_depth(value, where)
    return value


def check_log_history(doc: object, where: str) -> None:
    """Refuse a ``trainer_state.json``-like document whose ``log_history`` holds more than ``MAX_LOG_HISTORY``
    entries (a 32 MB file of ``{}`` entries is 8 million of them)."""
    history = doc.get("log_history") if isinstance(doc, dict) else None
    if isinstance(history, list):
        check_log_history_count(len(history), where)


def check_log_history_count(n: int, where: str) -> None:
    """``check_log_history`` of a ``log_history`` of ``n`` entries."""
    if n > MAX_LOG_HISTORY:
        raise BadInput(f"{where} has {n} log_history entries, over the {MAX_LOG_HISTORY} cap: not a "
                       f"trainer state training-check reads")


def load_json_document(data: bytes, where: str) -> object:
    """A JSON document read within the caps (size, containers, depth, log_history); ``where`` names the file in the
    answer. For the document readers (``tools/parsers/documents.py``): one call instead of ``json.loads``."""
    check_document_size(len(data), where)
    doc = loads_bounded(data, where)
    check_log_history(doc, where)
    return doc
