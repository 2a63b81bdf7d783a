"""The flat public namespace: ``__all__`` is sorted and matches what is exported."""

from __future__ import annotations

import inspect

import standard_tool


def test_all_is_sorted_and_unique() -> None:
    names = standard_tool.__all__

    # isort-style, as ruff keeps it: CONSTANTS, then Classes, then functions.
    def key(name: str) -> tuple[int, str]:
        return (0 if name.isupper() else 1 if name[:1].isupper() else 2, name)

    assert list(names) == sorted(names, key=key)
    assert len(set(names)) == len(names)


def test_all_matches_the_public_attributes() -> None:
    public = {
        name
        for name, value in vars(standard_tool).items()
        if not name.startswith("_") and not inspect.ismodule(value)
    }
    assert public == set(standard_tool.__all__) - {"__version__"}


def test_every_public_object_has_a_docstring() -> None:
    for name in standard_tool.__all__:
        value = getattr(standard_tool, name)
        if callable(value) or inspect.isclass(value):
            assert inspect.getdoc(value), name
