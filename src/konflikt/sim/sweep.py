"""Parameter sweeps: a grid over skills, weapons, characters and rule options, n conflicts per cell.

A sweep spec (TOML) names a base scenario and axes. An axis either sets a rule option (``option = "tactics"``) or a
value inside the scenario document (``path = "setup.wield.snurre"``, ``path = "sides[0].participants[0].character"``).
Every cell plays with the same seed (common random numbers: differences between cells are the rules', not the
dice's), so a cell's numbers are the same on any engine: local processes or a Dask cluster.
"""

from __future__ import annotations

import copy
import itertools
import math
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from konflikt.core.batch import Tally, wilson
from konflikt.core.i18n import percent
from konflikt.core.messages import _
from konflikt.core.scenario import Scenario, find_scenario, read_toml, scenario_from_document, validation_message
from konflikt.core.thousands import grouped
from konflikt.errors import KonfliktError, ScenarioError
from konflikt.sim.engine import block_sizes, check_count, close_pool, play_part, simulate, worker_pool
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
    options: dict[str, Any] = Field(default_factory=dict)
    set: list[str] = Field(default_factory=list, max_length=200)
    axis: list[Axis] = Field(min_length=1, max_length=4)


MAX_CELLS = 100_000
"""The most cells one sweep may have. Its cells are listed before the first is played, each with its own copy of
the scenario document, and their rows, tables and files are held to the end: measured at ~60 KB a cell (a grid of
1,000 and one of 3,000 cells of Fimbulfrost's robbers at n = 1: 252 and 377 MB peak), so 100,000 cells hold ~6 GB of
a 24 GB machine and 400,000 would fill it; at ~35 ms a cell before any conflict is played (a kernel built for each),
100,000 cells are an hour of a core already."""


def load_spec(path: Path) -> SweepSpec:
    document = read_toml(path)
    if "side" in document:  # once whose win rate the heatmaps showed; now every side's is shown, so it did nothing
        raise ScenarioError(
            _(
                "{path}: side = {side}: a sweep shows every side's win rate and nobody's in every row, table and "
                "plot, so side chooses nothing; remove it",
                path=path,
                side=repr(document["side"]),
            )
        )
    try:
        spec = SweepSpec.model_validate(document)
    except ValidationError as exc:
        raise ScenarioError(validation_message(str(path), exc)) from None
    try:
        check_count(spec.n, f"{path}: n =")
    except KonfliktError as exc:
        raise ScenarioError(str(exc)) from None
    sizes = [len(axis.values) for axis in spec.axis]
    if math.prod(sizes) > MAX_CELLS:  # counted, never listed: a listed grid past the limit is the problem
        raise ScenarioError(
            _(
                "{path}: axes of {sizes} values make {cells} cells; a sweep takes at most {most}",
                path=path,
                sizes=" × ".join(grouped(k) for k in sizes),
                cells=grouped(math.prod(sizes)),
                most=grouped(MAX_CELLS),
            )
        )
    # each axis is a column of cells.csv and an axis of the plots by its name: two alike would be one
    for later, axis in enumerate(spec.axis):
        earlier = next((k for k, other in enumerate(spec.axis[:later]) if other.name == axis.name), None)
        if earlier is not None:
            raise ScenarioError(
                _(
                    "{path}: axis[{later}].name = {name}: axis[{earlier}] has that name; each axis needs its own",
                    path=path,
                    later=later,
                    name=repr(axis.name),
                    earlier=earlier,
                )
            )
    return spec


_STEP = re.compile(r"([A-Za-z_][A-Za-z0-9_\-]*)|\[(\d+)\]")


def set_path(document: dict[str, Any], path: str, value: Any) -> None:
    """Set ``value`` at ``a.b[0].c`` inside a scenario document."""
    keys: list[str | int] = []
    for part in path.split("."):
        found = _STEP.findall(part)
        if not found or "".join(f"{n}[{i}]" if i else n for n, i in found) != part:
            raise KonfliktError(_("sweep path {path}: cannot read {part}", path=repr(path), part=repr(part)))
        keys.extend(name if name else int(index) for name, index in found)
    from konflikt.core.overrides import id_position

    if keys[0] not in document:  # hedda.kraft: by participant (or side) id
        keys[:1] = id_position(document, str(keys[0])) or keys[:1]
    target: Any = document
    for depth, key in enumerate(keys[:-1]):
        try:
            if isinstance(key, str) and isinstance(target, dict) and key not in target:
                target[key] = {}
            target = target[key]
        except (KeyError, IndexError, TypeError):
            at = keys[:depth]
            where = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in at).lstrip(".") or _("the scenario")
            if isinstance(key, int) and isinstance(target, list):
                raise KonfliktError(
                    _(
                        "sweep path {path}: {where} has {entries} entries, no [{key}]",
                        path=repr(path),
                        where=where,
                        entries=len(target),
                        key=key,
                    )
                    if len(target) != 1
                    else _("sweep path {path}: {where} has 1 entry, no [{key}]", path=repr(path), where=where, key=key)
                ) from None
            raise KonfliktError(
                _("sweep path {path}: no {key} in {where}", path=repr(path), key=repr(key), where=where)
            ) from None
    try:
        target[keys[-1]] = value
    except (IndexError, TypeError):
        raise KonfliktError(_("sweep path {path}: cannot set {key}", path=repr(path), key=repr(keys[-1]))) from None


