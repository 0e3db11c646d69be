"""Where shards run: a process pool, a Dask cluster, or this process."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, TypeVar

from croupier.conformance.audit.replay import Shard, ShardResult, verify_shard
from croupier.conformance.scheduler import dask_client

T = TypeVar("T")


class Executor:
    """Runs shards on a process pool, on Dask, or in this process."""

    def __init__(self, workers: int, dask_address: str | None) -> None:
        self.pool: ProcessPoolExecutor | None = None
        self.side: ProcessPoolExecutor | None = None
        self.dask: Any = None
        self.stack = contextlib.ExitStack()
        if dask_address is not None:
            # SchedulerError (a RuntimeError) when Dask is missing or the cluster unreachable.
            self.dask = self.stack.enter_context(dask_client(dask_address))
        elif workers > 1:
            self.pool = ProcessPoolExecutor(max_workers=workers)
        self.in_flight = max(2, 2 * workers)

    def submit(self, shard: Shard, lab_files: Sequence[str]) -> Future[ShardResult] | Any:
        """Start checking a shard; its ``ShardResult`` comes as a future."""
        if self.dask is not None:
            return self.dask.submit(verify_shard, shard, tuple(lab_files), pure=False)
        if self.pool is not None:
            return self.pool.submit(verify_shard, shard, tuple(lab_files))
        done: Future[ShardResult] = Future()
        done.set_result(verify_shard(shard, lab_files))
        return done

    def aside(self, function: Callable[..., T], *args: Any) -> Future[T]:
        """Start ``function(*args)`` beside the shards (picklable); its result as a future.

        With workers, in one process of its own, so that one call after another shares that
        process's caches (the dealer tables of several blackjack profiles); in this process
        when the shards run here too.
        """
        if self.pool is None and self.dask is None:
            done: Future[T] = Future()
            done.set_result(function(*args))
            return done
        if self.side is None:
            self.side = ProcessPoolExecutor(max_workers=1)
        return self.side.submit(function, *args)

    def close(self) -> None:
        """Stop the pools or leave the cluster."""
        for pool in (self.pool, self.side):
            if pool is not None:
                pool.shutdown()
        self.stack.close()
