"""Compiled code for the whole run, made once before the test workers start.

Every test worker imports every test module, and hundreds of processes (each
console, ``run``, AI worker and test worker) load the bot's and the games'
sources. On a fresh checkout nothing is compiled yet: the eight workers would each
compile the sources and rewrite the asserts of every test module at the same
time, the same work six times over (about 7 s of CPU each). The run that starts
them does it once instead, on every core, and leaves the results where Python
and pytest look for them:

- the packages' ``.pyc`` (``compileall``), which a process reads even where
  PYTHONDONTWRITEBYTECODE keeps it from writing its own;
- pytest's cached rewrite of each test module and ``conftest.py``, which pytest
  reads back when it is not older than its source.

The rewrite is pytest's own (``_pytest.assertion.rewrite``); should a pytest
release move those helpers, the workers simply rewrite for themselves again.
"""

from __future__ import annotations

import compileall
import multiprocessing
import os
from pathlib import Path

import pytest

try:
    from _pytest.assertion import rewrite
except ImportError:  # this pytest keeps its rewrites some other way: its workers make their own
    rewrite = None

#: the run's config, for the forked helpers that rewrite test modules with it
_CONFIG: pytest.Config | None = None


def precompile(config: pytest.Config, packages: list[Path], tests: Path) -> None:
    """Compile ``packages`` and rewrite every test module under ``tests``, on every core."""
    cores = os.cpu_count() or 1
    for package in [*packages, tests / "support"]:
        compileall.compile_dir(package, quiet=1, workers=cores)
    if rewrite is None or config.getoption("assertmode", "rewrite") != "rewrite":
        return
    modules = sorted(p for p in tests.rglob("*.py") if p.name.startswith("test_") or p.name == "conftest.py")
    stale = [p for p in modules if rewrite._read_pyc(p, _kept_at(p)) is None]
    if not stale:
        return
    global _CONFIG
    _CONFIG = config
    try:
        with multiprocessing.get_context("fork").Pool(min(cores, len(stale))) as pool:
            pool.map(_rewrite, stale, chunksize=4)
    finally:
        _CONFIG = None


def _kept_at(source: Path) -> Path:
    """Where pytest keeps ``source`` rewritten."""
    return rewrite.get_cache_dir(source) / (source.name[:-3] + rewrite.PYC_TAIL)


def _rewrite(source: Path) -> None:
    """Rewrite one test module's asserts and keep the result as pytest would."""
    assert _CONFIG is not None
    try:
        stat, code = rewrite._rewrite_test(source, _CONFIG)
    except (OSError, SyntaxError, ValueError):
        return  # pytest reports it when it collects the module
    if rewrite.try_makedirs(rewrite.get_cache_dir(source)):
        rewrite._write_pyc(_CONFIG.stash[rewrite.assertstate_key], code, stat, _kept_at(source))
