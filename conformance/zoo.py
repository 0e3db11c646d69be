"""The mutant zoo: certify every mutant against the shipped corpus and check who kills it.

``python -m croupier.conformance.zoo [NAME...] [--jobs N] [--quick]`` (``make mutants``) launches each
mutant as the runner's ``--launch`` engine and plays every hand-written vector, then every
generated one, the mutant's own profile's first in each (``--quick``: each only until three
have failed in all). It prints one row per mutant:
the clause it breaks, how many vectors killed it (and how many of them hand-written), the
first failing vector (the hand-written one with the smallest id, of the mutant's profile
first) and the clause the runner cited for it. Exit code 1 unless every mutant is killed with its clause, by a hand-written
vector and by at least three vectors in all.

The suite's test of itself: it drives the mutants of ``clients/mutants`` (vendor-style
engines that import neither the oracle nor the suite) through the conformance runner.

A recovery mutant (``RECOVERY_MUTANTS``, CONTRACT.recovery) is served with a state directory
of its own, claims recovery, and plays the recovery vectors (``conformance/recovery/``), which
restart it: those scripted vectors stand for its hand-written ones, and it must be killed
by three of them or more.
"""

from __future__ import annotations

import argparse
import asyncio
import shlex
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from croupier.clients.mutants import MUTANTS, RECOVERY_MUTANTS, Mutant
from croupier.conformance.invocation import croupier_command
from croupier.conformance.recovery import RECOVERY_DIR
from croupier.conformance.runner import BAD, Result, RunConfig, run
from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import CORPUS_DIR, LoadedVector, load_corpus

#: Vectors in flight at once while a mutant plays a stage.
CONCURRENCY = 8
#: Deadline of every call the runner makes, in seconds: engines on this machine answer in
#: milliseconds, and a hanging one should not cost much.
TIMEOUT = 5.0
#: The fewest vectors that must kill each mutant: one bug seen by a single vector would pass a
#: smaller or reshuffled corpus.
AT_LEAST = 3


def launch_command(name: str, state_dir: str = "") -> str:
    """The ``--launch`` command that serves one mutant (journaling in ``state_dir``, if given)."""
    state = ["--state-dir", state_dir] if state_dir else []
    return shlex.join([sys.executable, "-m", "croupier.clients.mutants", name, *state])


@dataclass(frozen=True, slots=True, kw_only=True)
class MutantVerdict:
    """How one mutant fared: the first vector that failed on it, and how many did."""

    mutant: Mutant
    #: The first bad result: the failing hand-written vector with the smallest id (of the
    #: mutant's own profile if any failed there), else the campaign one; None if it survived.
    first: Result | None
    #: ``hand-written``, ``campaigns`` or ``recovery``: the stage of ``first``.
    stage: str = ""
    #: How many hand-written vectors failed on the mutant.
    hand_kills: int = 0
    #: How many vectors failed on it in all (campaigns counted until ``at_least`` if asked).
    kills: int = 0
    seconds: float = 0.0
    #: Why the mutant could not be certified at all (it did not start, say).
    error: str = ""

    @property
    def killed(self) -> bool:
        """Whether some vector failed on the mutant."""
        return self.first is not None

    @property
    def clause_matches(self) -> bool:
        """Whether the runner cited the clause the mutant breaks."""
        return self.first is not None and self.first.clause == self.mutant.clause

    @property
    def ok(self) -> bool:
        """Killed with the right clause, by a hand-written vector and by enough in all."""
        return self.clause_matches and self.hand_kills > 0 and self.kills >= AT_LEAST


def split_corpus(corpus: Sequence[LoadedVector]) -> tuple[list[LoadedVector], list[LoadedVector]]:
    """The hand-written vectors and the campaign ones, each sorted by id."""
    hand = [v for v in corpus if v.hand_written]
    generated = [v for v in corpus if not v.hand_written]
    return sorted(hand, key=_vector_id), sorted(generated, key=_vector_id)


def _vector_id(loaded: LoadedVector) -> str:
    return loaded.vector.id


