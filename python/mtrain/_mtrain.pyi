"""Type hints of the native module; use the functions of ``mtrain`` itself."""

from typing import Dict, List, Optional, Tuple, Union

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
def balance(
    bots: Optional[str] = None,
    *,
    players: Tuple[int, int] = (2, 8),
    hands: Optional[Tuple[int, int]] = None,
    games: int = 4000,
    max_games: Optional[int] = None,
    seed: int = 1,
    rules: str = "wikipedia",
    set: int = 12,
    rounds: Optional[int] = None,
    options: List[str] = ...,
    objective: str = "balanced",
    metrics: Optional[List[str]] = None,
    threads: Optional[int] = None,
    max_blocked: Optional[float] = None,
    max_first_edge: Optional[float] = None,
    first_player: Optional[str] = None,
    min_skill: Optional[float] = None,
    max_skill: Optional[float] = None,
    margin: Optional[float] = None,
) -> Dict[str, Union[str, int, bool, Dict[str, str]]]: ...
