"""The study: what every playing command shares (game, player counts, games, seed, line-up, rule parameter and knob
overrides, threads, chunk size, output), validated once and then frozen.

A `Study` is built from the parsed command line (`Study.from_args`), from a TOML file (`Study.from_file`, the
`--study FILE` option: flags given beside it win over the file's values) or directly; `replace()` makes a variant.
Every field is checked in `__post_init__`, so each way in gives the same object and the same one-line error for a
bad value (`sim/inputs.py` checks the numbers).  A study file uses the field names as keys::

    game = "bang_dice"
    players = "4-6"              # 5, [4, 5] or "3-8"
    games = 20000
    seed = 1
    lineup = ["belief", "aggressive"]    # or strategies = [...] (fixed seats)
    preset = "full"
    threads = 2

    [set]                        # rule parameters and strategy knobs (strategy.<preset>.<knob>)
    module.ghost = "on"
"""

import dataclasses
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .errors import UserError, suggest

# study field -> the command-line option that sets it (the argparse dest in sim/cli.py)
FLAGS = {
    "game": "game",
    "players": "players",
    "games": "games",
    "seed": "seed",
    "lineup": "lineup",
    "strategies": "strategies",
    "all_rotations": "all_rotations",
    "mirror": "mirror",
    "params": "set",
    "preset": "preset",
    "strategy_files": "strategy_file",
    "threads": "threads",
    "chunk_size": "chunk_size",
    "out": "out",
    "progress": "no_progress",
}
# study field -> its key in a study file
FILE_KEYS = {name: ("set" if name == "params" else name) for name in FLAGS if name != "progress"}


def _option(name):
    """How a field is named in an error about a command-line value."""
    return {"game": "GAME", "params": "--set", "strategy_files": "--strategy-file"}.get(
        name, "--" + name.replace("_", "-")
    )


def _text(value, what):
    if not isinstance(value, (str, Path)):
        raise UserError(f"{what} must be text (got {value!r})")
    return str(value)