def cells(spec: SweepSpec) -> list[dict[str, Scalar]]:
    names = [a.name for a in spec.axis]
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*(a.values for a in spec.axis))]


def cell_job(spec: SweepSpec, base: Mapping[str, Any], source: str, cell: Mapping[str, Scalar]) -> dict[str, Any]:
    document = copy.deepcopy(dict(base)) if not spec.set else with_settings(spec, base, source)
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


SPLIT = 8
"""The last cell of a sweep is played as this many parts, the one before it as half as many, and so on: a cell is a
task while much is left (few messages), its blocks are shared out at the end (guided scheduling, as a run's blocks
are in ``engine.task_plan``), so the workers' last tasks end within a fraction of a cell of each other."""


def sweep_plan(cell_count: int) -> list[tuple[int, int, int]]:
    """``(cell, part, parts)`` per task, in grid order: decided by the grid alone, never the worker count."""
    plan: list[tuple[int, int, int]] = []
    for cell in range(cell_count):
        parts = max(1, SPLIT // (cell_count - cell))
        plan.extend((cell, part, parts) for part in range(parts))
    return plan


def play_part_of(
    cell: Mapping[str, Scalar],
    part: int,
    parts: int,
    spec: SweepSpec,
    base: Mapping[str, Any],
    source: str,
    sizes: tuple[int, int],
) -> dict[str, Any]:
    """One part of one cell, made on the worker from the base document (sent to every Dask worker once) and the
    cell's values: its tally, the engine it used and what its row needs of the scenario."""
    return _play_part((cell_job(spec, base, source, cell), part, parts, sizes))


def _play_part(task: tuple[Mapping[str, Any], int, int, tuple[int, int]]) -> dict[str, Any]:
    job, part, parts, sizes = task  # the local pool's form: the cell's whole job in the task
    scenario = _cell_scenario(job)
    tally, engine, _note = play_part(scenario, int(job["n"]), int(job["seed"]), job["overrides"], part, parts,
                                 engine=str(job["engine"]), sizes=sizes)  # fmt: skip
    return {"tally": tally.to_json(), "engine": engine, "facts": _facts(scenario)}


def _cell_scenario(job: Mapping[str, Any]) -> Scenario:
    source = str(job["source"])
    return scenario_from_document(job["document"], f"{source} {job['cell']}", base=Path(source).parent)


def _facts(scenario: Scenario) -> dict[str, Any]:
    """What a cell's row reads of its scenario besides the tally (so a row can be written where the parts meet)."""
    ruleset = scenario.ruleset
    return {"sides": [side.id for side in scenario.sides], "cap_endings": list(ruleset.cap_endings),
            "length_unit": ruleset.length_unit}  # fmt: skip


def run_cell(job: Mapping[str, Any]) -> dict[str, Any]:
    """One cell: a whole simulation (top-level, so processes and Dask workers can run it)."""
    scenario = _cell_scenario(job)
    result = simulate(scenario, int(job["n"]), int(job["seed"]), job["overrides"], engine=str(job["engine"]))
    return cell_row(job["cell"], result.tally, result.engine, _facts(scenario))


def cell_row(cell: Mapping[str, Scalar], tally: Tally, engine: str, facts: Mapping[str, Any]) -> dict[str, Any]:
    """A cell's row from its tally: each side's wins with 95% Wilson intervals, nobody, endings, the cap's share,
    the mean length and resources."""
    row: dict[str, Any] = {**cell, "n": tally.n, "engine": engine}
    winners = {(side,): 0 for side in facts["sides"]}
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
    capped = sum(tally.endings.get(e, 0) for e in facts["cap_endings"]) / tally.n
    row["capped"] = capped
    row["note"] = _("cap decides {share}", share=percent(100 * capped, 1)) if capped > CAP_NOTE else ""
    rounds = tally.has_rounds()
    row["length_mean"] = tally.length_stats(rounds=rounds).get("mean", 0.0)
    row["length_unit"] = facts["length_unit"] if rounds else "steps"
    for name, (mean, _se) in tally.resource_means().items():
        row[f"mean_{name}"] = mean
    return row


def _rows_of_parts(
    jobs: list[dict[str, Any]], results: Iterator[dict[str, Any]], progress: Callable[[int], None] | None
) -> list[dict[str, Any]]:
    """Each cell's row from its parts, which arrive in plan order: merged in order, a row as its last part lands."""
    rows: list[dict[str, Any]] = []
    tally, engine, facts = Tally(), "", {}
    for (cell, part, parts), result in zip(sweep_plan(len(jobs)), results, strict=True):
        if part == 0:
            tally = Tally()
        tally.add_counts(result["tally"])
        engine, facts = result["engine"], result["facts"]
        if part == parts - 1:
            rows.append(cell_row(jobs[cell]["cell"], tally, engine, facts))
            if progress:
                progress(1)
    return rows


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


def with_settings(spec: SweepSpec, base: Mapping[str, Any], source: str) -> dict[str, Any]:
    """The base document with the spec's ``set = ["PATH=VALUE", …]`` (and ``sweep --set``) applied, as ``--set``."""
    from konflikt.core.overrides import apply_settings, parse_settings

    return apply_settings(base, parse_settings(spec.set), source, Path(source).parent)


def base_scenario(spec: SweepSpec, spec_path: Path) -> tuple[Path, Scenario]:
    """The sweep's scenario file (beside the spec, or a bundled name) and the scenario it holds with no axis set."""
    try:
        path = (
            find_scenario(str(spec_path.parent / spec.scenario))
            if not Path(spec.scenario).exists() and (spec_path.parent / spec.scenario).exists()
            else find_scenario(spec.scenario)
        )
    except KonfliktError as exc:  # the spec and its field named: a designer may have several specs
        reason = str(exc).removeprefix(f"{spec.scenario}: ")
        raise ScenarioError(
            _("{path}: scenario = {scenario}: {reason}", path=spec_path, scenario=repr(spec.scenario), reason=reason)
        ) from None
    if spec.set:
        from konflikt.core.overrides import parse_settings, scenario_with_settings

        return path, scenario_with_settings(read_toml(path), parse_settings(spec.set), str(path), base=path.parent)
    return path, scenario_from_document(read_toml(path), str(path), base=path.parent)


def check_axes(spec: SweepSpec, spec_path: Path, base: Mapping[str, Any], scenario_path: Path) -> None:
    """Each value of each axis set alone on the base scenario, before any cell is played: a value the scenario or
    its rule options refuse is one line naming the spec, the axis and the value (not a cell's, later)."""
    for axis in spec.axis:
        alone = spec.model_copy(update={"axis": [axis]})
        for value in axis.values:
            try:
                job = cell_job(alone, base, str(scenario_path), {axis.name: value})
                scenario = scenario_from_document(job["document"], str(scenario_path), base=scenario_path.parent)
                scenario.ruleset.options.resolve(scenario.options, job["overrides"])
            except KonfliktError as exc:
                raise ScenarioError(
                    _(
                        "{path}: axis {name} = {value}: {error}",
                        path=spec_path,
                        name=axis.name,
                        value=repr(value),
                        error=exc,
                    )
                ) from None


def sweep_header(spec: SweepSpec, spec_path: Path) -> dict[str, Any]:
    """The run header of a sweep: the base scenario's, with the spec (axes, options, n, seed) and its digest."""
    _path, scenario = base_scenario(spec, spec_path)
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
    only_on: list[str] | None = None,
) -> list[dict[str, Any]]:
    """Every cell's row, in grid order, on the local engine (processes) or on a Dask cluster (at ``scheduler``, or
    through an open ``client``: the bench keeps one, so connecting is start-up, not the sweep). ``only_on``: the
    Dask workers' addresses the tasks may run on (the bench's one-worker runs, on the same cluster as its
    two-worker runs, so the two are interleaved)."""
    scenario_path, _scenario = base_scenario(spec, spec_path)
    base = read_toml(scenario_path)
    jobs = [cell_job(spec, base, str(scenario_path), c) for c in cells(spec)]
    check_axes(spec, spec_path, base, scenario_path)
    scenario_from_document(jobs[0]["document"], str(scenario_path), base=scenario_path.parent)
    if engine == "local":
        if workers == 1:
            rows = []
            for job in jobs:
                rows.append(run_cell(job))
                if progress:
                    progress(1)
            return complete(rows)
        tasks = [(jobs[cell], part, parts, block_sizes()) for cell, part, parts in sweep_plan(len(jobs))]
        try:  # the program's pool, started once; map hands out the parts in order, each to the first free worker
            return complete(_rows_of_parts(jobs, worker_pool(workers).map(_play_part, tasks), progress))
        except BaseException:  # Ctrl-C, or a worker that died: the next run starts clean processes
            close_pool()
            raise
    if engine == "dask":
        own = client is None
        if own:
            client = _connect(scheduler)
        try:
            # the base document goes to every worker once; a task carries only its cell's values
            [shared] = client.scatter([base], broadcast=True)
            plan = sweep_plan(len(jobs))
            where = {"workers": only_on} if only_on else {}
            futures = client.map(play_part_of, [jobs[c]["cell"] for c, _, _ in plan], [p for _, p, _ in plan],
                                 [k for _, _, k in plan], spec=spec, base=shared, source=str(scenario_path),
                                 sizes=block_sizes(), pure=False, **where)  # fmt: skip
            return complete(_rows_of_parts(jobs, (future.result() for future in futures), progress))
        finally:
            if own:
                client.close()
    raise KonfliktError(_("--engine takes local or dask, not {engine}", engine=repr(engine)))


def _connect(scheduler: str | None) -> Any:
    from konflikt.sim.cluster import connect

    return connect(scheduler)
