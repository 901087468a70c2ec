"""The outbox: tabs with frames waiting are written in one pass, once the change is complete."""

from __future__ import annotations

from support.waits import wait_until

from bazaarbot.transports.web.outbox import Outbox


class Tab:
    def __init__(self, log: list[str], name: str, outbox: Outbox | None = None) -> None:
        self.log, self.name, self.outbox = log, name, outbox
        self.again = False

    def write_waiting(self) -> None:
        self.log.append(self.name)
        if self.again and self.outbox is not None:
            self.again = False
            self.outbox.want(self)  # queued more while being written


async def test_every_tab_that_asked_is_written_once_in_one_pass_in_the_order_they_asked() -> None:
    log: list[str] = []
    outbox = Outbox()
    first, second = Tab(log, "first"), Tab(log, "second")
    for tab in (first, second, first):
        outbox.want(tab)
    await wait_until(lambda: log, what="the pass")
    assert log == ["first", "second"]


async def test_no_tab_is_written_while_the_views_of_the_change_are_due() -> None:
    log: list[str] = []
    due = [True]
    outbox = Outbox(ready=lambda: not due[0])
    outbox.want(Tab(log, "tab"))
    await wait_until(lambda: not outbox._scheduled, what="the pass")
    assert log == []  # the flush of views drains it
    due[0] = False
    outbox.drain()
    assert log == ["tab"]
    outbox.drain()
    assert log == ["tab"]


async def test_a_tab_that_asks_while_it_is_written_is_written_again_in_another_pass() -> None:
    log: list[str] = []
    outbox = Outbox()
    tab = Tab(log, "tab", outbox)
    tab.again = True
    outbox.want(tab)
    await wait_until(lambda: len(log) == 2, what="the second pass")
    assert log == ["tab", "tab"]
