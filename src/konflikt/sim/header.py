"""The run header: what was simulated, written into every output file so a result can be reproduced from it alone.

A CSV file starts with one line ``# konflikt-run: {json}`` (``pandas.read_csv(..., comment="#")`` skips it); a JSON
file has the same object under ``"run"``; a plot carries it in its caption and in the image's metadata.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

from konflikt.core.i18n import percent
from konflikt.core.messages import _
from konflikt.core.scenario import Scenario, bundled_examples
from konflikt.core.state import GM
from konflikt.core.thousands import grouped
from konflikt.errors import KonfliktError

CSV_PREFIX = "# konflikt-run: "


def version() -> str:
    """konflikt's installed version (from the package metadata: ``sim`` may not import the top package)."""
    try:
        return metadata.version("konflikt")
    except metadata.PackageNotFoundError:
        return "unknown"


def digest(document: Mapping[str, Any]) -> str:
    """A short SHA-256 of a scenario document (characters inlined): the same digest means the same scenario."""
    text = json.dumps(document, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def run_header(
    scenario: Scenario,
    overrides: Mapping[str, object],
    policies: Mapping[str, str],
    seed: int,
    n: int,
    engine: str,
    command: str = "sim",
) -> dict[str, Any]:
    """The facts that decide a simulation's numbers: scenario (and its digest), options, seat policies, seed, n."""
    seats = {p.id: p.policy for p in scenario.participants()}
    seats[GM] = scenario.gm
    seats.update(policies)
    options = scenario.ruleset.options.resolve(scenario.options, dict(overrides))
    return {
        "konflikt": version(),
        "command": command,
        "scenario": short_source(scenario.source),
        "ruleset": scenario.ruleset.id,
        "digest": digest(scenario.document),
        "options": {k: _plain(v) for k, v in dict(options).items()},
        "overrides": {k: _plain(v) for k, v in overrides.items()},
        "policies": dict(sorted(seats.items())),
        "seed": seed,
        "n": n,
        "engine": engine,
    }


def short_source(source: str) -> str:
    """A bundled scenario as ``presja/knife_fight`` (what ``konflikt sim`` takes back); any other file as given."""
    path = Path(source)
    try:
        relative = path.resolve().relative_to(bundled_examples().resolve())
    except ValueError:
        return source
    return relative.with_suffix("").as_posix()


def csv_line(header: Mapping[str, Any]) -> str:
    return CSV_PREFIX + json.dumps(header, ensure_ascii=False, sort_keys=True) + "\n"


def read_csv_header(text: str) -> dict[str, Any]:
    """The header of a CSV file written here (its first line)."""
    first = text.split("\n", 1)[0]
    if not first.startswith(CSV_PREFIX):
        raise ValueError("no konflikt run header on the first line")
    data: dict[str, Any] = json.loads(first[len(CSV_PREFIX) :])
    return data


def caption(header: Mapping[str, Any]) -> str:
    """Two short lines for under a plot: what was simulated, how, and how to get it again."""
    changed = ", ".join(f"{k}={v}" for k, v in header.get("overrides", {}).items()) or _("defaults")
    policies = ", ".join(f"{k}={v}" for k, v in header.get("policies", {}).items())
    return (
        _(
            "{scenario} (digest {digest}) · options: {options} · policies: {policies}",
            scenario=header["scenario"],
            digest=header["digest"],
            options=changed,
            policies=policies,
        )
        + "\n"
        + _(
            "n = {n} per point · seed {seed} · engine {engine} · konflikt {version} · {wilson} Wilson intervals",
            n=grouped(header["n"]),
            seed=header["seed"],
            engine=header["engine"],
            version=header["konflikt"],
            wilson=percent(95, 0),
        )
    )


def _plain(value: Any) -> Any:
    return value if isinstance(value, str | int | float | bool) or value is None else str(value)


def make_folder_for(path: Path, asked: Path | None = None) -> None:
    """The folder of a file the user named, made where missing; where it cannot be (a file in the way, no
    permission) one line that says so, rather than an internal error (``File exists`` would name the wrong thing).
    ``asked``: the folder the user named, when ``path`` is a probe inside it (the line names the folder).
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        blocker = next((p for p in (path.parent, *path.parent.parents) if p.exists() and not p.is_dir()), None)
        why = (
            _("{blocker} is a file, not a folder", blocker=blocker) if blocker is not None else exc.strerror or str(exc)
        )
        if asked is not None:
            raise KonfliktError(_("cannot write in {folder}: {why}", folder=asked, why=why)) from None
        raise KonfliktError(_("cannot write {path}: {why}", path=path, why=why)) from None


def writable_folder(folder: Path) -> None:
    """Check before a long computation that its output folder can be made and written (a file is created in it and
    removed): a report of many seconds should not fail at its end for a ``--out`` that could never be written."""
    probe = folder / ".konflikt-write-check"
    make_folder_for(probe, asked=folder)  # named by the folder asked for, not by the probe inside it
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise KonfliktError(_("cannot write in {folder}: {why}", folder=folder, why=exc.strerror or exc)) from None


def writable_file(path: Path) -> None:
    """Check before a long computation that the file it will end by writing (``sim --csv``) can be written: its
    folder made where missing and a file created in it and removed. Minutes of simulation should not end in a
    ``cannot write`` for a path that never could be."""
    if path.is_dir():
        raise KonfliktError(_("cannot write {path}: that is a folder; name a file", path=path))
    make_folder_for(path)
    probe = path.with_name(f".{path.name}.partial")
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise KonfliktError(_("cannot write {path}: {why}", path=path, why=exc.strerror or exc)) from None


def write_text(path: Path, text: str) -> Path:
    """Write a whole file or nothing: a temporary file beside it, renamed into place (never a half-written file)."""
    temporary = path.with_name(f".{path.name}.partial")
    make_folder_for(path)
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    except OSError as exc:
        with contextlib.suppress(OSError):  # under a file, say: there is no half-written file to clear
            temporary.unlink(missing_ok=True)
        raise KonfliktError(_("cannot write {path}: {why}", path=path, why=exc.strerror or exc)) from None
    return path
