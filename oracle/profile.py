"""Rule profiles: TOML data files of parameters, each with its clauses and status.

A profile names its game and source document and lists parameters as
``name = { value = ..., clauses = [...], status = "documented" | "assumed",
note = "..." }``. A profile may ``extends`` another (a shipped id, or a path
relative to its own file) and override parameters; an override may give only
``value``: it keeps the clauses (a value that chooses a variant, such as
more than two hands, cites that variant's clause first: ``ParamSpec.variant``),
and becomes ``assumed`` when the value changes (a changed value is not what
the document states). Loading is strict: an unknown key, an unknown
clause or an impossible value is a ``ProfileError`` naming the file and key.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from croupier.oracle.clauses import BY_ID, Game
from croupier.oracle.errors import ProfileError, UnknownProfileError
from croupier.oracle.immutable import Choice
from croupier.oracle.money import Odds, Rounding
from croupier.oracle.parameters import CLASHES, SPECS, ParamSpec, ParamValue, RawValue

SHIPPED_IDS: tuple[str, ...] = (
    "blackjack-a",
    "blackjack-c",
    "baccarat-b",
    "baccarat-c",
    "baccarat-d",
    "roulette-c",
    "roulette-american",
)

_T = TypeVar("_T")

_TOP_KEYS = frozenset({"id", "game", "title", "source", "extends", "parameters"})
_PARAM_KEYS = frozenset({"value", "clauses", "status", "note"})
_MAX_EXTENDS_DEPTH = 8


class Status(Choice):
    """Whether the source document fixes a parameter or the reading assumes it."""

    DOCUMENTED = "documented"
    ASSUMED = "assumed"


@dataclass(frozen=True, slots=True, kw_only=True)
class Parameter:
    """One parameter of a profile: its value and where the value comes from."""

    name: str
    raw: RawValue
    value: ParamValue
    clauses: tuple[str, ...]
    status: Status
    note: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Profile:
    """A complete, validated rule profile."""

    id: str
    game: Game
    title: str
    source: str
    extends: str | None
    parameters: tuple[Parameter, ...]
    origin: str

    def __hash__(self) -> int:
        # Equal profiles share an id, so this is a valid hash; the generated one hashes every
        # parameter, and profiles key the typed-rules caches that every round looks up.
        return hash(self.id)

    def __getitem__(self, name: str) -> ParamValue:
        """The value of a parameter, or its default when the profile does not list it."""
        for param in self.parameters:
            if param.name == name:
                return param.value
        spec = SPECS[self.game].get(name)
        if spec is None:
            raise KeyError(f"{self.game.value} has no parameter {name!r}")
        return spec.convert(spec.default)

    def integer(self, name: str) -> int:
        """An integer parameter (never a true/false one, although bool is an int in Python)."""
        value = self[name]
        if isinstance(value, bool):
            raise TypeError(f"parameter {name!r} is not of type int")
        return _typed(value, int, name)

    def flag(self, name: str) -> bool:
        """A true/false parameter."""
        return _typed(self[name], bool, name)

    def choice(self, name: str) -> str:
        """A parameter chosen from a fixed list of words."""
        return _typed(self[name], str, name)

    def odds(self, name: str) -> Odds:
        """A payout parameter, as net odds."""
        return _typed(self[name], Odds, name)

    def optional_odds(self, name: str) -> Odds | None:
        """A payout parameter that may be ``none`` (the rule does not apply)."""
        value = self[name]
        return None if value is None else _typed(value, Odds, name)

    def words(self, name: str) -> tuple[str, ...]:
        """A set of words, in the parameter's own order (``bets_offered``)."""
        return _typed(self[name], tuple, name)

    def fraction(self, name: str) -> Fraction:
        """An exact share, like a commission."""
        return _typed(self[name], Fraction, name)

    def rounding(self, name: str = "rounding") -> Rounding:
        """A rounding rule."""
        return _typed(self[name], Rounding, name)

    def parameter(self, name: str) -> Parameter | None:
        """The listed parameter of that name, if the profile lists it."""
        return next((p for p in self.parameters if p.name == name), None)

    def clause_ids(self) -> frozenset[str]:
        """Every clause some parameter of the profile cites."""
        return frozenset(c for p in self.parameters for c in p.clauses)

    def citations(self) -> Citations:
        """The clauses each parameter's rule is cited by, under this profile."""
        return _citations(self)


