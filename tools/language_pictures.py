"""The pictures of every language, to look at (issue 76): for each language, what a player
sees in it — the rules pages as the service gives them (`/game rules`, every page of every
game), a tutorial game as the service plays it (`/game tutorial`: the newcomer, named in the
language's script, plays 💡's suggestions for a few turns against the automatic player) and a
board of each game whose four players have long names in the language's script (the middle
of a game the automatic player plays, for the first player, and the final images).

    .venv/bin/python -m tools.language_pictures --out /tmp/pictures            # every new language
    .venv/bin/python -m tools.language_pictures --out /tmp/pictures th zh_CN   # some
    .venv/bin/python -m tools.language_pictures --docs                         # docs/players/languages/

writes OUT/<language>/rules-<game>-<page>.png, tutorial-<game>.png, names-<game>.png and
names-<game>-final-<n>.png. `--docs` writes the pictures docs/players/languages.md shows: one
language of each script the new languages brought (and each Cyrillic and Chinese one), a
phone-sized part of the long-names board of On the Underground (its panel: names, labels,
the legend) at the size it is posted (`CROP`), in indexed colour as the bot posts it.

Everything is seeded (`SEED`, the service's `fixed_seeds`): the same pictures every run.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from metrobot.games import get_plugin  # noqa: E402
from metrobot.i18n import LANGUAGES, lang, reading  # noqa: E402
from metrobot.render import render_image  # noqa: E402
from metrobot.render.png import encode_png  # noqa: E402
from metrobot.service import fixed_seeds  # noqa: E402
from metrobot.storage import Database  # noqa: E402
from metrobot.wiring import GameService  # noqa: E402

GAMES = ("underground", "metromania", "flipwrite")
OPTIONS: dict[str, dict[str, Any]] = {"underground": {}, "metromania": {}, "flipwrite": {"map": "paris"}}
SEED = 76
TUTORIAL_TURNS = 6
DOCS = ROOT / "docs" / "players" / "languages"
# One language of each script the new languages brought, each Cyrillic and Chinese one.
SCRIPTS = {
    "th": "Thai",
    "hi": "Devanagari",
    "el": "Greek",
    "ru": "Cyrillic",
    "uk": "Cyrillic",
    "bg": "Cyrillic",
    "zh_CN": "Han (simplified)",
    "zh_TW": "Han (traditional)",
}
# The panel of On the Underground's board: the players, their lines, the destinations, the
# passenger, the connections and the legend (x from 1722 of the 2190 px, all 1120 px high).
CROP = (1722, 0, 2190, 1120)

# Four people's names in each language's script: the second long (26 to 32 characters, as far
# as Discord's display names go; 16 hanzi in Chinese), the third with an emoji, the fourth short.
NAMES = {
    "bg": ["Цветелина Стефанова", "Александра Константинова-Петрова", "🚇 Здравко Щерев", "Яна"],
    "cs": ["Jiří Dvořák-Šťastný", "Přemysl Čeněk Šťastný-Žďárský", "🚇 Řehoř Ůžička", "Eva"],
    "da": ["Søren Kierkegaard Ærø", "Frederikke Østergaard-Mølgaard", "🚇 Åge Æbelø", "Bo"],
    "el": ["Αικατερίνη Παπαδοπούλου", "Χαράλαμπος Κωνσταντινόπουλος", "🚇 Ευάγγελος Ψυχάρης", "Ίων"],
    "fi": ["Väinö Hämäläinen", "Äänekoski Pöyhönen-Järvenpää", "🚇 Yrjö Ström", "Aku"],
    "hi": ["प्रियंका क्षत्रिय शर्मा", "श्रीनिवास रामानुजन् त्रिपाठी", "🚇 ऋषिकेश द्विवेदी", "ज्ञान"],
    "hr": ["Đurđica Čačić", "Krešimir Ćosić-Đurđevac Šimunić", "🚇 Žarko Šešelj", "Ivo"],
    "hu": ["Erdős Győző Ünőke", "Szentgyörgyi Hőgyes Zsuzsánna", "🚇 Őry Ügyész", "Éva"],
    "id": ["Siti Nurhaliza", "Kusumawardhani Tjokroaminoto", "🚇 Bambang Pamungkas", "Adi"],
    "it": ["Niccolò Caffè", "Pierfrancesco Dell'Acqua-Bellò", "🚇 Ettore Fà", "Ugo"],
    "lt": ["Žemyna Ąžuolaitė-Šimkūnė", "Kęstutis Čiurlionis-Žemaitis", "🚇 Ūla Įžymioji", "Ona"],
    "nb": ["Bjørn Ødegård", "Åse Kristiansen-Mørkved Hågå", "🚇 Øyvind Ærø", "Per"],
    "pl": ["Grzegorz Brzęczyszczykiewicz", "Żaneta Źdźbło-Chrząszczewska", "🚇 Łukasz Ćwik", "Ola"],
    "ro": ["Ștefan Țăranu", "Mădălina Țurcanu-Ionescu-Bălan", "🚇 Îngerul Șaru", "Ion"],
    "ru": ["Ёлкина Щукина-Подъячева", "Всеволод Ярославович Щербаков", "🚇 Фёдор Шуйский", "Ия"],
    "sv": ["Åsa Öberg", "Ingegärd Sjöström-Åkerlund Öhrn", "🚇 Örjan Ärlig", "Bo"],
    "th": ["สมชาย ใจดีมีน้ำใจ", "ประภาพรรณ ศรีสุวรรณวงศ์ ณ อยุธยา", "🚇 ฤทธิ์ ฦๅสาย", "นุ่น"],
    "tr": ["Şükrü İğdeli Çağlayan", "Gülşen Özdemir-Kılıçarslan", "🚇 Ümit Işıkçı", "Can"],
    "uk": ["Ґалина Їжакевич-Єрмоленко", "Святослав Щербак-Вишневецький", "🚇 Євгенія Ґудзь", "Їва"],
    "vi": ["Nguyễn Thị Phượng Trường", "Trương Nguyễn Hoàng Khuê Quỳnh", "🚇 Đặng Ỷ Lại", "Ân"],
    "zh_CN": ["欧阳晓燕", "上海地铁爱好者·欧阳晓燕的朋友们", "🚇 诸葛铁路", "王"],
    "zh_TW": ["歐陽曉燕", "臺北捷運愛好者·歐陽曉燕的朋友們", "🚇 諸葛鐵路", "王"],
}


def rules_pages(code: str) -> dict[str, bytes]:
    """Every rules page's picture of every game, as `/game rules` gives them in `code`."""
    return asyncio.run(_service(code, _rules))