async def certify_mutant(
    mutant: Mutant,
    hand: Sequence[LoadedVector],
    generated: Sequence[LoadedVector],
    *,
    timeout: float = TIMEOUT,
    at_least: int | None = None,
    target: str | None = None,
) -> MutantVerdict:
    """Play every hand-written vector, then the campaigns, against one mutant; count kills.

    Each stage plays the mutant's own profile's vectors first, in order of id. With
    ``at_least``, each stage stops starting vectors as soon as that many have failed in all
    (the test suite's quick count); without it every vector is played (``make mutants``).
    The first failing vector is the same either way: the vectors start in order and those
    started are played to the end, so none before the first failure is left out.
    ``target``: the address of the mutant already served (the test suite serves every mutant
    from one process); by default the mutant is launched.
    """
    started = time.monotonic()
    if mutant.recovery:
        return await _certify_recovering(mutant, timeout=timeout)
    command = launch_command(mutant.name)

    def reproduce(vector: vector_pb2.Vector) -> str:
        return (
            f"{croupier_command()} certify --launch {shlex.quote(command)} "
            f"--vector {shlex.quote(vector.id)}"
        )

    async def stage(vectors: Sequence[LoadedVector], stop_after: int) -> list[Result]:
        if not vectors:
            return []
        report = await run(
            RunConfig(
                vectors=vectors,
                target=target,
                launch=None if target else command,
                concurrency=CONCURRENCY,
                timeout=timeout,
                stop_after=stop_after,
                reproduce=reproduce,
            )
        )
        return sorted((r for r in report.results if r.outcome in BAD), key=_result_id)

    # The mutant's own profile first: a count that stops at ``at_least`` reaches it there
    # instead of after thousands of vectors of the other games (the same kills, sooner).
    def own_profile_first(vectors: Sequence[LoadedVector]) -> list[LoadedVector]:
        return sorted(vectors, key=lambda v: (v.vector.profile_id != mutant.profile, v.vector.id))

    try:
        by_hand = await stage(own_profile_first(hand), at_least or 0)
        wanted = 0 if at_least is None else at_least - len(by_hand)
        if at_least is None or wanted > 0:
            by_campaign = await stage(own_profile_first(generated), wanted)
        else:
            by_campaign = []
    except Exception as exc:  # noqa: BLE001 - one mutant's trouble must not stop the zoo
        return _not_certified(mutant, started, exc)

    # A hang or a crash can fail vectors of other profiles in flight at the same time: the
    # first of the profile the mutant breaks is the one that shows its bug.
    def own_first(results: list[Result]) -> Result:
        return min(results, key=lambda r: (r.profile_id != mutant.profile, r.vector_id))

    first, where = (own_first(by_hand), "hand-written") if by_hand else (None, "")
    if first is None and by_campaign:
        first, where = own_first(by_campaign), "campaigns"
    return MutantVerdict(
        mutant=mutant,
        first=first,
        stage=where,
        hand_kills=len(by_hand),
        kills=len(by_hand) + len(by_campaign),
        seconds=time.monotonic() - started,
    )


def _result_id(result: Result) -> str:
    return result.vector_id


def _not_certified(mutant: Mutant, started: float, exc: Exception) -> MutantVerdict:
    """A mutant that could not be certified at all (it did not start, say)."""
    return MutantVerdict(
        mutant=mutant,
        first=None,
        seconds=time.monotonic() - started,
        error=f"{type(exc).__name__}: {exc}",
    )


async def _certify_recovering(mutant: Mutant, *, timeout: float) -> MutantVerdict:
    """A recovery mutant against every recovery vector, journaling in a directory of its own."""
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="croupier-zoo-") as state:
        command = launch_command(mutant.name, state)
        try:
            report = await run(
                RunConfig(
                    vectors=(),
                    recovery_vectors=load_corpus(RECOVERY_DIR),
                    launch=command,
                    timeout=timeout,
                    recovery=True,
                )
            )
        except Exception as exc:  # noqa: BLE001 - one mutant's trouble must not stop the zoo
            return _not_certified(mutant, started, exc)
    bad = sorted((r for r in report.results if r.outcome in BAD), key=_result_id)
    first = min(bad, key=lambda r: (r.profile_id != mutant.profile, r.vector_id), default=None)
    return MutantVerdict(
        mutant=mutant,
        first=first,
        stage="recovery" if first is not None else "",
        hand_kills=len(bad),
        kills=len(bad),
        seconds=time.monotonic() - started,
    )


