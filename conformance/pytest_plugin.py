"""The conformance corpus as pytest items: ``pytest --croupier-target HOST:PORT`` or ``--croupier-launch CMD``.

Installed with the package (entry point ``pytest11``), and inert unless one of the two options
is given: every pytest run in an environment with Croupier installed loads this module, so it
imports nothing but pytest and two constants, and the plugin itself
(``conformance.pytest_corpus``: the corpus, the runner, grpc) is imported and registered only
when asked for; pytest-xdist's controller gets only its verdict (``conformance.pytest_verdict``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from croupier.conformance.timeouts import DEFAULT_TIMEOUT, READY_TIMEOUT

#: The name the corpus plugin is registered under when the options ask for it.
CORPUS_PLUGIN = "croupier-corpus"


def pytest_addoption(parser: pytest.Parser) -> None:
    """The plugin's options, in their own group."""
    group = parser.getgroup("croupier", "Croupier conformance corpus")
    group.addoption(
        "--croupier-target", metavar="HOST:PORT", help="Run the corpus against this engine."
    )
    group.addoption(
        "--croupier-launch",
        metavar="CMD",
        help="Launch this engine (it prints CROUPIER_ENGINE host:port) and run the corpus against it.",
    )
    group.addoption(
        "--croupier-timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"Deadline of each call (default {DEFAULT_TIMEOUT:g}).",
    )
    group.addoption(
        "--croupier-ready-timeout",
        type=float,
        default=READY_TIMEOUT,
        metavar="SECONDS",
        help=f"How long a launched engine is given to print its ready line (default "
        f"{READY_TIMEOUT:g}).",
    )
    group.addoption(
        "--croupier-engine-log",
        type=Path,
        metavar="FILE",
        help="Write the whole stderr of the launched engine to FILE (its last lines are shown "
        "anyway when it fails to start or dies).",
    )
    group.addoption(
        "--croupier-tls-ca",
        type=Path,
        metavar="FILE",
        help="CA of the engine's certificate: turns on TLS (as certify's --tls-ca).",
    )
    group.addoption(
        "--croupier-tls-cert",
        type=Path,
        metavar="FILE",
        help="Client certificate for mutual TLS; needs --croupier-tls-key and --croupier-tls-ca.",
    )
    group.addoption(
        "--croupier-tls-key",
        type=Path,
        metavar="FILE",
        help="Client key for mutual TLS; needs --croupier-tls-cert and --croupier-tls-ca.",
    )
    group.addoption(
        "--croupier-known-failures",
        type=Path,
        metavar="FILE",
        help="Lines 'pattern  # reason', as certify's --known-failures: a listed vector that "
        "fails is an xfail, one that passes fails; a pattern matching no vector fails the run; "
        "'clause:ID[@PATH]  # reason' makes a failure on that clause an xfail.",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Register the corpus plugin, only when asked to run the corpus.

    pytest-xdist's controller gets the part that gives the verdict (``pytest_verdict``): its
    workers load the corpus, launch or reach their engines and play.
    """
    target = config.getoption("croupier_target")
    launch = config.getoption("croupier_launch")
    if not target and not launch:
        return
    if target and launch:
        raise pytest.UsageError("give --croupier-target or --croupier-launch, not both")
    # Only when asked for: the corpus plugin imports the runner, the vectors and grpc.
    if xdist_controller(config):
        from croupier.conformance.pytest_verdict import ControllerPlugin  # noqa: PLC0415

        config.pluginmanager.register(ControllerPlugin(config), CORPUS_PLUGIN)
    else:
        from croupier.conformance.pytest_corpus import CorpusPlugin  # noqa: PLC0415

        config.pluginmanager.register(CorpusPlugin(config), CORPUS_PLUGIN)


def xdist_controller(config: pytest.Config) -> bool:
    """Whether this process is pytest-xdist's controller, which hands items to its workers.

    As xdist decides it (``-n``, ``--dist``, ``--tx``), before its own plugin registers: a
    ``--collect-only`` run and a worker collect themselves.
    """
    if hasattr(config, "workerinput") or config.getoption("collectonly"):
        return False
    return config.getoption("dist", "no") != "no" and bool(config.getoption("tx", None))