class Citations:
    """The clauses behind a profile's parameters: as the profile lists them, else the default.

    Every step of every round cites, and a profile asks few distinct questions, so each
    answer is computed once.
    """

    __slots__ = ("_answers", "_table")

    def __init__(self, table: Mapping[str, tuple[str, ...]]) -> None:
        self._table = dict(table)
        self._answers: dict[tuple[str, ...], tuple[str, ...]] = {}

    def __call__(self, *names: str) -> tuple[str, ...]:
        """The clauses of these parameters, in order, each once."""
        found = self._answers.get(names)
        if found is None:
            merged: dict[str, None] = {}
            for name in names:
                merged.update(dict.fromkeys(self._table[name]))
            found = self._answers[names] = tuple(merged)
        return found

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Citations) and self._table == other._table

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._table.items())))

    def __repr__(self) -> str:
        return f"Citations({self._table!r})"


@cache
def _citations(profile: Profile) -> Citations:
    table = {name: spec.clauses for name, spec in SPECS[profile.game].items()}
    table.update((param.name, param.clauses) for param in profile.parameters)
    return Citations(table)


def _typed(value: object, kind: type[_T], name: str) -> _T:
    if not isinstance(value, kind):
        raise TypeError(f"parameter {name!r} is not of type {kind.__name__}")
    return value


def _fail(origin: str, key: str, message: str) -> ProfileError:
    return ProfileError(f"{origin}: {key}: {message}", file=origin, key=key)


def _check_keys(origin: str, where: str, table: Mapping[str, Any], allowed: frozenset[str]) -> None:
    for key in table:
        if key not in allowed:
            path = f"{where}.{key}" if where else key
            raise _fail(origin, path, f"unknown key (expected one of {', '.join(sorted(allowed))})")


def _string(origin: str, key: str, value: object) -> str:
    if not isinstance(value, str) or not value:
        raise _fail(origin, key, f"expected a non-empty string, got {value!r}")
    return value


def _parse_clauses(
    origin: str,
    key: str,
    table: Mapping[str, Any],
    *,
    base: Parameter | None,
    spec: ParamSpec,
    value: ParamValue,
) -> tuple[str, ...]:
    """A parameter's clauses: as listed, else inherited (a variant's chosen value first)."""
    if "clauses" in table:
        clauses = table["clauses"]
        if (
            not isinstance(clauses, list)
            or not clauses
            or not all(isinstance(c, str) for c in clauses)
        ):
            raise _fail(origin, f"{key}.clauses", "expected a non-empty list of clause IDs")
        for cid in clauses:
            if cid not in BY_ID:
                raise _fail(origin, f"{key}.clauses", f"unknown clause {cid!r}")
        if len(set(clauses)) != len(clauses):
            raise _fail(origin, f"{key}.clauses", "lists a clause twice")
        return tuple(clauses)
    if base is None:
        raise _fail(origin, key, "missing 'clauses'")
    if spec.chooses_variant(value) and spec.variant not in base.clauses:
        # A value the inherited clause does not state (four hands where A.split says two) is
        # the variant's rule: it is cited first, the inherited clause after it.
        return (spec.variant, *base.clauses)
    return base.clauses


def _parse_parameter(
    origin: str,
    game: Game,
    name: str,
    table: object,
    base: Parameter | None,
) -> Parameter:
    key = f"parameters.{name}"
    spec: ParamSpec | None = SPECS[game].get(name)
    if spec is None:
        known = ", ".join(SPECS[game])
        raise _fail(origin, key, f"unknown {game.value} parameter (known: {known})")
    if not isinstance(table, dict):
        raise _fail(
            origin, key, "expected a table like { value = ..., clauses = [...], status = ... }"
        )
    _check_keys(origin, key, table, _PARAM_KEYS)
    if "value" not in table:
        raise _fail(origin, key, "missing 'value'")
    raw = table["value"]
    if isinstance(raw, list):
        raw = tuple(raw)
    try:
        value = spec.convert(raw)
    except ValueError as exc:
        raise _fail(origin, f"{key}.value", str(exc)) from None

    clause_ids = _parse_clauses(origin, key, table, base=base, spec=spec, value=value)

    if "status" in table:
        try:
            status = Status(table["status"])
        except ValueError:
            raise _fail(origin, f"{key}.status", "expected 'documented' or 'assumed'") from None
    elif base is not None and base.value == value:
        status = base.status
    elif base is not None:
        # A changed value is no longer what the source document states.
        status = Status.ASSUMED
    else:
        raise _fail(origin, key, "missing 'status'")

    if base is None:
        default_note = ""
    elif base.value == value:
        default_note = base.note
    else:
        default_note = f"Changed from {base.raw!r} by this profile."
    note = table.get("note", default_note)
    if not isinstance(note, str):
        raise _fail(origin, f"{key}.note", "expected a string")
    return Parameter(name=name, raw=raw, value=value, clauses=clause_ids, status=status, note=note)


