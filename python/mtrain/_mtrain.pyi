"""Type hints of the native module; use the functions of ``mtrain`` itself."""

from typing import Dict, List, Optional, Union

__version__: str

def tournament(
    bots: Optional[str] = None,
    *,
    players: int = 4,
    games: int = 10_000,
    seed: int = 1,
    rules: str = "wikipedia",
    set: int = 12,
    hand: Optional[int] = None,
    rounds: Optional[int] = None,
    options: List[str] = ...,
    threads: Optional[int] = None,
    gauntlet: Optional[str] = None,
    anchor: Optional[str] = None,
    rotate: bool = True,
    vary_order: bool = True,
) -> Dict[str, Union[str, int, bool, Dict[str, str]]]: ...
def strategies() -> Dict[str, str]: ...
