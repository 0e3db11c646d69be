"""A lab profile's corpus for ``croupier certify --profile-file``: built once, then cached.

The corpus is what ``croupier vectors build --profile FILE`` makes (``build_lab``): the
contract's refusals every profile shares (the shipped table cases whose hand-computed
outcome holds under the profile), the targeted rounds generated from the profile's
parameters (``conformance.targeted``), its refusal vectors, and a campaign of a fixed seed
and round count, so every lab that certifies against the same profile plays the same
vectors. It is kept as one binary vector file in a cache directory outside the installed
package, named by the profile's id, the digest of its resolved rules, the suite version and
the builder's version (``BUILDER``): a changed profile, another suite or another builder
builds anew, anything else reads the cached file.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from croupier import oracle
from croupier.conformance.cases import CaseError, build_case
from croupier.conformance.handwritten._table import table_cases
from croupier.conformance.targeted.builder import Targeted, build_targeted
from croupier.conformance.targeted.refusals import build_refusals
from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import (
    BINARY,
    VectorFileError,
    campaign,
    read_vectors,
    write_vectors,
)
from croupier.oracle.parameters import SPECS
from croupier.oracle.profile import SHIPPED_IDS, Profile, load_profile_file, shipped_profile

#: The lab corpus's campaign rounds (roulette plays them in vectors of 20 rounds at one table).
LAB_ROUNDS = 1000
#: The builder's version, part of the cache key: raise it whenever the builder makes other
#: vectors for the same profile (a generator added or changed), so that old caches are rebuilt.
BUILDER = "b5"


@dataclass(frozen=True, slots=True, kw_only=True)
class Difference:
    """A parameter whose value differs from the profile the lab profile extends."""

    name: str
    base: str
    value: str


@dataclass(frozen=True, slots=True, kw_only=True)
class LabCorpus:
    """A lab profile and its corpus file: where it is, and what the certificate says of it."""

    profile: Profile
    #: The profile file as given on the command line.
    file: Path
    #: SHA-256 of the profile's resolved rules (``profile_digest``).
    digest: str
    #: The cached binary vector file.
    path: Path
    #: What differs from the profile it extends (from the game's defaults without one).
    differences: tuple[Difference, ...]
    #: Whether this call built the file (else it was read from the cache).
    built: bool

    def header(self) -> dict[str, object]:
        """The report header's entry: file, id, digest, extends and the differences."""
        return {
            "file": str(self.file),
            "id": self.profile.id,
            "digest": self.digest,
            "extends": self.profile.extends or "",
            "differs": [
                {"name": d.name, "base": d.base, "value": d.value} for d in self.differences
            ],
        }


def value_text(raw: object) -> str:
    """A parameter value as a profile file writes it (``true``, ``1:1``, ``a, b``)."""
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, tuple):
        return ", ".join(str(item) for item in raw)
    return str(getattr(raw, "value", raw))


def profile_digest(profile: Profile) -> str:
    """SHA-256 of a profile's resolved rules: id, game, and every parameter's value and clauses.

    Taken after ``extends`` is resolved, so an edited parent file changes it too; the file's
    path, title and comments do not.
    """
    rules = {
        "id": profile.id,
        "game": profile.game.value,
        "parameters": {
            name: [value_text(profile[name]), *_listed(profile, name)]
            for name in SPECS[profile.game]
        },
    }
    return hashlib.sha256(json.dumps(rules, sort_keys=True).encode()).hexdigest()


def _listed(profile: Profile, name: str) -> list[str]:
    param = profile.parameter(name)
    return [] if param is None else [*param.clauses, param.status.value]


def base_profile(profile: Profile) -> Profile | None:
    """The profile ``profile`` extends: a shipped one, or a file beside it; None without one."""
    if profile.extends is None:
        return None
    if profile.extends in SHIPPED_IDS:
        return shipped_profile(profile.extends)
    return load_profile_file(Path(profile.origin).parent / profile.extends)


