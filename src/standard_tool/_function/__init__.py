"""Function tools: ``@tool`` builds a Standard Tool from a typed Python function.

The package reads a function's annotations, docstring and defaults, compiles them
into a JSON Schema and a validator that accepts exactly what that schema accepts,
and hands both to the core builder.

- ``_compile``: reads annotations (and ``Annotated`` metadata, docstrings, forward
  references, recursion) into the intermediate form and a check.
- ``_nodes``: the typed intermediate form, one frozen class per kind of type.
- ``_schema``: the JSON Schema emitter over that form.
- ``_checks``: the checks' shared vocabulary (``BAD``, ``Err``, leaf checks) and the
  typed shapes the code generator reads.
- ``_formats``: the string formats converted to Python values (date-time, UUID, ...).
- ``_codegen``: the generated one-pass validators.
- ``_docstring``: Google, NumPy and Sphinx docstrings.
- ``_tool``: the ``@tool`` decorator and the conforming schema objects.

Layer: function tools (imports only standard_tool._core, standard_tool._shared and this
package; pydantic/msgspec lazily).
"""

from __future__ import annotations

from standard_tool._function._checks import MAX_ISSUES
from standard_tool._function._compile import Param
from standard_tool._function._tool import AsyncFunctionTool, FunctionTool, Meta, tool

__all__ = ["MAX_ISSUES", "AsyncFunctionTool", "FunctionTool", "Meta", "Param", "tool"]
