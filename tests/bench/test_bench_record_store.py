"""``bench ai --record`` files its games where the bot would: the config's ``[store] url``, if any."""

from __future__ import annotations

import os
import subprocess

import psycopg
from support.paths import REPO_ROOT

from bazaarbot.bench.botprocess import bazaarbot_command


def test_bench_ai_record_files_its_games_in_the_configs_store_url_not_a_file_here(tmp_path, postgres_cluster):
    url = postgres_cluster.database()
    config = tmp_path / "cfg.toml"
    config.write_text(f'[store]\nurl = "{url}"\n')
    run = subprocess.run(
        bazaarbot_command(
            *("bench", "ai", "jaipur", "--level", "random", "--vs", "greedy"),
            *("--games", "2", "--record", "-c", str(config)),
        ),
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=str(REPO_ROOT)),
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1].startswith("AI ratings at Jaipur: ai:")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cfg.toml"], "no sqlite file in the current folder"
    with psycopg.connect(url) as conn:
        keys = {row[0].rsplit(":", 1)[0] for row in conn.execute("SELECT user_key FROM results")}
        games = conn.execute("SELECT count(*) FROM games WHERE status <> 'running'").fetchone()[0]
    assert keys == {"ai:random", "ai:greedy"} and games == 2
