"""JSON on the wire: one encoder and one decoder for every WebSocket message.

Why orjson: encoding the ``update`` messages was the largest single item of the
server's CPU per action (the standard library's encoder, about a third of the
event loop's time; see docs/server.md, *Performance*). orjson encodes the same
data five to ten times faster and decodes client messages faster too. Its output
is compact JSON in UTF-8, which is what the standard encoder with
``separators=(",", ":")`` wrote, except that text outside ASCII is written as
itself rather than as ``\\u`` escapes: the same JSON value for every reader.
"""

from __future__ import annotations

from typing import Any

import orjson

#: Integer keys (a view may map seats to values) are written as strings, as ``json`` does.
_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    """``value`` as compact JSON text (what a text frame carries)."""
    return orjson.dumps(value, option=_OPTIONS).decode()


def loads(text: str | bytes) -> Any:
    """The value of the JSON ``text``; ``ValueError`` if it is not JSON (or too deep)."""
    return orjson.loads(text)


def too_deep(err: ValueError) -> bool:
    """Whether :func:`loads` refused its text for nesting too deeply (orjson stops at 1,024
    levels by itself: "depth limit exceeded"), rather than for not being JSON."""
    return "depth limit" in str(err) or "recursion" in str(err).lower()