def tutorial_boards(code: str) -> dict[str, bytes]:
    """Each game's tutorial board after the newcomer's `TUTORIAL_TURNS` turns, in `code`."""
    return asyncio.run(_service(code, _tutorials))


async def _service(code: str, work: Any) -> dict[str, bytes]:
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database(Path(tmp) / "pictures.sqlite3").open()
        svc = GameService(db, seeds=fixed_seeds(SEED), images=True, default_turn_clock=3600)
        try:
            with reading(code):
                return await work(svc, code)
        finally:
            await svc.close()


async def _rules(svc: GameService, code: str) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for game in GAMES:
        for index in range(len(get_plugin(game).rules_pages())):
            message = (await svc.rules_pages.rules(f"rules-{game}", game, index)).reply
            for file in message.files if message else []:
                out[f"rules-{game}-{index + 1}"] = file.data
    return out


async def _tutorials(svc: GameService, code: str) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    newcomer = NAMES[code][1] if code in NAMES else "Ann"
    for game in GAMES:
        channel = f"tutorial-{game}"
        outcome = await svc.tutorial.tutorial(channel, "guild", "newcomer", newcomer, game)
        last = [f.data for m in outcome.public for f in m.files]
        for _ in range(TUTORIAL_TURNS):
            row = await svc.db.open_game(channel)
            if row is None:
                break
            plugin = get_plugin(row.game)
            state = plugin.game.from_json(row.state)
            if "newcomer" not in {plugin.game.owner(state, s) for s in plugin.game.to_move(state)}:
                break
            menu = await svc.hints.hint_menu(channel, "newcomer", [])
            played = await svc.turns.play(channel, "newcomer", menu.prefix)
            last = [f.data for m in played.public for f in m.files] or last
        if last:
            out[f"tutorial-{game}"] = last[-1]
    return out


