"""Shaping domain results for MCP: one generic converter from a result dataclass to a pydantic output model.

The domain (``training_check.tools``) returns dataclasses with ``.to_dict()``
(JSON-safe: NaN/Inf already encoded as strings) and ``.summary``. The adapter
publishes an output schema per tool by mirroring the dataclass's fields in a
pydantic model built here, and fills it from ``.to_dict()``. Every field is
optional and extra keys are kept, so a key the domain adds later still reaches
the client, while the schema documents what is known.
"""

from __future__ import annotations

import dataclasses
import importlib
import math
import types
import typing
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

_MODEL_CACHE: dict[type, type[BaseModel]] = {}


class ResultModel(BaseModel):
    """Base of every published output model: keeps keys the schema does not name."""

    model_config = ConfigDict(extra="allow")


class GenericResult(ResultModel):
    """A result whose domain type could not be imported when the server started."""

    summary: str | None = Field(default=None, description="One sentence saying what the result means.")


def _json_type(tp: Any) -> Any:
    """The JSON-side type of a dataclass field: scalars keep their type (floats may arrive as "NaN"/"Infinity"),
    lists of dataclasses become lists of mirrored models, anything else (dicts, nested containers) is free-form,
    because ``to_dict()`` may reshape those."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(tp) if a is not type(None)]
        mapped = [_json_type(a) for a in inner]
        if len(mapped) != 1:
            return Any
        return mapped[0]
    if origin is Literal:
        return str if all(isinstance(a, str) for a in typing.get_args(tp)) else Any
    if origin in (list, typing.Sequence):
        args = typing.get_args(tp)
        if args and isinstance(args[0], type) and dataclasses.is_dataclass(args[0]):
            return list[model_for(args[0])]
        return list[Any]
    if tp is float:
        return float | str  # NaN / Infinity arrive encoded as strings
    if tp in (bool, int, str):
        return tp
    return Any


def model_for(cls: type, *, name: str | None = None) -> type[BaseModel]:
    """A pydantic model mirroring dataclass ``cls``: same field names, relaxed JSON types, all optional."""
    if cls in _MODEL_CACHE:
        return _MODEL_CACHE[cls]
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # unresolved forward references: fall back to the raw annotations
        hints = {f.name: Any for f in dataclasses.fields(cls)}
    doc = (cls.__doc__ or "").strip().splitlines()
    fields: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name.startswith("_"):
            continue
        desc = f.metadata.get("description") if f.metadata else None
        fields[f.name] = (_json_type(hints.get(f.name, Any)) | None, Field(default=None, description=desc))
    if "summary" not in fields:
        fields["summary"] = (str | None, Field(default=None, description="One sentence saying what the result means."))
    model = create_model(name or cls.__name__, __base__=ResultModel, __doc__=doc[0] if doc else None, **fields)
    _MODEL_CACHE[cls] = model
    return model


def model_for_path(module: str, class_name: str, *, name: str | None = None) -> type[BaseModel]:
    """``model_for`` of ``training_check.tools.<module>.<class_name>``, or GenericResult when it cannot be imported."""
    try:
        cls = getattr(importlib.import_module(f"training_check.tools.{module}"), class_name)
    except (ImportError, AttributeError):
        return GenericResult
    if not dataclasses.is_dataclass(cls):
        return GenericResult
    return model_for(cls, name=name)


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
    elif dataclasses.is_dataclass(result):
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
