"""The cyclic garbage collector held off while a round is paired.

Pairing a big round builds a few hundred thousand small objects (round records, fractions, the state's
sets) that live until the pairing is made and form no reference cycles worth collecting meanwhile. Python's
collector, run every 700 new objects, walks them and the whole event again and again: about a fifth of
the CPU time of pairing 8,000 players. Reference counting still frees everything at once; cycles made
meanwhile are collected when the collector runs next, after the call.
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable
from typing import ParamSpec, TypeVar

__all__ = ["without_cycle_collection"]

_P = ParamSpec("_P")
_R = TypeVar("_R")


def without_cycle_collection(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """``fn`` run with the cyclic collector disabled (:func:`gc.disable`), re-enabled after it if it was on."""

    @functools.wraps(fn)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        if not gc.isenabled():
            return fn(*args, **kwargs)
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            gc.enable()

    return run
