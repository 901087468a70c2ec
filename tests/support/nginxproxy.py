"""A real nginx for the proxy tests: its binary, a config around one block of the guide, the guide's blocks.

The tests of ``docs/operating.md``'s nginx blocks run the block as written: ``guide_nginx_blocks``
reads them, ``nginx_conf`` puts one into a config of its own (temporary paths in the test's folder,
no daemon), and ``NGINX`` is the binary to start it with.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from support.paths import REPO_ROOT

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
OPERATING = REPO_ROOT / "docs" / "operating.md"

_CONF = """
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/error.log;
events {{ worker_connections 64; }}
http {{
  access_log off;
  client_body_temp_path {dir}/body;
  proxy_temp_path {dir}/proxy;
  fastcgi_temp_path {dir}/fastcgi;
  uwsgi_temp_path {dir}/uwsgi;
  scgi_temp_path {dir}/scgi;
  {http}
  server {{
    listen 127.0.0.1:{port};
    {location}
  }}
}}
"""


def nginx_conf(folder: Path, port: int, http: str, location: str) -> Path:
    """A config in ``folder`` listening on ``port``: ``http`` (a ``map``, an ``upstream``) and one
    ``location``; its pid, error log and temporary files stay in ``folder``."""
    conf = folder / "nginx.conf"
    conf.write_text(_CONF.format(dir=folder, port=port, http=http, location=location))
    return conf


def guide_nginx_blocks() -> list[str]:
    """Every ``nginx`` block of the operating guide, in its order."""
    return re.findall(r"```nginx\n(.*?)```", OPERATING.read_text(encoding="utf-8"), re.DOTALL)
