"""The mutant zoo: certify every mutant against the shipped corpus and check who kills it.

``python -m conformance.zoo [NAME...] [--jobs N]`` (``make mutants``) launches each
mutant as the runner's ``--launch`` engine and plays, first, the hand-written vectors sorted
by id one at a time, stopping at the first failure; a mutant they do not kill then gets the
generated campaigns, also stopping at the first failure. It prints one row per mutant: the
clause it breaks, whether it was killed, the first failing vector and the clause the runner
cited for it. Exit code 1 if a mutant survives or is killed with the wrong clause.

The suite's test of itself: it drives the mutants of ``clients/mutants`` (vendor-style
engines that import neither the oracle nor the suite) through the conformance runner.
"""

from __future__ import annotations

import argparse
import asyncio
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from croupier.conformance.v1 import vector_pb2
from rich.console import Console
from rich.table import Table

from clients.mutants import MUTANTS, Mutant
from conformance.runner import BAD, Result, RunConfig, run
from conformance.vectors import CORPUS_DIR, LoadedVector, load_corpus

#: Vectors in flight at once while a mutant plays the campaigns (the hand-written ones go one by one).
CAMPAIGN_CONCURRENCY = 8
#: Deadline of every call the runner makes, in seconds.
TIMEOUT = 10.0


def launch_command(name: str) -> str:
    """The ``--launch`` command that serves one mutant."""
    return shlex.join([sys.executable, "-m", "clients.mutants", name])


@dataclass(frozen=True, slots=True, kw_only=True)
class MutantVerdict:
    """How one mutant fared: the first vector that failed on it, if any."""

    mutant: Mutant
    #: The first bad result: the first failing hand-written vector, else the campaign one with
    #: the smallest id; None if the mutant survived.
    first: Result | None
    #: ``hand-written`` or ``campaigns``: the stage that killed it.
    stage: str = ""
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
        """Killed, and with the right clause."""
        return self.killed and self.clause_matches


def split_corpus(corpus: Sequence[LoadedVector]) -> tuple[list[LoadedVector], list[LoadedVector]]:
    """The hand-written vectors and the campaign ones, each sorted by id."""
    hand = [v for v in corpus if v.path.name.endswith(".hand.jsonl")]
    generated = [v for v in corpus if not v.path.name.endswith(".hand.jsonl")]
    return sorted(hand, key=_vector_id), sorted(generated, key=_vector_id)


def _vector_id(loaded: LoadedVector) -> str:
    return loaded.vector.id


async def certify_mutant(
    mutant: Mutant,
    hand: Sequence[LoadedVector],
    generated: Sequence[LoadedVector],
    *,
    timeout: float = TIMEOUT,
) -> MutantVerdict:
    """Play the hand-written vectors then, if it survives them, the campaigns against one mutant."""
    started = time.monotonic()
    command = launch_command(mutant.name)

    def reproduce(vector: vector_pb2.Vector) -> str:
        return f"croupier certify --launch {shlex.quote(command)} --vector {shlex.quote(vector.id)}"

    stages = (("hand-written", hand, 1), ("campaigns", generated, CAMPAIGN_CONCURRENCY))
    for stage, vectors, concurrency in stages:
        if not vectors:
            continue
        try:
            report = await run(
                RunConfig(
                    vectors=vectors,
                    launch=command,
                    concurrency=concurrency,
                    timeout=timeout,
                    fail_fast=True,
                    reproduce=reproduce,
                )
            )
        except Exception as exc:  # noqa: BLE001 - one mutant's trouble must not stop the zoo
            return MutantVerdict(
                mutant=mutant,
                first=None,
                seconds=time.monotonic() - started,
                error=f"{type(exc).__name__}: {exc}",
            )
        bad = [r for r in report.results if r.outcome in BAD]
        if bad:
            # One at a time, the hand-written stage has exactly one; the campaigns may have a
            # few in flight when the first fails: the smallest id is the reproducible answer.
            first = bad[0] if concurrency == 1 else min(bad, key=lambda r: r.vector_id)
            return MutantVerdict(
                mutant=mutant, first=first, stage=stage, seconds=time.monotonic() - started
            )
    return MutantVerdict(mutant=mutant, first=None, seconds=time.monotonic() - started)


async def run_zoo(
    mutants: Sequence[Mutant],
    *,
    jobs: int = 3,
    corpus: Sequence[LoadedVector] | None = None,
    progress: Callable[[MutantVerdict], None] | None = None,
) -> list[MutantVerdict]:
    """Certify every mutant, ``jobs`` at a time; verdicts in the order of ``mutants``."""
    hand, generated = split_corpus(load_corpus(CORPUS_DIR) if corpus is None else corpus)
    semaphore = asyncio.Semaphore(max(1, jobs))

    async def one(mutant: Mutant) -> MutantVerdict:
        async with semaphore:
            verdict = await certify_mutant(mutant, hand, generated)
        if progress is not None:
            progress(verdict)
        return verdict

    return list(await asyncio.gather(*(one(m) for m in mutants)))


def verdict_table(verdicts: Sequence[MutantVerdict]) -> Table:
    """One row per mutant: its clause, killed or not, the first failing vector and its clause."""
    table = Table(title="The mutant zoo", title_justify="left")
    for column in ("mutant", "breaks", "killed", "first failing vector", "step", "cited", "match"):
        table.add_column(column, no_wrap=column != "step")
    for verdict in verdicts:
        first = verdict.first
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
        table.add_row(
            verdict.mutant.name,
            verdict.mutant.clause,
            "[green]killed[/]",
            f"{first.vector_id} ({first.outcome.value.lower()})",
            first.step.replace("DECISION_KIND_", ""),
            first.clause or "(none)",
            "[green]yes[/]" if verdict.clause_matches else "[bold red]NO[/]",
        )
    return table


def main(argv: Sequence[str] | None = None) -> int:
    """Run the zoo and print its table; 0 if every mutant is killed with the right clause."""
    parser = argparse.ArgumentParser(
        prog="python -m conformance.zoo",
        description="Certify every mutant of the demo engine against the shipped corpus.",
    )
    parser.add_argument("names", nargs="*", metavar="NAME", help="mutants to run (default: all)")
    parser.add_argument("--jobs", type=int, default=3, help="mutants certified at once (default 3)")
    args = parser.parse_args(argv)
    unknown = [name for name in args.names if name not in MUTANTS]
    if unknown:
        parser.error(f"no mutant {', '.join(unknown)}; python -m clients.mutants --list")
    mutants = [MUTANTS[name] for name in args.names] if args.names else list(MUTANTS.values())
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

    verdicts = asyncio.run(run_zoo(mutants, jobs=args.jobs, progress=tick))
    console.print(verdict_table(verdicts))
    killed = sum(v.killed for v in verdicts)
    right = sum(v.ok for v in verdicts)
    line = (
        f"mutants: {len(verdicts)}, killed {killed}, with the right clause {right}, "
        f"in {time.monotonic() - started:.1f} s"
    )
    good = right == len(verdicts)
    console.print(f"[bold green]{line}[/]" if good else f"[bold red]{line}[/]")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