async def run_zoo(
    mutants: Sequence[Mutant],
    *,
    jobs: int = 3,
    corpus: Sequence[LoadedVector] | None = None,
    progress: Callable[[MutantVerdict], None] | None = None,
    at_least: int | None = None,
    targets: Mapping[str, str] | None = None,
) -> list[MutantVerdict]:
    """Certify every mutant, ``jobs`` at a time; verdicts in the order of ``mutants``.

    ``targets``: the address each mutant is already served at, by name (``certify_mutant``);
    a mutant it does not name is launched.
    """
    hand, generated = split_corpus(load_corpus(CORPUS_DIR) if corpus is None else corpus)
    semaphore = asyncio.Semaphore(max(1, jobs))

    async def one(mutant: Mutant) -> MutantVerdict:
        async with semaphore:
            verdict = await certify_mutant(
                mutant,
                hand,
                generated,
                at_least=at_least,
                target=(targets or {}).get(mutant.name),
            )
        if progress is not None:
            progress(verdict)
        return verdict

    return list(await asyncio.gather(*(one(m) for m in mutants)))


def verdict_table(verdicts: Sequence[MutantVerdict]) -> Table:
    """One row per mutant: its clause, how many vectors killed it, the first and its clause."""
    table = Table(title="The mutant zoo", title_justify="left")
    columns = ("mutant", "breaks", "kills (hand)", "first failing vector", "step", "cited", "ok")
    for column in columns:
        table.add_column(column, no_wrap=column != "step")
    for verdict in verdicts:
        first = verdict.first
        kills = f"{verdict.kills} ({verdict.hand_kills})"
        if first is None:
            table.add_row(
                verdict.mutant.name,
                verdict.mutant.clause,
                "[bold red]SURVIVED[/]",
                "",
                f"[red]{verdict.error}[/]" if verdict.error else "",
                "",
                "[bold red]NO[/]",
            )
            continue
        few = verdict.kills < AT_LEAST or not verdict.hand_kills
        table.add_row(
            verdict.mutant.name,
            verdict.mutant.clause,
            f"[bold red]{kills}[/]" if few else f"[green]{kills}[/]",
            f"{first.vector_id} ({first.outcome.value.lower()})",
            first.step.replace("DECISION_KIND_", ""),
            first.clause or "(none)",
            "[green]yes[/]" if verdict.ok else "[bold red]NO[/]",
        )
    return table


def main(argv: Sequence[str] | None = None) -> int:
    """Run the zoo and print its table; 0 if every mutant is killed with the right clause."""
    parser = argparse.ArgumentParser(
        prog="python -m croupier.conformance.zoo",
        description="Certify every mutant of the demo engine against the shipped corpus.",
    )
    parser.add_argument("names", nargs="*", metavar="NAME", help="mutants to run (default: all)")
    parser.add_argument("--jobs", type=int, default=3, help="mutants certified at once (default 3)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"play the campaigns only until {AT_LEAST} vectors have failed",
    )
    args = parser.parse_args(argv)
    unknown = [name for name in args.names if name not in MUTANTS and name not in RECOVERY_MUTANTS]
    if unknown:
        parser.error(f"no mutant {', '.join(unknown)}; python -m croupier.clients.mutants --list")
    every = {**MUTANTS, **RECOVERY_MUTANTS}
    mutants = [every[name] for name in args.names] if args.names else list(every.values())
    # A log or a pipe gets the whole table, not 80 columns of it.
    console = Console() if Console().is_terminal else Console(width=160)
    errors = Console(stderr=True)
    started = time.monotonic()
    done = [0]

    def tick(verdict: MutantVerdict) -> None:
        done[0] += 1
        state = "killed" if verdict.killed else "SURVIVED"
        errors.print(
            f"[dim]{done[0]:>3}/{len(mutants)} {verdict.mutant.name}: {state} "
            f"in {verdict.seconds:.1f} s[/]"
        )

    at_least = AT_LEAST if args.quick else None
    verdicts = asyncio.run(run_zoo(mutants, jobs=args.jobs, progress=tick, at_least=at_least))
    console.print(verdict_table(verdicts))
    killed = sum(v.killed for v in verdicts)
    right = sum(v.ok for v in verdicts)
    line = (
        f"mutants: {len(verdicts)}, killed {killed}, with the right clause by a hand-written "
        f"vector and {AT_LEAST} or more in all {right}, in {time.monotonic() - started:.1f} s"
    )
    good = right == len(verdicts)
    console.print(f"[bold green]{line}[/]" if good else f"[bold red]{line}[/]")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
