"""The Dask cluster a command runs its work on: a running scheduler, or one started here.

``--dask ADDRESS`` names a running scheduler (``tcp://host:8786``); ``--dask local:N``
starts a ``LocalCluster`` of N single-threaded worker processes on this machine for the
command's run and stops it after. Dask is the optional extra ``croupier[dask]``: without it,
``dask_client`` says how to install it. ``croupier audit verify`` and ``croupier explore``
(``conformance.explore.cluster``) share this.
"""

from __future__ import annotations

import contextlib
import importlib
import re
from collections.abc import Iterator
from typing import Any

#: ``local:N``: a LocalCluster of N workers, started for the run.
LOCAL = "local:"
#: The most workers ``local:N`` starts.
MAX_LOCAL_WORKERS = 256
#: Seconds given to reach a running scheduler before the command gives up.
CONNECT_TIMEOUT = 30.0

_LOCAL = re.compile(r"local:(\d+)")


class SchedulerError(RuntimeError):
    """Dask is not installed, ``local:N`` is malformed, or the scheduler cannot be reached."""


def local_workers(address: str) -> int | None:
    """N of ``local:N`` (``SchedulerError`` if N is not from 1 to the most); None otherwise."""
    if not address.startswith(LOCAL):
        return None
    matched = _LOCAL.fullmatch(address)
    if matched is None or not 1 <= int(matched[1]) <= MAX_LOCAL_WORKERS:
        raise SchedulerError(
            f"{address!r}: give local:N with N workers from 1 to {MAX_LOCAL_WORKERS}"
        )
    return int(matched[1])


def check_address(address: str) -> str:
    """``address`` if it can name a cluster; ``SchedulerError`` says what is wrong."""
    if not address.strip():
        raise SchedulerError("give a scheduler's address (tcp://HOST:PORT) or local:N")
    local_workers(address)
    return address


def _distributed() -> Any:
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise SchedulerError(
            "--dask needs the optional extra: pip install 'croupier[dask]'"
        ) from None


@contextlib.contextmanager
def dask_client(address: str, *, timeout: float = CONNECT_TIMEOUT) -> Iterator[Any]:
    """A ``distributed.Client`` of the cluster ``address`` names, closed after.

    ``local:N`` starts a ``LocalCluster`` of N single-threaded worker processes (no
    dashboard) and stops it after. ``SchedulerError`` when Dask is missing, the address is
    malformed, or no scheduler answers within ``timeout`` seconds.
    """
    distributed = _distributed()
    workers = local_workers(check_address(address))
    with contextlib.ExitStack() as stack:
        if workers is not None:
            cluster = stack.enter_context(
                distributed.LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                )
            )
            client = stack.enter_context(distributed.Client(cluster))
        else:
            try:
                client = stack.enter_context(distributed.Client(address, timeout=timeout))
            except (OSError, ValueError) as exc:
                raise SchedulerError(
                    f"cannot reach the Dask scheduler at {address}: {exc}"
                ) from None
        yield client
