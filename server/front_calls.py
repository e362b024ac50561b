"""Tool calls the stdio front serves itself, without the MCP SDK: a fresh server's first check costs the domain only.

A cron or headless check starts a fresh ``serve`` and makes one ``assess_run``
and one ``reschedule``. Loading the SDK and pydantic costs more than the check
itself, so the front (``server/stdio_front.py``) answers these calls directly
when it can prove the SDK would answer them the same way:

- the tool is one of ``TOOLS`` (plain ``fn(<positional>, store=, config=,
  **arguments)`` calls, as ``server/app.py`` makes them; ``stop_run`` may ask
  the user and stays with the SDK);
- the arguments satisfy the tool's input schema as the SDK listed it (recorded
  with the other first answers), checked by ``conforms`` below; anything it is
  unsure of (an unknown keyword, a value pydantic would coerce, an unknown
  argument) goes to the SDK, whose error message is the one the agent reads;
- the answer is the SDK's: the same structured content (``result_dict``
  dumped the way pydantic dumps the published output schema: keys of null
  value left out, numbers as the schema types them), the same compact text
  block, and the same one-line error for a ``TrainingCheckError``.

``tests/test_server_eras.py`` compares these answers with the SDK's, call by
call, in both protocol eras.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from typing import Any

from .throttle import PROGRESS_MIN_INTERVAL_S, throttled

log = logging.getLogger("training_check.server")

# tool -> (module in training_check.tools, function, the arguments passed positionally, reports progress)
TOOLS: dict[str, tuple[str, str, tuple[str, ...], bool]] = {
    "assess_run": ("assess", "assess_run", ("run",), True),
    "read_metrics": ("read_metrics", "read_metrics", ("run",), True),
    "reschedule": ("schedule", "reschedule", ("run",), False),
}
IMPORTS = threading.Lock()  # one thread imports at a time: imports on two threads can deadlock on a cycle
_KNOWN_KEYWORDS = frozenset({
    "type", "anyOf", "enum", "const", "properties", "required", "additionalProperties", "items", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems", "$ref", "title",
    "description", "default", "$defs", "examples"})


class Unsure(Exception):
    """The front cannot prove the SDK would accept or shape this the same way: the SDK serves it."""


# -- arguments ---------------------------------------------------------------------------------------------------
def _resolve(schema: dict, defs: dict) -> dict:
    ref = schema.get("$ref")
    if ref is None:
        return schema
    if not isinstance(ref, str) or not ref.startswith("#/$defs/") or ref[8:] not in defs:
        raise Unsure(f"reference {ref!r}")
    return defs[ref[8:]]


def _is_type(value: Any, name: str) -> bool:
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "string":
        return isinstance(value, str)
    if name == "array":
        return isinstance(value, list)
    if name == "object":
        return isinstance(value, dict)
    raise Unsure(f"type {name!r}")


def conforms(value: Any, schema: Any, defs: dict) -> bool:
    """Whether ``value`` satisfies ``schema`` (the subset pydantic publishes for our arguments); raises Unsure on a
    keyword it does not know. Strict: a value pydantic would coerce (a "3" for an integer) does not conform."""
    if schema is True or schema == {}:
        return True
    if not isinstance(schema, dict):
        raise Unsure("schema is not an object")
    schema = _resolve(schema, defs)
    unknown = set(schema) - _KNOWN_KEYWORDS
    if unknown:
        raise Unsure(f"keywords {sorted(unknown)}")
    if "anyOf" in schema:
        return any(conforms(value, branch, defs) for branch in schema["anyOf"])
    if "const" in schema and value != schema["const"]:
        return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    kind = schema.get("type")
    if isinstance(kind, list):
        if not any(_is_type(value, k) for k in kind):
            return False
    elif kind is not None and not _is_type(value, kind):
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"] or "maximum" in schema and value > schema["maximum"]:
            return False
        if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
            return False
        if "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
            return False
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0) or len(value) > schema.get("maxLength", len(value)):
            return False
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", len(value)):
            return False
        if "items" in schema and not all(conforms(v, schema["items"], defs) for v in value):
            return False
    if isinstance(value, dict):
        if any(not isinstance(k, str) for k in value):
            return False
        props = schema.get("properties", {})
        if any(k not in value for k in schema.get("required", ())):
            return False
        extra = schema.get("additionalProperties", True)
        for k, v in value.items():
            if k in props:
                if not conforms(v, props[k], defs):
                    return False
            elif extra is False or (extra is not True and not conforms(v, extra, defs)):
                return False
    return True


def call_arguments(tool: str, arguments: Any, input_schema: dict) -> tuple[list[Any], dict[str, Any]]:
    """(positional, keyword) arguments of the domain call, with the listed defaults; raises Unsure when the SDK must
    judge the arguments."""
    if not isinstance(arguments, dict) or not isinstance(input_schema, dict):
        raise Unsure("arguments")
    props = input_schema.get("properties")
    if not isinstance(props, dict) or set(arguments) - set(props):
        raise Unsure("unknown arguments")
    if not conforms(arguments, input_schema, input_schema.get("$defs", {})):
        raise Unsure("arguments the SDK may coerce or refuse")
    values = {name: arguments[name] if name in arguments else _resolve(spec, {}).get("default")
              for name, spec in props.items() if isinstance(spec, dict)}
    positional = TOOLS[tool][2]
    return [values.pop(name) for name in positional], values


# -- the answer --------------------------------------------------------------------------------------------------
def dump(value: Any, schema: Any, defs: dict) -> Any:
    """``value`` as pydantic dumps it under ``schema`` (mode json, exclude_none): a model's null fields left out, an
    integer sent as a float where the schema says number; a value the schema does not admit raises Unsure."""
    if schema is True or schema == {}:
        return value
    schema = _resolve(schema, defs)
    if "anyOf" in schema:
        branches = schema["anyOf"]
        exact = [b for b in branches if _exact(value, _resolve(b, defs))]
        if not exact:
            raise Unsure(f"{value!r:.60} matches no branch")
        return dump(value, exact[0], defs)
    if not conforms_shallow(value, schema):
        raise Unsure(f"{value!r:.60} is not {schema.get('type')}")
    kind = schema.get("type")
    if kind == "number" and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, list):
        return [dump(v, schema.get("items", {}), defs) for v in value]
    if isinstance(value, dict):
        props = schema.get("properties")
        if props is None:  # dict[str, X]
            extra = schema.get("additionalProperties", True)
            return {k: dump(v, extra, defs) for k, v in value.items()}
        unknown = set(value) - set(props)
        if unknown:
            raise Unsure(f"keys {sorted(unknown)} not in the output schema")
        return {k: dump(v, props[k], defs) for k, v in value.items() if v is not None}
    return value


def _exact(value: Any, schema: dict) -> bool:
    """The branch pydantic's smart union picks: the exact type first (an int stays an int beside a float branch)."""
    kind = schema.get("type")
    if kind == "number" and isinstance(value, int):
        return False
    if kind is None:
        return True
    return conforms_shallow(value, schema)


