"""`python -m metrobot rules --game G --language L --out DIR`: a game's illustrated rules as
files, the same pages `/game rules` shows.

A contract (tests and `docs/` read it; keep the names and keys stable):

    DIR/NN-<key>.png    the page's picture (pages of text only have none)
    DIR/NN-<key>.md     the page's text: "# <title>", a blank line, the body
    DIR/pages.json      {"game", "language", "pages": [{"number", "key", "title", "text",
                         "image" (file name or null), "covers" (rule ids)}]}

NN counts from 01. The texts are in the language asked for; so are the words drawn.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .discord_app.words import discord_text
from .games import BadInput, all_plugins, get_plugin
from .games.rulebook import page_texts
from .i18n import LANGUAGES, known


def cmd_rules(args: argparse.Namespace) -> int:
    from metrobot.render.rulebook import page_png  # drawing only here: the other tools need no Pillow

    plugin = get_plugin(args.game)
    language = known(args.language)
    if language is None:
        raise BadInput(f"--language must be one of {', '.join(LANGUAGES)}")
    args.language = language
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    listed = []
    for i, page in enumerate(plugin.rules_pages()):
        stem = f"{i + 1:02d}-{page.key}"
        title, body = page_texts(plugin, i, args.language)
        body = discord_text(body)  # (the pages are read beside Discord: its commands as typed there)
        (out / f"{stem}.md").write_text(f"# {title}\n\n{body}\n", encoding="utf-8")
        png = page_png(plugin.name, i, args.language)
        if png is not None:
            (out / f"{stem}.png").write_bytes(png)
        listed.append(
            {
                "number": i + 1,
                "key": page.key,
                "title": title,
                "text": body,
                "image": f"{stem}.png" if png is not None else None,
                "covers": list(page.covers),
            }
        )
    (out / "pages.json").write_text(
        json.dumps({"game": plugin.name, "language": args.language, "pages": listed}, ensure_ascii=False, indent=2)
        + "\n",
        encoding="utf-8",
    )
    print(f"{plugin.title}: {len(listed)} pages in {args.language}; wrote {out}")
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rules", help="write a game's illustrated rules: one PNG and one text per page")
    p.add_argument("--game", required=True, help=f"the game's name: {', '.join(p.name for p in all_plugins())}")
    p.add_argument("--language", default="en", help=f"one of {', '.join(LANGUAGES)} (default: en)")
    p.add_argument("--out", required=True, help="folder for the pages")
    p.set_defaults(func=cmd_rules)
