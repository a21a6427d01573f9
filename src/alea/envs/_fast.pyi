"""Type stub of the compiled builders (src/alea/envs/_fast.pyx)."""

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

def configure(
    layout: dict[str, int],
    provinces: dict[str, int],
    patricians: dict[str, int],
    senate: dict[str, int],
    sees_senate_hand: Callable[[Any, int], bool],
) -> None: ...
def configure_mask(
    size: int,
    index: dict[str, int],
    reroll_end: int,
    reroll_cache: dict[tuple[int, ...], tuple[int, bytes]],
    reroll_mask: Callable[[tuple[int, ...]], tuple[int, bytes]],
) -> None: ...
def observation(state: Any, seat: int, private: bool) -> npt.NDArray[np.float32]: ...
def mask(state: Any) -> npt.NDArray[np.int8]: ...
def observe(state: Any, seat: int, to_move: bool) -> dict[str, npt.NDArray[Any]]: ...
