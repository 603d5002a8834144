"""Beyond one machine: a Dask cluster runs the same tasks the local processes do.

``sim --scheduler ADDRESS`` hands the blocks of conflicts to the cluster as tasks, through the client's
``concurrent.futures`` executor, and merges the results in task order as the local pool does: each block keeps its
own seed (``SeedSequence(seed, spawn_key=(block,))``), so a cluster's numbers equal a local run's for the same
seed and ``-n``. ``sweep --engine dask`` sends its cells' parts the same way.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from konflikt.core.messages import N_, _
from konflikt.errors import KonfliktError

CLIENT: ContextVar[Any] = ContextVar("cluster_client", default=None)
"""The cluster every ``simulate`` inside :func:`on_cluster` plays on (a report runs many simulations: one
connection serves them all)."""


@contextmanager
def on_cluster(scheduler: str | None) -> Iterator[None]:
    """Every simulation inside this block runs on the Dask cluster at ``scheduler`` (nothing changes for ``None``)."""
    if scheduler is None:
        yield
        return
    client = connect(scheduler)
    token = CLIENT.set(client)
    try:
        yield
    finally:
        CLIENT.reset(token)
        client.close()


def connect(scheduler: str | None) -> Any:
    """A Dask client of the scheduler at ``scheduler``.

    Raises:
        KonfliktError: no address, or none reachable there (one line, with the address).
    """
    if not scheduler:
        raise KonfliktError(_("--engine dask needs --scheduler ADDRESS (e.g. tcp://10.0.0.5:8786)"))
    Client = client_class()

    try:
        return Client(scheduler, timeout="10s")
    except OSError as exc:
        raise KonfliktError(
            _("cannot reach the Dask scheduler at {scheduler}: {error}", scheduler=scheduler, error=exc)
        ) from None


INSTALL = N_("a Dask cluster needs Dask, an extra of konflikt: pip install 'konflikt[cluster]'")


def client_class() -> Any:
    """Dask's ``Client``: Dask is the ``cluster`` extra (most tables and designers never run a cluster).

    Raises:
        KonfliktError: Dask is not installed (one line saying how to install it).
    """
    try:
        from distributed import Client
    except ImportError:
        raise KonfliktError(_(INSTALL)) from None
    return Client


def threads(client: Any) -> int:
    """How many tasks the cluster runs at once (its workers' threads; at least one)."""
    workers = client.scheduler_info().get("workers", {})
    return max(1, sum(int(worker.get("nthreads", 1)) for worker in workers.values()))