def names_boards(code: str) -> dict[str, Image.Image]:
    """Each game's board with four long names in `code`'s script, halfway through a game the
    automatic player plays (for the first player), and its final images."""
    words = lang(code)
    people = NAMES.get(code, ["Ann", "Bob", "Cat", "Dan"])
    out: dict[str, Image.Image] = {}
    for game in GAMES:
        plugin = get_plugin(game)
        seats = [f"p{i + 1}" for i in range(4)]
        states = _played(game, seats)
        names = dict(zip(seats, [people[1], people[0], *people[2:]]))  # (the viewer's the longest)
        middle = states[len(states) // 2]
        board = render_image(plugin.game, middle, "p1", names, words)
        if board is not None:
            out[f"names-{game}"] = board
        painter = __import__(plugin.renderer or "", fromlist=["final"])
        for i, (_, image) in enumerate(painter.final(plugin.game.view(states[-1], None), names, words)):
            out[f"names-{game}-final-{i + 1}"] = image
    return out


def _played(game: str, seats: list[str]) -> list:
    plugin = get_plugin(game)
    state = plugin.game.new_game(seats, OPTIONS[game], SEED)
    rnd, states = random.Random(SEED), [state]
    while not plugin.game.is_over(state):
        seat = sorted(plugin.game.to_move(state), key=plugin.game.seats(state).index)[0]
        state, _ = plugin.game.apply(state, seat, plugin.auto_action(state, seat, rnd))
        states.append(state)
    return states


def write(code: str, out: Path) -> int:
    """Every picture of `code` under out/code; how many."""
    folder = out / code
    folder.mkdir(parents=True, exist_ok=True)
    pictures = {**rules_pages(code), **tutorial_boards(code)}
    for name, image in names_boards(code).items():
        pictures[name] = encode_png(image)
    for name, data in pictures.items():
        (folder / f"{name}.png").write_bytes(data)
    return len(pictures)


def docs_picture(code: str) -> bytes:
    """The docs' picture of `code`: the panel of On the Underground's long-names board."""
    board = names_boards_underground(code)
    return encode_png(board.crop(CROP))


def names_boards_underground(code: str) -> Image.Image:
    seats = [f"p{i + 1}" for i in range(4)]
    states = _played("underground", seats)
    plugin = get_plugin("underground")
    people = NAMES[code]
    names = dict(zip(seats, [people[1], people[0], *people[2:]]))
    board = render_image(plugin.game, states[len(states) // 2], "p1", names, lang(code))
    assert board is not None, "On the Underground has pictures"
    return board


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("languages", nargs="*", help="language codes (default: the 22 new ones)")
    parser.add_argument("--out", type=Path, help="write every picture of each language here")
    parser.add_argument("--docs", action="store_true", help=f"write the docs' pictures to {DOCS.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    codes = args.languages or list(NAMES)
    unknown = [code for code in codes if code not in LANGUAGES]
    if unknown:
        parser.error(f"unknown languages: {', '.join(unknown)}")
    if args.out:
        for code in codes:
            print(f"{code}: {write(code, args.out)} pictures in {args.out / code}")
    if args.docs:
        DOCS.mkdir(parents=True, exist_ok=True)
        for code in args.languages or SCRIPTS:
            (DOCS / f"{code}.png").write_bytes(docs_picture(code))
            print(f"{code}: {DOCS.relative_to(ROOT)}/{code}.png")
    if not args.out and not args.docs:
        parser.error("--out DIR, --docs or both")


if __name__ == "__main__":
    main()
