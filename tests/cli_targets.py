"""Example tools the CLI tests load as targets."""

from standard_tool import Toolkit, tool


@tool
def add(a: int, b: int = 0) -> int:
    """Add two integers.

    Args:
        a: the first number.
        b: the second number.
    """
    return a + b


@tool
def shout(text: str, times: int = 1, loud: bool = True, tags: list[str] | None = None) -> str:
    """Repeat text in capitals.

    Args:
        text: what to say.
        times: how often.
        loud: capitals or not.
        tags: labels to append.
    """
    said = (text.upper() if loud else text) * times
    return said + "".join(f" #{t}" for t in tags or [])


@tool
def explode(reason: str) -> str:
    """Always fail.

    Args:
        reason: the message of the error.
    """
    raise RuntimeError(reason)


@tool
def counts(words: dict[str, int]) -> int:
    """Sum a map of counts.

    Args:
        words: word to count.
    """
    return sum(words.values())


toolkit = Toolkit([add, shout])
tool_list = [add, explode]
not_a_tool = 42
