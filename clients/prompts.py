r"""Replay a round through a program driven by prompts on stdin and stdout.

Many engines are a terminal game: a program that prints the table and asks ``Hit or stand?``
with ``input()``. ``PromptedGame`` makes one a ``replay.PlayRound``: for each Deal and Decide
the kit starts the program afresh (``command``), answers its prompts from the round's inputs,
and reads the engine's view from what it printed (``read``). The vendor writes the prompt
patterns and their answers::

    from croupier.clients import adapter, prompts, replay

    def ask_decision(match, session):
        return {"hit": "h", "stand": "s"}[session.decision().kind]   # the next decision

    def read(session):                       # what the program showed, as replay.Played
        ...                                  # parse session.output (session.waiting: at a prompt)

    game = prompts.PromptedGame(
        command=lambda deal, decisions: ["their-blackjack", "--deck", ",".join(deal.shoe)],
        prompts=[
            prompts.Prompt(r"Your bet\? ", lambda m, s: str(s.deal.seats[0].bets[0].stake)),
            prompts.Prompt(r"\(h\)it or \(s\)tand\? ", ask_decision),
            prompts.Prompt(r"Play again\? ", prompts.FINISHED),
        ],
        read=read,
    )
    adapter.main(replay.ReplayEngine(name="their-blackjack", version="1.0",
                                     profile_ids=("blackjack-c",), play=game))

A prompt's answer is a text (sent as a line), or a function of the match and the
``Session`` that returns the line, or ``FINISHED`` (the round is over at that prompt: the
program is stopped there). ``Session.decision()`` hands out the round's decisions in order;
when none is left the round waits for one: the program is stopped at that prompt and
``read`` is called with ``session.waiting`` true. When the program exits, or reaches a
``FINISHED`` prompt, ``read`` is called with ``waiting`` false: the round is over, and
``read`` gives its payouts. An answer may raise ``adapter.EngineError`` (a program that prints
``Not enough chips`` refuses the round: ``INSUFFICIENT_BALANCE``).

``Program`` is the driver underneath (stdlib only: a subprocess, its pipes and
``selectors``): ``expect`` a list of patterns, ``send`` a line, with a timeout on every wait.
A program that waits longer than ``timeout`` seconds for nothing the patterns know, exits
with a code other than 0, or ends with decisions unused, fails the call (``INTERNAL``) with
the tail of its output and of its stderr. Python
programs run with ``PYTHONUNBUFFERED=1``; a program in another language must flush its
prompts (as ``input()`` does), since its stdout is a pipe.
"""

from __future__ import annotations

import codecs
import os
import re
import selectors
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from croupier.clients.adapter import DealInput, DecisionInput
from croupier.clients.replay import Decisions, OutOfDecisionsError, Played

if TYPE_CHECKING:
    from _typeshed import FileDescriptorLike


class Finished:
    """The type of ``FINISHED``."""

    def __repr__(self) -> str:
        return "FINISHED"


#: An answer that ends the round at its prompt (``Play again?``): the program is stopped.
FINISHED: Final = Finished()
#: How much of the output a failure quotes.
TAIL = 600


class ProgramError(RuntimeError):
    """A prompted program that did not play as its prompts say (the call fails INTERNAL)."""


