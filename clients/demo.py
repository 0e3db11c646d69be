"""The demo (``make demo``): a vendor engine certified conformant, then a buggy one caught.

1. Start the demo engine (``python -m croupier.clients.demo_engine``), wait for its ready line, and
   play example A1 of document A on it with the typed client; stop it.
2. Certify it against the whole shipped corpus: ``croupier certify --launch ... --certify``,
   the engine writing an audit log of every round it settles and journaling its rounds
   (``--state-dir``: it claims recovery, so the recovery vectors restart it mid-round, with
   SIGKILL and with SIGTERM); an HTML certificate.
3. Certify one mutant of it (blackjack pays 6:5) the same way, show its failure report,
   and write its HTML certificate.
4. Replay the demo engine's audit log as a regulator would (``croupier audit verify``) and
   write the HTML audit report.

The runner launches and stops the engines of steps 2 and 3 itself; step 1's engine is
stopped here. The reports go to ``reports/`` (the paths are printed last). Exit 0 when the
demo engine is conformant, the mutant is caught and the audit log is clean.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.rule import Rule

from croupier.clients.client import connect
from croupier.v1 import common_pb2, engine_service_pb2, round_pb2

#: The mutant whose failure report the demo shows.
MUTANT = "blackjack-pays-6-5"


def _here(path: str) -> str:
    """``path`` relative to the working directory when inside it (``.venv/bin/python``).

    The commands the demo runs are printed, and its reports and pictures quote them: they
    name no directory of the machine that made them. abspath, not resolve: a virtual
    environment's python is a symlink to the system's, which lacks the packages.
    """
    relative = os.path.relpath(os.path.abspath(path))
    if relative.startswith(os.pardir):
        return path
    # A bare name would be looked up on PATH.
    return relative if os.sep in relative else os.path.join(os.curdir, relative)


#: The interpreter running the demo, as the reports quote it.
PYTHON = _here(sys.executable)
ENGINE = [PYTHON, "-m", "croupier.clients.demo_engine"]
CROUPIER = [PYTHON, "-m", "croupier.conformance.cli"]
#: Where the demo writes its reports (ignored by git).
REPORTS = Path("reports")

console = Console()


def _say(command: list[str]) -> None:
    console.print(f"[bold]$ {shlex.join(command)}[/]")


def start_and_play() -> None:
    """Step 1: the demo engine serves, and pays example A1 (blackjack against a 7: 250)."""
    _say(ENGINE)
    engine = subprocess.Popen(ENGINE, stdout=subprocess.PIPE, text=True)  # noqa: S603 - our own engine
    try:
        assert engine.stdout is not None  # noqa: S101 - stdout=PIPE
        ready = engine.stdout.readline().strip()
        if not ready.startswith("CROUPIER_ENGINE "):
            raise SystemExit(f"the demo engine did not start (it printed {ready!r})")
        console.print(ready)
        address = ready.removeprefix("CROUPIER_ENGINE ")
        with connect(address, timeout=10) as client:
            info = client.describe()
            console.print(f"{info.name} {info.version} plays {', '.join(info.profile_ids)}")
            eur = common_pb2.Amount(currency_code="EUR", minor_units=100)
            state = client.deal(
                engine_service_pb2.DealRequest(
                    round_id="demo-a1",
                    profile_id="blackjack-a",
                    table_id="demo",
                    currency_code="EUR",
                    seats=[
                        round_pb2.Seat(
                            balance=common_pb2.Amount(currency_code="EUR", minor_units=1000),
                            bets=[round_pb2.Bet(stake=eur, blackjack=round_pb2.BlackjackBet())],
                        )
                    ],
                    shoe=engine_service_pb2.Shoe(cards=["AS", "7H", "KD", "9C"]),
                )
            )
            hand = state.blackjack.seats[0].hands[0]
            settled = client.settle("demo-a1")
            line = settled.settlement.lines[0]
            console.print(
                f"example A1: {' '.join(hand.cards)} against {' '.join(state.blackjack.dealer.cards)} "
                f"up, stake {line.stake.minor_units}: {line.returned.minor_units} returned"
            )
    finally:
        engine.terminate()
        engine.wait(timeout=10)
    console.print(f"demo engine stopped (exit code {engine.returncode})")


def croupier(*arguments: str) -> int:
    """Run one ``croupier`` command, shown as typed; its exit code."""
    _say(["croupier", *arguments])
    return subprocess.run([*CROUPIER, *arguments], check=False).returncode  # noqa: S603 - ours


def certify(launch: list[str], html: Path, *extra: str) -> int:
    """Run ``croupier certify --launch`` on an engine, writing its HTML certificate."""
    return croupier(
        "certify", "--launch", shlex.join(launch), "--certify", "--html", str(html), *extra
    )


def main() -> int:
    """The four steps; 0 if the demo engine certifies, the mutant fails and the log is clean."""
    started = time.monotonic()
    REPORTS.mkdir(exist_ok=True)
    engine_html, mutant_html = REPORTS / "demo-engine.html", REPORTS / "mutant.html"
    log, audit_html = REPORTS / "demo-engine-rounds.jsonl", REPORTS / "audit.html"
    console.print(Rule("1. the demo engine, a vendor's engine on the adapter kit"))
    start_and_play()
    console.print(Rule("2. certify it against the shipped corpus, logging every round"))
    # A fresh log and journal each demo: the kit continues both, which is right in production.
    log.unlink(missing_ok=True)
    state = REPORTS / "demo-engine-state"
    shutil.rmtree(state, ignore_errors=True)
    engine_code = certify(
        [*ENGINE, "--audit-log", str(log), "--state-dir", str(state)], engine_html
    )
    console.print(Rule(f"3. certify a mutant: the demo engine with one bug ({MUTANT})"))
    mutant_code = certify(
        [PYTHON, "-m", "croupier.clients.mutants", MUTANT], mutant_html, "--show", "3"
    )
    console.print(Rule("4. a regulator replays the demo engine's audit log"))
    audit_code = croupier("audit", "verify", str(log), "--html", str(audit_html))
    caught = engine_code == 0 and mutant_code == 1 and audit_code == 0
    console.print(Rule())
    verdict = (
        "[bold green]demo engine conformant; the mutant is caught (exit 1, as it should); "
        "its audit log is clean[/]"
        if caught
        else f"[bold red]unexpected: demo engine exit {engine_code}, mutant exit {mutant_code}, "
        f"audit exit {audit_code}[/]"
    )
    console.print(f"{verdict} in {time.monotonic() - started:.0f} s")
    console.print("HTML reports (open them in a browser):")
    for path in (engine_html, mutant_html, audit_html):
        console.print(f"  {path.resolve()}")
    return 0 if caught else 1


if __name__ == "__main__":
    sys.exit(main())
