"""Parameter sweeps: a grid over skills, weapons, characters and rule options, n conflicts per cell.

A sweep spec (TOML) names a base scenario and axes. An axis either sets a rule option (``option = "tactics"``) or a
value inside the scenario document (``path = "setup.wield.snurre"``, ``path = "sides[0].participants[0].character"``).
Every cell plays with the same seed (common random numbers: differences between cells are the rules', not the
dice's), so a cell's numbers are the same on any engine: local processes or a Dask cluster.
"""

from __future__ import annotations

import copy
import itertools
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from konflikt.core.batch import wilson
from konflikt.core.scenario import Scenario, find_scenario, read_toml, scenario_from_document, validation_message
from konflikt.errors import KonfliktError, ScenarioError
from konflikt.sim.engine import close_pool, simulate, worker_pool
from konflikt.sim.header import digest, run_header

Scalar = str | int | float | bool


class Axis(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=r"^[A-Za-z0-9_\-]+$")
    option: str | None = None
    path: str | None = None
    values: list[Scalar] = Field(min_length=1)

    @model_validator(mode="after")
    def one_target(self) -> Axis:
        if (self.option is None) == (self.path is None):
            raise ValueError("an axis sets either an option or a path, not both or neither")
        return self


class SweepSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    scenario: str
    n: int = Field(default=2000, ge=1)
    seed: int = Field(default=1, ge=0)
    engine: str = Field(default="auto", pattern="^(auto|reference|vectorised)$")
    side: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    axis: list[Axis] = Field(min_length=1, max_length=4)


def load_spec(path: Path) -> SweepSpec:
    try:
        return SweepSpec.model_validate(read_toml(path))
    except ValidationError as exc:
        raise ScenarioError(validation_message(str(path), exc)) from None


_STEP = re.compile(r"([A-Za-z_][A-Za-z0-9_\-]*)|\[(\d+)\]")


def set_path(document: dict[str, Any], path: str, value: Any) -> None:
    """Set ``value`` at ``a.b[0].c`` inside a scenario document."""
    keys: list[str | int] = []
    for part in path.split("."):
        found = _STEP.findall(part)
        if not found or "".join(f"{n}[{i}]" if i else n for n, i in found) != part:
            raise KonfliktError(f"sweep path {path!r}: cannot read {part!r}")
        keys.extend(name if name else int(index) for name, index in found)
    target: Any = document
    for key in keys[:-1]:
        try:
            if isinstance(key, str) and isinstance(target, dict) and key not in target:
                target[key] = {}
            target = target[key]
        except (KeyError, IndexError, TypeError):
            raise KonfliktError(f"sweep path {path!r}: no {key!r} in the scenario") from None
    try:
        target[keys[-1]] = value
    except (IndexError, TypeError):
        raise KonfliktError(f"sweep path {path!r}: cannot set {keys[-1]!r}") from None


def cells(spec: SweepSpec) -> list[dict[str, Scalar]]:
    names = [a.name for a in spec.axis]
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*(a.values for a in spec.axis))]


def cell_job(spec: SweepSpec, base: Mapping[str, Any], source: str, cell: Mapping[str, Scalar]) -> dict[str, Any]:
    document = copy.deepcopy(dict(base))
    overrides = dict(spec.options)
    for axis in spec.axis:
        if axis.option is not None:
            overrides[axis.option] = cell[axis.name]
        else:
            assert axis.path is not None
            set_path(document, axis.path, cell[axis.name])
    return {
        "document": document, "source": source, "overrides": overrides, "cell": dict(cell),
        "n": spec.n, "seed": spec.seed, "engine": spec.engine,
    }  # fmt: skip


def run_cell_of(cell: Mapping[str, Scalar], spec: SweepSpec, base: Mapping[str, Any], source: str) -> dict[str, Any]:
    """One cell made on the worker from the base document (sent to every Dask worker once) and the cell's values."""
    return run_cell(cell_job(spec, base, source, cell))


def run_cell(job: Mapping[str, Any]) -> dict[str, Any]:
    """One cell: a whole simulation (top-level, so processes and Dask workers can run it)."""
    source = str(job["source"])
    scenario = scenario_from_document(job["document"], f"{source} {job['cell']}", base=Path(source).parent)
    result = simulate(scenario, int(job["n"]), int(job["seed"]), job["overrides"], engine=str(job["engine"]))
    tally = result.tally
    row: dict[str, Any] = {**job["cell"], "n": tally.n, "engine": result.engine}
    winners = {(side.id,): 0 for side in scenario.sides}
    winners.update({w: c for w, c in tally.winners.items() if isinstance(w, tuple) and w})
    for key, wins in winners.items():
        low, high = wilson(wins, tally.n)
        name = "+".join(key)
        row[f"win_{name}"] = wins / tally.n
        row[f"win_{name}_lo"] = low
        row[f"win_{name}_hi"] = high
    nobody = tally.winners.get((), 0)
    row["nobody"] = nobody / tally.n
    row["nobody_lo"], row["nobody_hi"] = wilson(nobody, tally.n)
    for ending, count in sorted(tally.endings.items()):
        row[f"end_{ending}"] = count / tally.n
    capped = sum(tally.endings.get(e, 0) for e in scenario.ruleset.cap_endings) / tally.n
    row["capped"] = capped
    row["note"] = f"cap decides {capped:.1%}" if capped > CAP_NOTE else ""
    rounds = tally.has_rounds()
    row["length_mean"] = tally.length_stats(rounds=rounds).get("mean", 0.0)
    row["length_unit"] = scenario.ruleset.length_unit if rounds else "steps"
    for name, (mean, _) in tally.resource_means().items():
        row[f"mean_{name}"] = mean
    return row