class Program:
    """A running program, driven by its prompts: pexpect's ``expect`` and ``sendline``, small.

    ``output`` is everything it printed on stdout so far; ``errors`` its stderr.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        timeout: float = 5.0,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
    ) -> None:
        self.argv = tuple(argv)
        self.timeout = timeout
        self.output = ""
        self.errors = ""
        #: Where the next ``expect`` looks from: the end of the last match.
        self.position = 0
        self.process = subprocess.Popen(  # noqa: S603 - the vendor's own program, no shell
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
            cwd=cwd,
        )
        self._selector = selectors.DefaultSelector()
        self._decoders = {}
        for stream in (self.process.stdout, self.process.stderr):
            assert stream is not None  # noqa: S101 - both are pipes, as asked above
            os.set_blocking(stream.fileno(), False)
            self._selector.register(stream, selectors.EVENT_READ)
            self._decoders[stream.fileno()] = codecs.getincrementaldecoder("utf-8")("replace")

    def expect(self, patterns: Sequence[re.Pattern[str]]) -> tuple[int, re.Match[str]] | None:
        """The first pattern to match after the last match, and its match; None at the end.

        The earliest match wins, the first listed on a tie; ``None`` when the program has
        closed its output. ``ProgramError`` after ``timeout`` seconds with neither.
        """
        deadline = time.monotonic() + self.timeout
        while True:
            found = [
                (match.start(), index, match)
                for index, pattern in enumerate(patterns)
                if (match := pattern.search(self.output, self.position)) is not None
            ]
            if found:
                _, index, match = min(found, key=lambda item: item[:2])
                self.position = match.end()
                return index, match
            if not self._selector.get_map():
                return None
            left = deadline - time.monotonic()
            if left <= 0:
                raise ProgramError(
                    f"{self.argv[0]} printed nothing the prompts match in {self.timeout} s"
                    + self.tail()
                )
            for key, _ in self._selector.select(left):
                self._read(key.fileobj)

    def _read(self, stream: FileDescriptorLike) -> None:
        fileno = stream if isinstance(stream, int) else stream.fileno()
        chunk = os.read(fileno, 65536)
        text = self._decoders[fileno].decode(chunk, final=not chunk)
        if stream is self.process.stdout:
            self.output += text
        else:
            self.errors += text
        if not chunk:
            self._selector.unregister(stream)

    def send(self, line: str) -> None:
        """Type a line (a newline is added)."""
        assert self.process.stdin is not None  # noqa: S101 - a pipe, as asked in __init__
        try:
            self.process.stdin.write((line + "\n").encode())
            self.process.stdin.flush()
        except (BrokenPipeError, ValueError):
            raise ProgramError(
                f"{self.argv[0]} stopped reading before the answer {line!r}" + self.tail()
            ) from None

    def tail(self) -> str:
        """The end of what the program printed, for a message."""
        out = self.output[-TAIL:]
        err = self.errors[-TAIL:]
        return (f"; its output ends {out!r}" if out else "; it printed nothing") + (
            f"; its stderr ends {err!r}" if err else ""
        )

    def wait(self) -> int:
        """The exit code, once the program has ended (within ``timeout`` seconds)."""
        try:
            return self.process.wait(self.timeout)
        except subprocess.TimeoutExpired:
            raise ProgramError(
                f"{self.argv[0]} closed its output but did not exit in {self.timeout} s"
                + self.tail()
            ) from None

    def close(self) -> int | None:
        """Stop the program if it still runs; its exit code (None if it had to be killed)."""
        code = self.process.poll()
        if code is None:
            self.process.kill()
            self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()
        self._selector.close()
        return code

    def __enter__(self) -> Program:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(slots=True, kw_only=True)
class Session:
    """One replay of a round through the program: its inputs and what it printed."""

    deal: DealInput
    decisions: Decisions
    program: Program
    #: True when the round waits for a decision at ``prompt`` (read is called then).
    waiting: bool = False
    #: The last prompt matched (the one the round waits at, or ends at), or None.
    prompt: re.Match[str] | None = None

    @property
    def output(self) -> str:
        """Everything the program printed on stdout so far."""
        return self.program.output

    def decision(self) -> DecisionInput:
        """The round's next decision; when none is left the round waits at this prompt."""
        return self.decisions.next()


#: A prompt's answer: a line, a function of the match and the session, or FINISHED.
Answer = str | Callable[[re.Match[str], Session], str] | Finished


@dataclass(frozen=True, slots=True)
class Prompt:
    """A prompt the program prints (a regular expression) and how to answer it."""

    pattern: str
    answer: Answer


class PromptedGame:
    """A ``replay.PlayRound`` that plays each round through a prompted program.

    ``command`` gives the program's argv for a Deal and the decisions so far (the forced shoe
    or pocket on its command line, say, in the engine's order: ``mappings.DealOrder``); ``read`` turns what the program printed into ``replay.Played``; ``timeout`` is
    the longest wait for a prompt, in seconds.
    """

    def __init__(
        self,
        *,
        command: Callable[[DealInput, tuple[DecisionInput, ...]], Sequence[str]],
        prompts: Sequence[Prompt],
        read: Callable[[Session], Played],
        timeout: float = 5.0,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
    ) -> None:
        self.command = command
        self.prompts = tuple(prompts)
        self.read = read
        self.timeout = timeout
        self.env = env
        self.cwd = cwd
        try:
            self.patterns = [re.compile(p.pattern) for p in self.prompts]
        except re.error as exc:
            raise ValueError(f"a prompt's pattern is not a regular expression: {exc}") from None

    def __call__(self, deal: DealInput, decisions: tuple[DecisionInput, ...]) -> Played:
        """Play the round from the start through the program, with these decisions."""
        with Program(
            self.command(deal, decisions), timeout=self.timeout, env=self.env, cwd=self.cwd
        ) as program:
            session = Session(deal=deal, decisions=Decisions(decisions), program=program)
            while (found := program.expect(self.patterns)) is not None:
                index, match = found
                session.prompt = match
                answer = self.prompts[index].answer
                if isinstance(answer, Finished):
                    break
                try:
                    line = answer if isinstance(answer, str) else answer(match, session)
                except OutOfDecisionsError:
                    session.waiting = True
                    return self.read(session)
                program.send(line)
            else:
                code = program.wait()
                if code != 0:
                    raise ProgramError(
                        f"{program.argv[0]} exited with code {code}" + program.tail()
                    )
            if session.decisions.left:
                raise ProgramError(
                    f"{program.argv[0]} ended the round with {session.decisions.left} "
                    f"of its {len(decisions)} decisions unused" + program.tail()
                )
            return self.read(session)
