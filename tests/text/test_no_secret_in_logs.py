"""No secret the config names, and no credential in the shape it travels in, reaches a log line.

``bazaarbot -v`` logs what the libraries do; a Matrix client's requests carry
its ``access_token``, an IRC connection sends ``PASS``, ``AUTHENTICATE`` and
``IDENTIFY``. The lines below are shaped as those libraries log them.
"""

from __future__ import annotations

import io
import logging

from bazaarbot.config import load_config
from bazaarbot.text.redact import guard_logs

SECRETS = {
    "matrix": "syt_Ym90_qWeRtYuIoPaSdFgHjKl_0a1b2c",
    "matrix_password": "hunter2-matrix",
    "sasl": "s3cret-sasl-pw",
    "nickserv": "nick-serv-pass",
    "server": "server-pass-99",
    "discord": "MTA0.discord.bot-token",
}

CONFIG = f"""
[[matrix.accounts]]
name = "hs"
homeserver = "https://matrix.example.org"
user_id = "@bot:example.org"
access_token = "{SECRETS["matrix"]}"

[[matrix.accounts]]
name = "hs2"
homeserver = "https://matrix2.example.org"
user_id = "@bot:example.org"
password = "{SECRETS["matrix_password"]}"

[[irc.networks]]
name = "n"
host = "irc.example.org"
password = "{SECRETS["server"]}"
sasl_password = "{SECRETS["sasl"]}"
nickserv_password = "{SECRETS["nickserv"]}"

[[discord.bots]]
name = "d"
token = "{SECRETS["discord"]}"
"""


def test_no_secret_of_the_config_reaches_a_log_line_with_verbose_logging(tmp_path):
    path = tmp_path / "bazaarbot.toml"
    path.write_text(CONFIG, encoding="utf-8")
    load_config(path)
    logger = logging.getLogger("secrets-test")
    logger.propagate = False
    logger.setLevel(logging.DEBUG)
    written = io.StringIO()
    logger.addHandler(logging.StreamHandler(written))
    guard_logs(logger)
    m = SECRETS["matrix"]
    logger.debug("GET https://matrix.example.org/_matrix/client/v3/sync?access_token=%s&timeout=30000", m)
    logger.debug("Sending %s", {"type": "m.login.password", "password": SECRETS["matrix_password"]})
    logger.debug('response {"access_token": "%s", "device_id": "X"}', m)
    logger.debug("headers: {'Authorization': 'Bearer %s'}", m)
    logger.debug("headers: {'Authorization': 'Bot %s'}", SECRETS["discord"])
    logger.debug("send: PASS %s", SECRETS["server"])
    logger.debug("send: AUTHENTICATE %s", "Ym90AGJvdABzM2NyZXQtc2FzbC1wdw==")
    logger.debug("send: PRIVMSG NickServ :IDENTIFY bot %s", SECRETS["nickserv"])
    logger.debug("the SASL password is %s", SECRETS["sasl"])
    try:
        raise RuntimeError(f"login failed for token {m}")
    except RuntimeError:
        logger.exception("matrix login")
    text = written.getvalue()
    assert text.count("***") == 10, text  # each line that held one
    for secret in [*SECRETS.values(), "Ym90AGJvdABzM2NyZXQtc2FzbC1wdw=="]:
        assert secret not in text, (secret, text)
    assert "timeout=30000" in text and "device_id" in text  # the rest of each line is kept
