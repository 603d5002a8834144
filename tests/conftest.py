"""Run the real ``konflikt`` command in-process: the same entry point as the console script."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from konflikt.cli.main import main


@dataclass
class Result:
    code: int
    out: str
    err: str


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
