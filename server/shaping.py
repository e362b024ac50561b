"""Shaping domain results for MCP: each tool's output model is built from the definition that produces its answer.

The domain (``training_check.tools``) returns dataclasses with ``.to_dict()``
(JSON-safe: NaN/Inf already encoded as strings) and ``.summary``. What a
result sends is one of two definitions, and its model is built from that one:

- the TypedDict its ``to_dict()`` is annotated to return, when ``to_dict()``
  reshapes the dataclass (``Assessment`` -> ``AssessmentAnswer``, whose
  findings are ``FindingDict``);
- else the dataclass's own fields (``to_dict()`` is ``asdict``), plus
  ``summary`` when the class has it as a property.

The model mirrors that definition exactly: the same keys with the same types,
nested dataclasses and TypedDicts as nested models, and no other key (an
unknown key is refused, so the published schema can never fall behind the
answer). Answers are sent without null fields (``compact_result``), so a key
whose type admits None is optional and never null; every other key is
required, except a TypedDict's ``NotRequired`` keys. The answer is dumped from
the validated model: what is sent is what the schema says. A result class that
cannot be imported or mirrored stops the server at start, with its name.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import math
import operator
import types
import typing
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, NotRequired, Required, cast

if TYPE_CHECKING:  # pydantic loads with the first model: result_dict (the CLI, the stdio front) does not need it
    from pydantic import BaseModel

_MODEL_CACHE: dict[type, type[BaseModel]] = {}
SUMMARY_DESCRIPTION = "One sentence saying what the result means."


@functools.cache
def result_model_base() -> type[BaseModel]:
    """Base of every published output model: exactly the keys its definition names."""
    from pydantic import BaseModel, ConfigDict

    class ResultModel(BaseModel):
        """Base of every published output model: exactly the keys its definition names."""

        model_config = ConfigDict(extra="forbid")

    return ResultModel


class SchemaError(TypeError):
    """A result definition the server cannot publish a schema for (a bug of this install: it stops the server)."""


def _never_null(schema: dict[str, Any]) -> None:
    """An optional key is left out rather than sent as null: drop the null branch and the null default."""
    schema.pop("default", None)
    branches = [b for b in schema.pop("anyOf", []) if b != {"type": "null"}]
    if len(branches) == 1:
        schema.update(branches[0])
    elif branches:
        schema["anyOf"] = branches


def _is_optional(tp: Any) -> bool:
    return typing.get_origin(tp) in (typing.Union, types.UnionType) and type(None) in typing.get_args(tp)


def _wire_type(tp: Any, where: str) -> Any:
    """The pydantic type of a value as sent: the same type, with nested dataclasses and TypedDicts as models."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is Any or tp in (str, int, float, bool, type(None)):
        return tp
    if origin is typing.Annotated:
        return _wire_type(args[0], where)
    if origin in (typing.Union, types.UnionType):
        return functools.reduce(operator.or_, [_wire_type(a, where) for a in args])
    if origin is Literal:
        return tp
    if tp in (list, Sequence) or origin in (list, Sequence):
        return types.GenericAlias(list, (_wire_type(args[0], where) if args else Any,))
    if tp in (dict, Mapping) or origin in (dict, Mapping):
        return types.GenericAlias(dict, (str, _wire_type(args[1], where) if args else Any))
    if isinstance(tp, type) and (dataclasses.is_dataclass(tp) or typing.is_typeddict(tp)):
        return model_for(tp)
    raise SchemaError(f"{where}: no JSON form for type {tp!r}")


def _doc(cls: type) -> str | None:
    """The first line of the class's own docstring (not the signature a dataclass writes when it has none)."""
    doc = (cls.__doc__ or "").strip()
    if not doc or doc.startswith(f"{cls.__name__}("):
        return None
    return doc.splitlines()[0]