def _clashes(profile: Profile, failed: frozenset[str]) -> list[ProfileError]:
    """Values that cannot go together (``oracle.parameters.CLASHES``), each named.

    A clash that involves a parameter whose own value was refused is not judged: that
    value's problem is reported already, and the default in its place would be a guess.
    """
    found = []
    for clash in CLASHES[profile.game]:
        if failed.intersection(clash.names):
            continue
        message = clash.check(profile.__getitem__)
        if message is not None:
            found.append(_fail(profile.origin, f"parameters.{clash.names[0]}", message))
    return found


def _all_problems(origin: str, problems: Sequence[ProfileError]) -> ProfileError:
    """One error naming every problem of a profile; a single problem is raised as it is."""
    if len(problems) == 1:
        return problems[0]
    keys = [p.metadata["key"] for p in problems]
    # Each problem's message starts with the origin; the joined message names it once.
    parts = "; ".join(p.message.removeprefix(f"{origin}: ") for p in problems)
    return ProfileError(
        f"{origin}: {len(problems)} problems: {parts}",
        file=origin,
        key=keys[0],
        keys=",".join(keys),
    )


def _load(path: Path, origin: str, depth: int) -> Profile:
    try:
        if path.exists() and not path.is_file():
            # A FIFO would block the read until a writer came; a directory cannot be read.
            raise ProfileError(f"{origin}: not a regular file", file=origin)
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ProfileError(f"{origin}: cannot read: {exc.strerror}", file=origin) from None
    except UnicodeDecodeError:
        raise ProfileError(f"{origin}: not UTF-8 text", file=origin) from None
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{origin}: not valid TOML: {exc}", file=origin) from None
    except RecursionError:  # tomllib parses nested arrays and tables by recursion
        raise ProfileError(f"{origin}: not a profile: nested too deep", file=origin) from None
    return _build(data, origin, path.parent, depth)


def _build(data: Mapping[str, Any], origin: str, folder: Path | None, depth: int) -> Profile:
    _check_keys(origin, "", data, _TOP_KEYS)
    profile_id = _string(origin, "id", data.get("id"))
    base: Profile | None = None
    extends = data.get("extends")
    if extends is not None:
        extends = _string(origin, "extends", extends)
        if depth >= _MAX_EXTENDS_DEPTH:
            raise _fail(
                origin, "extends", f"profiles extend each other more than {_MAX_EXTENDS_DEPTH} deep"
            )
        if extends in SHIPPED_IDS:
            base = shipped_profile(extends)
        elif folder is not None and (folder / extends).is_file():
            base = _load(folder / extends, str(folder / extends), depth + 1)
        else:
            raise _fail(origin, "extends", f"no shipped profile or file {extends!r}")

    game_raw = data.get("game", base.game.value if base else None)
    try:
        game = Game(game_raw)
    except ValueError:
        raise _fail(origin, "game", f"expected one of {', '.join(g.value for g in Game)}") from None
    if base is not None and base.game is not game:
        raise _fail(origin, "game", f"is {game.value} but {base.id!r} is {base.game.value}")

    title = _string(origin, "title", data.get("title", base.title if base else None))
    source = _string(origin, "source", data.get("source", base.source if base else None))

    params_raw = data.get("parameters", {})
    if not isinstance(params_raw, dict):
        raise _fail(origin, "parameters", "expected a table")
    inherited = {p.name: p for p in base.parameters} if base else {}
    merged = dict(inherited)
    problems: list[ProfileError] = []
    failed: set[str] = set()
    for name, table in params_raw.items():
        try:
            merged[name] = _parse_parameter(origin, game, name, table, inherited.get(name))
        except ProfileError as exc:
            # Every problem is named, not only the first: a lab fixes its file once.
            problems.append(exc)
            failed.add(name)
    order = list(SPECS[game])
    parameters = tuple(sorted(merged.values(), key=lambda p: order.index(p.name)))
    profile = Profile(
        id=profile_id,
        game=game,
        title=title,
        source=source,
        extends=extends,
        parameters=parameters,
        origin=origin,
    )
    problems.extend(_clashes(profile, frozenset(failed)))
    if problems:
        raise _all_problems(origin, problems)
    return profile


