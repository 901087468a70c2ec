"""Every sentence goes through one gettext catalogue: a German one changes the bot's words."""

from __future__ import annotations

import struct

from support.botdriver import Driver, text

from bazaarbot.i18n import _, current_language, language, set_language


def write_mo(path, entries: dict[str, str]) -> None:
    """A minimal GNU .mo file (the format msgfmt writes)."""
    keys = sorted(entries)
    ids = b"".join(k.encode() + b"\0" for k in keys)
    strs = b"".join(entries[k].encode() + b"\0" for k in keys)
    start = 7 * 4 + 16 * len(keys)
    id_pos, str_pos = start, start + len(ids)
    table_ids, table_strs = [], []
    for k in keys:
        table_ids += [len(k.encode()), id_pos]
        id_pos += len(k.encode()) + 1
        table_strs += [len(entries[k].encode()), str_pos]
        str_pos += len(entries[k].encode()) + 1
    header = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + 8 * len(keys), 0, 0)
    path.write_bytes(
        header
        + struct.pack(f"{len(table_ids)}i", *table_ids)
        + struct.pack(f"{len(table_strs)}i", *table_strs)
        + ids
        + strs
    )


def test_a_catalogue_translates_the_bots_sentences(tmp_path):
    folder = tmp_path / "locale" / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    write_mo(folder / "bazaarbot.mo", {"You do not sit at this table.": "Du sitzt nicht an diesem Tisch."})
    bot = Driver(tmp_path / "b.sqlite")
    set_language("de", tmp_path / "locale")
    try:
        assert text(bot.line("alice", "/leave")) == "Du sitzt nicht an diesem Tisch."
    finally:
        set_language("en")
    assert text(bot.line("alice", "/leave")) == "You do not sit at this table."


def test_per_language_builds_once_per_language_and_again_after_the_catalogues_change() -> None:
    from bazaarbot.i18n import forget_catalogues, per_language

    built: list[str] = []

    @per_language
    def words() -> dict[str, str]:
        built.append(current_language())
        return {"market": _("Market")}

    with language("de"):
        assert words() is words() and str(words()["market"]) == "Markt"
    with language("en"):
        assert str(words()["market"]) == "Market"
    assert built == ["de", "en"]
    forget_catalogues()
    with language("de"):
        assert str(words()["market"]) == "Markt"
    assert built == ["de", "en", "de"]


def test_per_language_keeps_one_result_per_language_and_arguments() -> None:
    from bazaarbot.i18n import ngettext, per_language

    built: list[tuple[str, int]] = []

    @per_language
    def camels(n: int) -> str:
        built.append((current_language(), n))
        return ngettext("{n} camel", "{n} camels", n).format(n=n)

    with language("de"):
        assert camels(2) is camels(2) and str(camels(1)) != str(camels(2))
    with language("en"):
        assert str(camels(2)) == "2 camels"
    assert built == [("de", 2), ("de", 1), ("en", 2)]
