"""Run the real ``konflikt`` command in-process: the same entry point as the console script."""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass

import pytest

from konflikt.cli.main import main

# Every test speaks the bilingual register unless it chooses a language itself: the words the tests read do not
# depend on the machine's locale (and worker processes inherit the setting).
os.environ["KONFLIKT_LANG"] = "both"

CALL_FAILED = pytest.StashKey[bool]()


@dataclass
class Result:
    code: int
    out: str
    err: str


def refused_in_one_line(result: Result, *words: str) -> str:
    """A command refused as the project promises: exit 2, one line on stderr holding each of ``words``, no traceback.
    Returns the line."""
    assert result.code == 2, (result.out, result.err)
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, lines
    for word in words:
        assert word in lines[0], lines[0]
    assert "Traceback" not in result.err and "internal error" not in result.err
    return lines[0]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., Result]:
    def run(*args: str) -> Result:
        code = 0
        try:
            main(list(args))
        except SystemExit as exc:
            code = int(exc.code or 0)
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


@pytest.fixture(autouse=True)
def _through_cli(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A test marked ``through_cli`` is played again at ``konflikt play`` once it has passed (tests/through_cli.py)."""
    if request.node.get_closest_marker("through_cli") is None:
        yield
        return
    from tests.through_cli import Recorder, replay_driven

    recorder = Recorder()
    with recorder.watching():
        yield
    if request.node.stash.get(CALL_FAILED, True):
        return
    if not recorder.driven:
        pytest.fail("marked through_cli, but the test drove no state to play again at the command line")
    if not replay_driven(recorder, tmp_path_factory.mktemp("through_cli")):
        pytest.fail("marked through_cli, but no state the test drove made a step to type at the command line")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Keep the call's outcome on the item: a failed test is not also played again at the command line."""
    report = yield
    if call.when == "call":
        item.stash[CALL_FAILED] = report.failed
    return report
