"""The engine a run reaches: ``--target`` or ``--launch`` with TLS and waits, checked.

Shared by ``croupier certify`` and ``explore`` and by the pytest plugin, which imports it
without the ``croupier`` command (its commands import Hypothesis, the explorer and audit).
"""

from __future__ import annotations

import math
import shlex
from dataclasses import dataclass
from pathlib import Path

from croupier.conformance.engine import TlsOptions
from croupier.conformance.results import ConfigError
from croupier.conformance.timeouts import DEFAULT_TIMEOUT, MIN_TIMEOUT, READY_TIMEOUT


@dataclass(frozen=True, slots=True, kw_only=True)
class EngineChoice:
    """The engine a command reaches, checked, and the words that reach it again."""

    target: str | None
    launch: str | None
    timeout: float
    tls: TlsOptions | None
    #: How long a launched engine is given to be ready, and where its stderr is written.
    ready_timeout: float = READY_TIMEOUT
    engine_log: Path | None = None
    #: ``--target ...`` or ``--launch ...``, then the TLS files and a non-default deadline.
    words: str


def engine_choice(
    *,
    target: str | None,
    launch: str | None,
    timeout: float,
    tls_ca: Path | None,
    tls_cert: Path | None,
    tls_key: Path | None,
    ready_timeout: float = READY_TIMEOUT,
    engine_log: Path | None = None,
    prefix: str = "--",
) -> EngineChoice:
    """The options of ``engine_options``, checked; ``ConfigError`` says what is wrong (exit 2).

    ``prefix`` starts the options' names in the messages (the pytest plugin's are
    ``--croupier-tls-ca``...); the reproduce words are always certify's.
    """
    if (target is None) == (launch is None):
        raise ConfigError(f"give exactly one of {prefix}target HOST:PORT and {prefix}launch CMD")
    if target is not None and not target.strip():
        raise ConfigError(f"{prefix}target: give HOST:PORT, not an empty string")
    if launch is not None:
        try:
            argv = shlex.split(launch)
        except ValueError as exc:  # an unbalanced quote, a trailing backslash
            raise ConfigError(
                f"{prefix}launch {launch!r}: {exc} (quoted as a shell would)"
            ) from None
        if not argv:
            raise ConfigError(f"{prefix}launch: the command is empty")
    if not timeout >= MIN_TIMEOUT:  # NaN too
        # certify's click option checks this first; the pytest plugin's option does not.
        raise ConfigError(f"{prefix}timeout: {timeout:g} s is under {MIN_TIMEOUT:g} s")
    if not ready_timeout >= MIN_TIMEOUT or not math.isfinite(ready_timeout):
        raise ConfigError(
            f"{prefix}ready-timeout: {ready_timeout:g} s is not a number of seconds from "
            f"{MIN_TIMEOUT:g}"
        )
    if engine_log is not None and launch is None:
        raise ConfigError(
            f"{prefix}engine-log needs {prefix}launch: only a launched engine's stderr is read"
        )
    if (tls_cert is None) != (tls_key is None):
        raise ConfigError(f"{prefix}tls-cert and {prefix}tls-key go together")
    if tls_cert is not None and tls_ca is None:
        raise ConfigError(
            f"{prefix}tls-cert and {prefix}tls-key are a client certificate for mutual TLS: "
            f"give {prefix}tls-ca too"
        )
    files = (("--tls-ca", tls_ca), ("--tls-cert", tls_cert), ("--tls-key", tls_key))
    for flag, path in files:
        if path is not None and not path.is_file():
            # certify's click options check this first; the pytest plugin's options do not.
            raise ConfigError(f"{prefix}{flag[2:]}: no file {path}")
    tls = TlsOptions(ca=tls_ca, cert=tls_cert, key=tls_key) if (tls_ca or tls_cert) else None
    engine_arg = f"--target {target}" if target else f"--launch {shlex.quote(launch or '')}"
    # The same connection as this run: TLS files and a non-default deadline go along.
    tls_arg = "".join(
        f" {flag} {shlex.quote(str(path))}" for flag, path in files if path is not None
    )
    timeout_arg = f" --timeout {timeout:g}" if timeout != DEFAULT_TIMEOUT else ""
    if launch is not None and ready_timeout != READY_TIMEOUT:
        timeout_arg += f" --ready-timeout {ready_timeout:g}"
    return EngineChoice(
        target=target,
        launch=launch,
        timeout=timeout,
        tls=tls,
        ready_timeout=ready_timeout,
        engine_log=engine_log,
        words=f"{engine_arg}{tls_arg}{timeout_arg}",
    )
