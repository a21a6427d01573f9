"""Type stub of the compiled builders (src/alea/envs/_fast.pyx)."""

from collections.abc import Callable
from typing import Any

def configure(
    layout: dict[str, int],
    provinces: dict[str, int],
    patricians: dict[str, int],
    senate: dict[str, int],
    sees_senate_hand: Callable[[Any, int], bool],
) -> None: ...
def configure_mask(
    size: int, index: dict[str, int], reroll_mask: Callable[[tuple[int, ...]], tuple[int, bytes]]
) -> None: ...
def observation(state: Any, seat: int, private: bool) -> bytearray: ...
def mask(state: Any) -> bytearray: ...