@cache
def shipped_profile(profile_id: str) -> Profile:
    """One of the seven profiles that ship in ``oracle/profiles``."""
    if profile_id not in SHIPPED_IDS:
        raise UnknownProfileError(
            f"unknown profile {profile_id!r}; shipped profiles: {', '.join(SHIPPED_IDS)}",
            profile=profile_id,
        )
    name = f"{profile_id}.toml"
    text = resources.files("croupier.oracle.profiles").joinpath(name).read_text(encoding="utf-8")
    origin = f"oracle/profiles/{name}"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{origin}: not valid TOML: {exc}", file=origin) from None
    profile = _build(data, origin, None, 0)
    if profile.id != profile_id:
        raise _fail(origin, "id", f"is {profile.id!r}, expected {profile_id!r}")
    return profile


def shipped_profiles() -> tuple[Profile, ...]:
    """All shipped profiles, in their canonical order."""
    return tuple(shipped_profile(pid) for pid in SHIPPED_IDS)


def load_profile_file(path: str | Path) -> Profile:
    """Load a lab's profile file, which may extend a shipped profile or another file."""
    path = Path(path)
    return _load(path, str(path), 0)


def load_profile_text(text: str, origin: str = "<profile>") -> Profile:
    """Load a profile from TOML text; ``extends`` may name only a shipped profile."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{origin}: not valid TOML: {exc}", file=origin) from None
    return _build(data, origin, None, 0)


def resolve_profile(id_or_path: str) -> Profile:
    """A shipped profile by id, or a profile file by path."""
    if id_or_path in SHIPPED_IDS:
        return shipped_profile(id_or_path)
    if id_or_path.endswith(".toml") or _is_file(id_or_path):
        return load_profile_file(id_or_path)
    return shipped_profile(id_or_path)


def _is_file(name: str) -> bool:
    """Whether ``name`` is a file; a name the system cannot look up (too long...) is not."""
    try:
        return Path(name).is_file()
    except OSError:
        return False


@dataclass(frozen=True, slots=True)
class Profiles:
    """The profiles one server, run or audit knows, by id: the shipped seven and a lab's own.

    The one registry: a lab profile may not take a shipped profile's id (it would change
    what that id means), nor may two lab profiles share one.
    """

    by_id: Mapping[str, Profile]

    @classmethod
    def load(cls, lab: Sequence[str | Path] = ()) -> Profiles:
        """The shipped profiles and the lab's, each given as a shipped id or a file path."""
        found = {profile.id: profile for profile in shipped_profiles()}
        labs: dict[str, str] = {}
        for item in lab:
            profile = resolve_profile(str(item))
            if profile.id in SHIPPED_IDS:
                if profile is not shipped_profile(profile.id):
                    raise ProfileError(
                        f"{profile.origin}: id {profile.id!r} is a shipped profile's; a lab "
                        "profile needs its own id (it may extend the shipped one)",
                        file=profile.origin,
                        key="id",
                    )
                continue
            if profile.id in labs:
                raise ProfileError(
                    f"{profile.origin}: id {profile.id!r} is also {labs[profile.id]}'s",
                    file=profile.origin,
                    key="id",
                )
            labs[profile.id] = profile.origin
            found[profile.id] = profile
        return cls(by_id=found)

    def get(self, profile_id: str) -> Profile:
        """The profile with this id; ``UnknownProfileError`` naming the known ones."""
        found = self.by_id.get(profile_id)
        if found is None:
            raise UnknownProfileError(
                f"unknown profile {profile_id!r}; known: {', '.join(self.by_id)}",
                profile=profile_id,
            )
        return found

    def __iter__(self) -> Iterator[Profile]:
        return iter(self.by_id.values())