def differences(profile: Profile) -> tuple[Difference, ...]:
    """Every parameter whose value differs from the extended profile's (or the default).

    Values are compared as the rules read them (``0.05`` is ``1/20``) and shown as the
    profile files write them.
    """
    base = base_profile(profile)
    found = []
    for name, spec in SPECS[profile.game].items():
        was = base[name] if base is not None else spec.convert(spec.default)
        if profile[name] != was:
            found.append(
                Difference(
                    name=name,
                    base=_written(base, name, spec.default),
                    value=_written(profile, name, spec.default),
                )
            )
    return tuple(found)


def _written(profile: Profile | None, name: str, default: object) -> str:
    param = None if profile is None else profile.parameter(name)
    return value_text(default if param is None else param.raw)


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/croupier/vectors``, else ``~/.cache/croupier/vectors``."""
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(root) / "croupier" / "vectors"


@dataclass(frozen=True, slots=True, kw_only=True)
class LabBuild:
    """A lab profile's corpus, and its targeted part: how each other value is told apart."""

    vectors: tuple[vector_pb2.Vector, ...]
    targeted: Targeted


def lab_seed(profile: Profile) -> str:
    """The campaign seed of a lab profile's corpus."""
    return f"croupier/lab/{profile.id}"


def shared_cases(profile: Profile) -> list[vector_pb2.Vector]:
    """The contract's refusals every profile shares, ids ``<profile>-hNNN``.

    The shipped table cases (``conformance.handwritten._table``), each kept where its
    hand-computed outcome holds under the profile too.
    """
    found = []
    for case in table_cases(profile.id, profile.id, profile.game, limits=("TABLE.limits",)):
        try:
            found.append(build_case(case, profile))
        except CaseError:
            continue  # the profile plays that round otherwise than the shipped ones
    return found


def build_lab(profile: Profile, rounds: int = LAB_ROUNDS, seed: str | None = None) -> LabBuild:
    """A profile's full corpus: shared refusals, targeted rounds, refusals, then a campaign."""
    targeted = build_targeted(profile)
    vectors = (
        *shared_cases(profile),
        *targeted.vectors,
        *build_refusals(profile),
        *campaign(profile, seed or lab_seed(profile), rounds, profile.id),
    )
    return LabBuild(vectors=vectors, targeted=targeted)


def build_vectors(profile: Profile) -> list[vector_pb2.Vector]:
    """The lab profile's corpus (``build_lab``): ``LAB_ROUNDS`` campaign rounds among them."""
    return list(build_lab(profile).vectors)


def lab_corpus(
    file: Path,
    cache_dir: Path,
    *,
    profile: Profile | None = None,
    say: Callable[[str], None] = lambda _text: None,
) -> LabCorpus:
    """The profile file's corpus, from the cache or built into it (``ProfileError`` if bad).

    ``profile`` is the file's, when already loaded. A cached file that does not read back
    (cut short, edited) is built again.
    """
    profile = profile or load_profile_file(file)
    digest = profile_digest(profile)
    path = cache_dir / f"{profile.id}-{digest[:16]}-{oracle.__version__}-{BUILDER}{BINARY}"
    built = False
    if not _readable(path):
        say(f"building the corpus of {profile.id} ({file}) into {path}")
        cache_dir.mkdir(parents=True, exist_ok=True)
        # Written beside, then renamed: a run that stops half-way leaves no cut file.
        partial = path.with_name(f".partial-{os.getpid()}-{path.name}")
        write_vectors(partial, build_vectors(profile))
        partial.replace(path)
        built = True
    return LabCorpus(
        profile=profile,
        file=file,
        digest=digest,
        path=path,
        differences=differences(profile),
        built=built,
    )


def _readable(path: Path) -> bool:
    if not path.is_file():
        return False
    try:
        for _ in read_vectors(path):
            pass
    except VectorFileError:
        return False
    return True