def conforms_shallow(value: Any, schema: dict) -> bool:
    kind = schema.get("type")
    if kind is None:
        return True
    if kind == "number" and isinstance(value, int) and not isinstance(value, bool):
        return True
    return _is_type(value, kind) if isinstance(kind, str) else any(_is_type(value, k) for k in kind)


def tool_result(data: dict) -> dict:
    """The CallToolResult the SDK sends for a structured answer (``compact_result`` in server/app.py)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return {"content": [{"type": "text", "text": text}], "structuredContent": data, "isError": False}


def error_result(message: str) -> dict:
    return {"content": [{"type": "text", "text": message}], "isError": True}


def preload() -> None:
    """Import what the calls served here need (the first call then runs at once)."""
    import importlib

    try:
        with IMPORTS:
            for module in ("tools.config", "tools.store", "server.shaping",
                           *dict.fromkeys(f"tools.{m}" for m, *_ in TOOLS.values())):
                importlib.import_module(f"training_check.{module}")
    except Exception:  # the call itself reports what is missing
        log.debug("preloading failed", exc_info=True)


def run_call(tool: str, positional: list[Any], kwargs: dict[str, Any], output_schema: dict,
             progress: Callable[[float, float | None, str], None] | None) -> dict:
    """Run the domain function for ``tool`` and return its CallToolResult (an error result on a failure)."""
    import importlib

    from ..tools.errors import TrainingCheckError

    module, name, _, with_progress = TOOLS[tool]
    try:
        with IMPORTS:
            from ..tools.config import load_config
            from ..tools.store import Store
            from .shaping import result_dict

            fn = getattr(importlib.import_module(f"training_check.tools.{module}"), name)
        config = load_config()
        store = Store(config.store_path)
        if with_progress:
            kwargs["progress"] = progress
        result = fn(*positional, store=store, config=config, **kwargs)
        data = dump(result_dict(result), output_schema, output_schema.get("$defs", {}))
    except TrainingCheckError as e:
        return error_result(e.message)
    except Exception as e:  # a bug: the same one line as the SDK path (server/app.py run_tool)
        log.exception("%s failed unexpectedly", tool)
        first = (str(e).splitlines() or [""])[0][:200]
        return error_result(f"{tool}: internal error ({type(e).__name__}: {first}); the server is still up — "
                            f"please report this with the arguments used")
    return tool_result(data)


def progress_sender(token: Any, notify: Callable[[dict], None]) -> Callable[..., None] | None:
    """A throttled progress(done, total, message) callback sending notifications/progress, as server/app.py's."""
    if token is None:
        return None

    def send(done: float, total: float | None, message: str) -> None:
        params: dict[str, Any] = {"progressToken": token, "progress": float(done)}
        if total is not None:
            params["total"] = float(total)
        if message:
            params["message"] = message
        notify({"jsonrpc": "2.0", "method": "notifications/progress", "params": params})

    return throttled(send, PROGRESS_MIN_INTERVAL_S)