def _value_text(value):
    """A parameter value as the command line would give it (files give numbers and true/false)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).strip()


def _params(value, what):
    """Overrides -> a tuple of (name, value as text) pairs, the last of a repeated name winning.  Takes a dict
    (dotted TOML keys nest: they are flattened), "name=value" strings, or (name, value) pairs."""
    if isinstance(value, dict):
        from .inputs import flatten

        pairs = list(flatten(value, what).items())
    elif isinstance(value, (list, tuple)):
        pairs = []
        for item in value:
            if isinstance(item, str):
                if "=" not in item:
                    raise UserError(f"{what} takes name=value (got '{item}')")
                pairs.append(tuple(item.split("=", 1)))
            elif isinstance(item, (list, tuple)) and len(item) == 2:
                pairs.append(tuple(item))
            else:
                raise UserError(f"{what} takes name=value entries (got {item!r})")
    else:
        raise UserError(f"{what} must be a table of name = value entries (got {value!r})")
    out = {}
    for name, v in pairs:
        if isinstance(v, (list, dict)):
            raise UserError(f"{what}: {name} takes one value (got {v!r})")
        out[str(name).strip()] = _value_text(v)
    return tuple(out.items())


def _renamed(check, value, what, flag):
    """Run a check written for a command-line flag, naming `what` in its message instead."""
    try:
        return check(value)
    except UserError as e:
        text = str(e)
        raise UserError(text.replace(flag, what, 1) if text.startswith(flag) else f"{what}: {text}") from None


def normalise(name, value, what=None):
    """One field's value checked and put in its one form (idempotent); UserError naming `what` otherwise.  The
    checks that need the game (player counts, the preset) are in Study.__post_init__."""
    from . import inputs

    what = what or _option(name)
    if name == "game":
        if isinstance(value, str):
            from .game import get_game

            if what == "GAME":  # on the command line: the registry's own words
                get_game(value)
            else:
                _renamed(get_game, value, what, "\0")
            return value
        if not hasattr(value, "params"):
            raise UserError(f"{what} must be a game name (got {value!r})")
        return value  # a GameSpec registered outside sim/games
    if name == "players":
        if value is None or value == ():
            return ()
        return inputs.parse_player_counts(list(value) if isinstance(value, tuple) else value, what)
    if name in ("games", "chunk_size"):
        if value is None:
            return None
        value = inputs.whole(value, what)
        if name == "games":
            from .runner import check_games

            value = check_games(value, what)
        return value
    if name == "seed":
        from .runner import check_seed

        return _renamed(check_seed, value, what, "--seed")
    if name in ("lineup", "strategies"):
        return None if value is None else inputs.names(value, what)
    if name in ("all_rotations", "mirror", "progress"):
        return inputs.switch(value, what)
    if name == "params":
        return _params(value or (), what)
    if name in ("preset", "out"):
        return None if value is None else _text(value, what)
    if name == "strategy_files":
        if value is None:
            return ()
        return tuple(_text(v, what) for v in ([value] if isinstance(value, (str, Path)) else value))
    if name == "threads":
        return inputs.threads(value, what)
    raise AssertionError(name)


@dataclass(frozen=True)
class Study:
    """The shared settings of one study, validated.  `games` None: the command's own default; `players` (): the
    game's usual count; `params`: (name, value) pairs of rule parameters and knobs, applied over the `preset`."""

    game: object
    players: tuple = ()
    games: int = None
    seed: int = 0
    lineup: tuple = None
    strategies: tuple = None
    all_rotations: bool = False
    mirror: bool = False
    params: tuple = ()
    preset: str = None
    strategy_files: tuple = ()
    threads: int = None
    chunk_size: int = None
    out: str = None
    progress: bool = True
    command: str = field(default=None, compare=False)  # the command line recorded in manifests
    # the fields set by flags or a study file (built directly: those that differ from the defaults); a sweep puts
    # only these over its sweep file
    given: frozenset = field(default=None, compare=False)

    def __post_init__(self):
        for f in dataclasses.fields(self):
            if f.name not in ("command", "given"):
                object.__setattr__(self, f.name, normalise(f.name, getattr(self, f.name)))
        if self.given is None:
            given = {f.name for f in dataclasses.fields(self) if f.name in FLAGS and getattr(self, f.name) != f.default}
            object.__setattr__(self, "given", frozenset(given | {"game"}))
        object.__setattr__(self, "given", frozenset(self.given))
        for n in self.players:
            self.spec.check_players(n)
        if self.preset is not None:
            from .presets import preset_params

            preset_params(self.name, self.preset)  # one line naming the valid presets

    # ---------------------------------------------------------------------------------------------- reading

    @property
    def spec(self):
        from .game import get_game

        return get_game(self.game) if isinstance(self.game, str) else self.game

    @property
    def name(self):
        return self.spec.name

    @property
    def player_counts(self):
        """The player counts played: the given ones, else the game's usual count."""
        return self.players or (self.spec.default_players,)

    def player_count(self, command):
        """The one player count of a command that studies one at a time."""
        counts = self.player_counts
        if len(counts) != 1:
            raise UserError(f"sim {command} works on one player count at a time (got {','.join(map(str, counts))})")
        return counts[0]

    def games_or(self, default):
        return default if self.games is None else self.games

    @property
    def sets(self):
        """The explicit overrides as a dict (without the preset)."""
        return dict(self.params)

    @property
    def overrides(self):
        """Rule parameter and knob overrides: the preset's values, then the explicit ones over them."""
        from .presets import with_preset

        return with_preset(self.name, self.preset, self.sets)

    def load_strategy_files(self):
        """Register the preset files the line-ups may name."""
        from .knobs import load_files

        return load_files(self.spec, list(self.strategy_files))

    def replace(self, **changes):
        """A variant of this study (checked like any other)."""
        given = self.given | {k for k in changes if k in FLAGS}
        return dataclasses.replace(self, **changes, given=given)

    # ---------------------------------------------------------------------------------------------- building

    @classmethod
    def from_args(cls, ns, **defaults):
        """The study of a parsed command line: `defaults` (the command's own), then a `--study FILE`, then every
        flag that was given."""
        values, given = dict(defaults), set()
        path = getattr(ns, "study", None)
        if path:
            from_file = read_study_file(path)
            params = from_file.pop("params", ())
            values.update(from_file)
            given |= set(from_file) | ({"params"} if params else set())
            if params:
                values["params"] = params
        for name, dest in FLAGS.items():
            if not hasattr(ns, dest):
                continue
            value = getattr(ns, dest)
            if name == "progress":  # the flag is --no-progress
                if value:
                    values["progress"] = False
                    given.add("progress")
                continue
            if value is None or value is False or value == []:
                continue  # not given on the command line
            if name == "params":  # --set entries go over the file's
                value = _params(list(values.get("params", ())) + list(value), "--set")
            values[name] = value
            given.add(name)
        if values.get("game") is None:
            raise UserError('no game given: name one (sim COMMAND GAME) or give game = "..." in the --study file')
        return cls(**values, command=" ".join(sys.argv), given=frozenset(given))

    @classmethod
    def from_file(cls, path, **defaults):
        """The study of a TOML file (fields missing there: `defaults`, then the Study's own)."""
        values = {**defaults, **read_study_file(path)}
        if values.get("game") is None:
            raise UserError(f'study file {path} names no game (game = "...")')
        return cls(**values, given=frozenset(values) - set(defaults))


def read_study_file(path):
    """A study file's fields, each checked with a one-line error naming the file and the key."""
    from .inputs import read_toml

    raw = read_toml(path, "study file")
    keys = {key: name for name, key in FILE_KEYS.items()}
    out = {}
    for key, value in raw.items():
        if key not in keys:
            raise suggest(key, list(keys), f"key in study file {path}")
        out[keys[key]] = normalise(keys[key], value, f"study file {path}: {key}")
    if out.get("lineup") is not None and out.get("strategies") is not None:
        raise UserError(f"study file {path}: give lineup (rotated) or strategies (fixed seats), not both")
    if "game" in out:  # what needs the game: its player counts, its presets
        try:
            Study(**out)
        except UserError as e:
            raise UserError(f"study file {path}: {e}") from None
    return out