CAP_NOTE = 0.01
"""A cell where the cap's endings exceed this share says so: its win rates are partly the cap's, not the rules'."""


def complete(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every row gets every outcome column (0 where a cell never saw it), in one order: wins, nobody, endings."""
    wins = [k for k in dict.fromkeys(k for r in rows for k in r) if k.startswith("win_")]
    endings = sorted({k for r in rows for k in r if k.startswith("end_")})
    out = []
    for r in rows:
        head = {k: v for k, v in r.items() if not k.startswith(("win_", "end_", "nobody"))}
        first = {k: v for k, v in head.items() if k not in ("capped", "note", "length_mean", "length_unit")}
        first = {k: v for k, v in first.items() if not k.startswith("mean_")}
        ordered = {**first, **{k: r.get(k, 0.0) for k in wins}}
        ordered.update({"nobody": r["nobody"], "nobody_lo": r["nobody_lo"], "nobody_hi": r["nobody_hi"]})
        ordered.update({k: r.get(k, 0.0) for k in endings})
        ordered.update({k: head[k] for k in ("capped", "note", "length_mean", "length_unit")})
        ordered.update({k: v for k, v in head.items() if k not in ordered})
        out.append(ordered)
    return out


def outcome_columns(rows: list[dict[str, Any]]) -> list[str]:
    """The columns of who wins (each side alone, joint wins, nobody): a partition, so a row's values sum to 1."""
    return [k for k in rows[0] if k.startswith("win_") and not k.endswith(("_lo", "_hi"))] + ["nobody"]


def base_scenario(spec: SweepSpec, spec_path: Path) -> tuple[Path, Scenario]:
    """The sweep's scenario file (beside the spec, or a bundled name) and the scenario it holds with no axis set."""
    path = (
        find_scenario(str(spec_path.parent / spec.scenario))
        if not Path(spec.scenario).exists() and (spec_path.parent / spec.scenario).exists()
        else find_scenario(spec.scenario)
    )
    return path, scenario_from_document(read_toml(path), str(path), base=path.parent)


def sweep_header(spec: SweepSpec, spec_path: Path) -> dict[str, Any]:
    """The run header of a sweep: the base scenario's, with the spec (axes, options, n, seed) and its digest."""
    _, scenario = base_scenario(spec, spec_path)
    spec_data = spec.model_dump()
    header = run_header(scenario, spec.options, {}, spec.seed, spec.n, spec.engine, command="sweep")
    return {**header, "spec": str(spec_path), "spec_digest": digest(spec_data), "axes": spec_data["axis"]}


def run_sweep(
    spec: SweepSpec,
    spec_path: Path,
    engine: str = "local",
    workers: int = 1,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
    client: Any = None,
) -> list[dict[str, Any]]:
    """Every cell's row, in grid order, on the local engine (processes) or on a Dask cluster (at ``scheduler``, or
    through an open ``client``: the bench keeps one, so connecting is start-up, not the sweep)."""
    scenario_path, _ = base_scenario(spec, spec_path)
    base = read_toml(scenario_path)
    jobs = [cell_job(spec, base, str(scenario_path), c) for c in cells(spec)]
    scenario_from_document(jobs[0]["document"], str(scenario_path), base=scenario_path.parent)
    if engine == "local":
        if workers == 1:
            rows = []
            for job in jobs:
                rows.append(run_cell(job))
                if progress:
                    progress(1)
            return complete(rows)
        rows = []
        try:
            for row in worker_pool(workers).map(run_cell, jobs):  # the program's pool: started once
                rows.append(row)
                if progress:
                    progress(1)
        except BaseException:  # Ctrl-C, or a worker that died: the next run starts clean processes
            close_pool()
            raise
        return complete(rows)
    if engine == "dask":
        own = client is None
        if own:
            client = _connect(scheduler)
        try:
            # the base document goes to every worker once; a task carries only its cell's values
            [shared] = client.scatter([base], broadcast=True)
            futures = client.map(run_cell_of, [j["cell"] for j in jobs], spec=spec, base=shared,
                                 source=str(scenario_path), pure=False)  # fmt: skip
            rows = []
            for future in futures:
                rows.append(future.result())
                if progress:
                    progress(1)
            return complete(rows)
        finally:
            if own:
                client.close()
    raise KonfliktError(f"--engine takes local or dask, not {engine!r}")


def _connect(scheduler: str | None) -> Any:
    if not scheduler:
        raise KonfliktError("--engine dask needs --scheduler ADDRESS (e.g. tcp://10.0.0.5:8786)")
    from distributed import Client

    try:
        return Client(scheduler, timeout="10s")  # type: ignore[no-untyped-call]
    except OSError as exc:
        raise KonfliktError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
