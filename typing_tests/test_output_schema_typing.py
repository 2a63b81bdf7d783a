"""Inference of a tool's output from ``output_schema``, for every adapter (issue 22).

Never executed. ``output_schema=`` given any schema an adapter makes, a model
class, a ``msgspec.Struct`` type or a JSON Schema dict fixes the tool's output type.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
from pydantic import BaseModel
from typing_extensions import assert_type

from standard_tool import Tool, standard_tool
from standard_tool.schemas.jsonschema import from_json_schema
from standard_tool.schemas.msgspec import msgspec_schema
from standard_tool.schemas.pydantic import pydantic_schema


class Temp(BaseModel):
    temp_c: float


class TempStruct(msgspec.Struct):
    temp_c: float


@dataclass
class TempData:
    temp_c: float


def reading(city: str) -> dict[str, float]:
    return {"temp_c": 21.0}


by_pydantic = standard_tool(
    name="t", description="d", execute=reading, output_schema=pydantic_schema(Temp)
)
assert_type(by_pydantic, Tool[str, Temp, Temp, Any])
assert_type(by_pydantic.execute("Oslo"), Temp)

by_dataclass = standard_tool(
    name="t", description="d", execute=reading, output_schema=pydantic_schema(TempData)
)
assert_type(by_dataclass, Tool[str, TempData, TempData, Any])

by_msgspec = standard_tool(
    name="t", description="d", execute=reading, output_schema=msgspec_schema(TempStruct)
)
assert_type(by_msgspec, Tool[str, TempStruct, TempStruct, Any])

by_model_class = standard_tool(name="t", description="d", execute=reading, output_schema=Temp)
assert_type(by_model_class, Tool[str, Temp, Temp, Any])

by_struct_class = standard_tool(
    name="t", description="d", execute=reading, output_schema=TempStruct
)
assert_type(by_struct_class, Tool[str, TempStruct, TempStruct, Any])

by_jsonschema = standard_tool(
    name="t",
    description="d",
    execute=reading,
    output_schema=from_json_schema({"type": "object"}),
)
assert_type(by_jsonschema.execute("Oslo"), Any)

by_dict = standard_tool(
    name="t", description="d", execute=reading, output_schema={"type": "object"}
)
assert_type(by_dict.execute("Oslo"), Any)
