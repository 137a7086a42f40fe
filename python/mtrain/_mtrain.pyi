"""Type hints of the native module; use the functions of ``mtrain`` itself.

Every integer argument is checked against its range (a ``ValueError`` naming the keyword and the
range; a ``TypeError`` for a value that is no integer), and ``options`` are rule changes as a
dict ``{rule: value}`` or a list of ``"rule=value"`` strings, everywhere."""

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

Options = Union[Dict[str, object], Sequence[str]]

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
    options: Optional[Options] = None,
    threads: Optional[int] = None,
    gauntlet: Optional[str] = None,
    anchor: Optional[str] = None,
    rotate: bool = True,
    vary_order: bool = True,
    python_bots: List[Tuple[str, Any]] = ...,
    progress: Optional[Callable[[int, int], None]] = None,
) -> Dict[str, Union[str, int, bool, Dict[str, str]]]: ...
def strategies() -> Dict[str, str]: ...
def main(args: List[str]) -> int: ...
def balance(
    bots: Optional[str] = None,
    *,
    players: Union[int, Tuple[int, int], None] = None,
    hands: Union[int, Tuple[int, int], None] = None,
    games: int = 4000,
    max_games: Optional[int] = None,
    seed: int = 1,
    rules: str = "wikipedia",
    set: int = 12,
    rounds: Optional[int] = None,
    options: Optional[Options] = None,
    objective: str = "balanced",
    metrics: Optional[List[str]] = None,
    threads: Optional[int] = None,
    max_blocked: Optional[float] = None,
    max_first_edge: Optional[float] = None,
    first_player: Optional[str] = None,
    min_skill: Optional[float] = None,
    max_skill: Optional[float] = None,
    margin: Optional[float] = None,
    python_bots: List[Tuple[str, Any]] = ...,
    progress: Optional[Callable[[int, int], None]] = None,
) -> Dict[str, Union[str, int, bool, Dict[str, str]]]: ...
def tune(
    bot: Optional[str] = None,
    *,
    params: List[str] = ...,
    iterations: int = 200,
    games: int = 64,
    perturbation: float = 0.1,
    rate: float = 2.0,
    seed: int = 1,
    confirm_sprt: Tuple[float, float] = (0.0, 10.0),
    confirm_games: int = 20_000,
    players: int = 4,
    rules: str = "wikipedia",
    set: int = 12,
    hand: Optional[int] = None,
    rounds: Optional[int] = None,
    options: Optional[Options] = None,
    threads: Optional[int] = None,
    progress: Optional[Callable[[int, int], None]] = None,
) -> Dict[str, Union[str, int, bool, Dict[str, str]]]: ...
def run(
    kind: str,
    spec: str,
    *,
    threads: Optional[int] = None,
    progress: Optional[Callable[[int, int], None]] = None,
) -> Dict[str, Union[str, int, bool, Dict[str, str]]]: ...

class Game:
    """A match configuration: rules preset, set, table size, rule changes."""

    def __init__(
        self,
        rules: str = "wikipedia",
        *,
        set: int = 12,
        players: int = 4,
        hand: Optional[int] = None,
        rounds: Optional[int] = None,
        options: Optional[Options] = None,
    ) -> None: ...
    def new_state(self, seed: int) -> State: ...
    def num_distinct_actions(self) -> int: ...
    def observation_shape(self) -> Tuple[int]: ...
    def num_players(self) -> int: ...
    def num_rounds(self) -> int: ...
    def spec(self) -> str: ...
    @classmethod
    def from_spec_json(cls, spec: str) -> Game: ...
    def deserialize_state(self, text: str) -> State: ...

class State:
    """A match in play, one decision at a time."""

    def current_player(self) -> int: ...
    def legal_actions(self) -> List[int]: ...
    def apply_action(self, action: int) -> None: ...
    def action_to_string(self, action: int) -> str: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> List[float]: ...
    def scores(self) -> List[int]: ...
    def round(self) -> int: ...
    def observation(self, player: int) -> Dict[str, Any]: ...
    def observation_tensor(self, player: int) -> Any: ...
    def resample_from_infostate(self, player: int, seed: int) -> State: ...
    def clone(self) -> State: ...
    def serialize(self) -> str: ...
    def game(self) -> Game: ...
    def history_len(self) -> int: ...

class Solo:
    """One seat of a match played from Python, the others by built-in bots (mtrain.gym's core)."""

    def __init__(
        self, game: Game, opponents: List[str], seat: int = 0, python_bots: List[Tuple[str, Any]] = ...
    ) -> None: ...
    def reset(self, seed: int) -> Tuple[List[float], bytes]: ...
    def step(self, action: int) -> Tuple[List[float], bytes, float, bool, bool]: ...
    def state(self) -> State: ...

class VecEnv:
    """n games of one seat against built-in bots, stepped in Rust (see mtrain.vec_env)."""

    def __init__(
        self,
        n: int,
        game: Game,
        opponents: List[str],
        seat: int = 0,
        seed: int = 1,
        python_bots: List[Tuple[str, Any]] = ...,
    ) -> None: ...
    def reset(self) -> None: ...
    def step(self, actions: Any) -> None: ...
    @property
    def obs(self) -> Any: ...
    @property
    def mask(self) -> Any: ...
    @property
    def rewards(self) -> Any: ...
    @property
    def dones(self) -> Any: ...
    def __len__(self) -> int: ...