def wire_definition(cls: type) -> tuple[str, dict[str, tuple[Any, bool, str | None]]]:
    """What a result of ``cls`` sends: (its name, {key: (type, always sent, description)})."""
    if typing.is_typeddict(cls):
        hints = typing.get_type_hints(cls, include_extras=True)
        keys: dict[str, tuple[Any, bool, str | None]] = {}
        for key, tp in hints.items():
            origin = typing.get_origin(tp)
            required = origin is not NotRequired
            if origin in (NotRequired, Required):
                tp = typing.get_args(tp)[0]
            keys[key] = (tp, required, None)
        return cls.__name__.removesuffix("Dict"), keys
    if not dataclasses.is_dataclass(cls):
        raise SchemaError(f"{cls.__module__}.{cls.__qualname__} is neither a dataclass nor a TypedDict")
    to_dict = getattr(cls, "to_dict", None)
    if to_dict is not None:
        answer = typing.get_type_hints(to_dict).get("return")
        if isinstance(answer, type) and typing.is_typeddict(answer):
            return cls.__name__, wire_definition(answer)[1]
    hints = typing.get_type_hints(cls)
    keys = {f.name: (hints[f.name], True, f.metadata.get("description")) for f in dataclasses.fields(cls)
            if not f.name.startswith("_")}
    if isinstance(getattr(cls, "summary", None), property):
        keys["summary"] = (str, True, SUMMARY_DESCRIPTION)
    return cls.__name__, keys


def model_for(cls: type, *, name: str | None = None) -> type[BaseModel]:
    """The pydantic model of what a result of ``cls`` (a dataclass or a TypedDict) sends; see the module's doc."""
    from pydantic import Field, create_model

    if cls in _MODEL_CACHE:
        return _MODEL_CACHE[cls]
    own_name, keys = wire_definition(cls)
    fields: dict[str, Any] = {}
    for key, (tp, always, desc) in keys.items():
        where = f"{cls.__module__}.{cls.__qualname__}.{key}"
        if key == "summary" and desc is None:
            desc = SUMMARY_DESCRIPTION
        if _is_optional(tp):  # None is left out of the answer: an optional key, never null
            inner = [a for a in typing.get_args(tp) if a is not type(None)]
            wire = functools.reduce(operator.or_, [_wire_type(a, where) for a in inner])
            fields[key] = (wire | None, Field(default=None, description=desc, json_schema_extra=_never_null))
        elif always:
            fields[key] = (_wire_type(tp, where), Field(description=desc))
        else:
            fields[key] = (_wire_type(tp, where) | None,
                           Field(default=None, description=desc, json_schema_extra=_never_null))
    model = create_model(name or own_name, __base__=result_model_base(), __doc__=_doc(cls), **fields)
    _MODEL_CACHE[cls] = model
    return model


def model_for_path(module: str, class_name: str, *, name: str | None = None) -> type[BaseModel]:
    """``model_for`` of ``training_check.tools.<module>.<class_name>``; raises SchemaError (one line naming the class
    and the cause) when it cannot be imported or mirrored: a server must not publish a schema it cannot keep."""
    path = f"training_check.tools.{module}.{class_name}"
    try:
        cls = getattr(importlib.import_module(f"training_check.tools.{module}"), class_name)
    except (ImportError, AttributeError) as e:
        raise SchemaError(f"cannot publish the output schema of {path}: {type(e).__name__}: {e}; "
                          f"reinstall training-check") from e
    try:
        return model_for(cast(type, cls), name=name)
    except SchemaError:
        raise
    except Exception as e:  # an unresolvable annotation, a type pydantic cannot model
        raise SchemaError(f"cannot publish the output schema of {path}: {type(e).__name__}: {e}") from e


def json_safe(obj: Any) -> Any:
    """NaN/Inf floats become "NaN"/"Infinity"/"-Infinity" strings; containers are walked; other values kept."""
    if isinstance(obj, float):
        if math.isnan(obj):
            return "NaN"
        if math.isinf(obj):
            return "Infinity" if obj > 0 else "-Infinity"
        return obj
    if isinstance(obj, dict):
        return {str(k): json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    return obj


def result_dict(result: Any) -> dict:
    """``result.to_dict()`` plus its ``summary`` (a dict passes through), made JSON-safe."""
    if isinstance(result, dict):
        data = dict(result)
    elif hasattr(result, "to_dict"):
        data = dict(result.to_dict())
    elif dataclasses.is_dataclass(result) and not isinstance(result, type):
        data = dataclasses.asdict(result)
    else:
        raise TypeError(f"cannot shape a {type(result).__name__}")
    summary = getattr(result, "summary", None)
    if "summary" not in data and isinstance(summary, str):
        data["summary"] = summary
    return json_safe(data)


def shape(result: Any, model: type[BaseModel]) -> BaseModel:
    """The output model instance for a domain result."""
    return model.model_validate(result_dict(result))
