"""What a tournament says in its hall, in its own language: the sign-up post, the format's
rules in one line, a round's pairings, the standings message and the final post.

Texts only: the director decides when each is owed. A table's thread is linked where it is
named (`THREAD`), filled in when the post goes out (the thread may not exist before).
"""

from __future__ import annotations

from ..games.plugin import GamePlugin
from ..games.protocol import N_
from ..i18n import Lang
from ..i18n import words as part
from ..service.core import hours, title
from ..storage import Snapshot, TournamentRow
from .model import Round, Rules, Standing

FORMAT_WORDS = {
    "swiss": N_("Swiss"),
    "round_robin": N_("round robin"),
    "knockout": N_("knockout"),
    "league": N_("league"),
}
THREAD = "⟦{round}:{table}⟧"  # a table's thread, linked when the post is made
SHOWN = 20  # people a standings message lists (the command shows more, privately)
SIGNED_SHOWN = 30  # names the sign-up post lists (its count says how many there are)


def thread_mark(round_number: int, table: int) -> str:
    return THREAD.format(round=round_number, table=table)


def clean(name: str) -> str:
    """A person's name as posted: no thread marks, no markdown that would break the line."""
    return name.replace("⟦", "").replace("⟧", "").replace("*", "").replace("_", " ").replace("`", "'")[:40]


def number(x: float, g: Lang) -> str:
    """Points as people of `g` write them: 3, 2.5, 1.67 ("2,5" in German)."""
    return g.num(x, 2, trim=True)


def counted(x: float) -> int:
    """The count a text about `x` points takes its plural form by (`Lang.n`): the number itself
    when whole, else 2, since a fraction reads as several in English ("1.5 points", "0.5 points")."""
    return int(x) if float(x).is_integer() else 2


def rules_line(rules: Rules, g: Lang, settings: dict) -> str:
    size = rules.table_size
    if rules.format == "swiss":
        line = g.t(
            "Swiss, {rounds} rounds at tables of {size}: round 1 is drawn, later rounds seat people with "
            "equal points who have not met yet; points by placing at each table, then tie-breaks.",
            rounds=rules.rounds,
            size=size,
        )
    elif rules.format == "round_robin":
        line = g.t(
            "Round robin at tables of {size}: everyone meets everyone else in their group; points by placing "
            "at each table, then tie-breaks.",
            size=size,
        )
    elif rules.format == "knockout":
        line = g.n(
            "Knockout at tables of {size}, seeded by rating: the winner of each table goes through, until the final.",
            "Knockout at tables of {size}, seeded by rating: the best {advance} of each table go "
            "through, until the final.",
            rules.advance,
            size=size,
            advance=rules.advance,
        )
    else:
        end = part.time(settings["season_until"], "D") if settings.get("season_until") else "—"
        line = g.sentences(
            g.t(
                "League at tables of {size} until {end}: join any time; a table opens whenever {size} people are free.",
                size=size,
                end=end,
            ),
            (
                g.n("Your best result counts.", "Your best {best} results count.", rules.best_of, best=rules.best_of)
                if rules.best_of
                else g.t("Every result counts.")
            ),
        )
    if rules.duplicate:
        line = g.sentences(
            line, g.t("Duplicate: every table of a round gets the same deal, ranked across the whole field.")
        )
    return line


def signup_text(row: TournamentRow, plugin: GamePlugin, g: Lang, snap: Snapshot) -> str:
    s, rules = row.settings, Rules.from_json(row.rules)
    people = [part.name(e.user_id, clean(e.name)) for e in snap.entrants if e.dropped is None]
    most = s.get("max_players")
    count = f"{len(people)}/{most}" if most else str(len(people))
    lines = [
        g.t(
            "🏆 **{name}** — a {game} tournament by {host}",
            name=clean(row.name),
            game=title(plugin, g),
            host=part.person(row.host_id),
        ),
        rules_line(rules, g, s),
        g.t(
            "Turn clock {clock} · {options}",
            clock=hours(s.get("clock", 86400), g),
            options=plugin.option_summary(s.get("options", {}), g),
        ),
    ]
    listed = g.enumerated(people[:SIGNED_SHOWN]) or "—"
    if len(people) > SIGNED_SHOWN:
        listed += " " + g.t("… and {n} more", n=len(people) - SIGNED_SHOWN)
    lines.append(g.t("Signed up ({count}): {people}", count=count, people=listed))
    if row.status == "signup":
        if s.get("signup_until"):
            lines.append(g.t("Sign-up closes {when}.", when=part.time(s["signup_until"], "R")))
        lines.append(
            g.t(
                "Join with the button or {command}; the host starts it.",
                command=part.command("tournament join", g.code),
            )
        )
    elif row.status in ("running", "paused"):
        lines.append(
            g.t("Under way: round {round}.", round=row.round)
            if rules.format != "league"
            else g.t(
                "Under way: join any time with the button or {command}.",
                command=part.command("tournament join", g.code),
            )
        )
        if row.status == "paused":
            lines.append(g.t("⏸️ Paused by the host: no new round is paired until it resumes."))
    elif row.status == "finished":
        lines.append(g.t("Finished. The final standings are below."))
    else:
        lines.append(g.t("This tournament was aborted."))
    return "\n".join(lines)


def pairings_text(row: TournamentRow, rnd: Round, names: dict[str, str], g: Lang, *, league: bool = False) -> str:
    head = (
        g.t("🎲 **{name}** — new tables:", name=clean(row.name))
        if league
        else g.t("🎲 **{name}** — round {round} pairings:", name=clean(row.name), round=rnd.number)
    )
    lines = [head]
    for table in rnd.tables:
        seats = " → ".join(part.person(p) for p in table.seats)
        lines.append(
            g.t(
                "**Table {table}** ({thread}): {seats}",
                table=table.number,
                thread=thread_mark(rnd.number, table.number),
                seats=seats,
            )
        )
    if rnd.byes:
        lines.append(
            g.t("Bye (scores the average): {people}", people=part.people(rnd.byes, separator=g.enumeration_comma))
        )
    lines.append(g.t("The first named at each table moves first. Play in your table's thread."))
    return _fit(lines)


def standings_lines(
    table: list[Standing], names: dict[str, str], g: Lang, rules: Rules, shown: int = SHOWN
) -> list[str]:
    lines = []
    for s in table[:shown]:
        extra = []
        if rules.format == "knockout" and s.extra.get("reached"):
            extra.append(g.t("reached round {round}", round=s.extra["reached"]))
        if s.byes:
            extra.append(g.n("{count} bye", "{count} byes", s.byes, count=s.byes))
        if s.skipped:
            extra.append(g.n("{count} skipped", "{count} skipped", s.skipped, count=s.skipped))
        if s.dropped:
            extra.append(g.t("dropped"))
        more = (" · " + g.enumerated(extra)) if extra else ""
        # Two counts, each with its own plural form: the points ("1 pt", "3 pts") and the games.
        points = g.n("{points} pt", "{points} pts", counted(s.points), points=number(s.points, g))
        lines.append(
            g.n(
                "{rank}. **{name}** — {points} · {played} game{more}",
                "{rank}. **{name}** — {points} · {played} games{more}",
                s.played,
                rank=s.rank,
                name=part.name(s.person, clean(names.get(s.person, s.person))),
                points=points,
                played=s.played,
                more=more,
            )
        )
    if len(table) > shown:
        lines.append(
            g.t(
                "… and {count} more ({command} lists everyone).",
                count=len(table) - shown,
                command=part.command("tournament standings", g.code),
            )
        )
    return lines


def standings_text(
    row: TournamentRow,
    table: list[Standing],
    names: dict[str, str],
    g: Lang,
    games: int,
    *,
    final: bool = False,
    shown: int = SHOWN,
) -> str:
    rules = Rules.from_json(row.rules)
    if final:
        head = g.t("🏁 **{name}** — final standings:", name=clean(row.name))
    elif games:
        head = g.n(
            "📊 **{name}** — standings after {games} game:",
            "📊 **{name}** — standings after {games} games:",
            games,
            name=clean(row.name),
            games=games,
        )
    else:
        head = g.t("📊 **{name}** — standings (no game has ended yet):", name=clean(row.name))
    foot = g.t(
        "Ties are broken by opponents' points, then a multi-player Sonneborn-Berger, then opponents' rating, "
        "then a seeded coin."
    )
    return _fit([head, *standings_lines(table, names, g, rules, shown), foot])


def final_text(row: TournamentRow, table: list[Standing], names: dict[str, str], g: Lang) -> str:
    podium = [s for s in table if s.rank <= 3 and not s.dropped][:3]
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    winners = g.enumerated(f"{medals.get(s.rank, '')} {part.person(s.person)}" for s in podium)
    return _fit(
        [
            g.t("🏆 **{name}** is over! Congratulations to {winners}.", name=clean(row.name), winners=winners),
            *standings_lines(table, names, g, Rules.from_json(row.rules), 10),
        ]
    )


def _fit(lines: list[str]) -> str:
    """The lines as one post: the first and the last always, the middle ones aside
    (`words.aside`): where a post has a length limit (Discord's), they give way from the end,
    an … standing for them."""
    head, body, foot = lines[0], lines[1:-1], lines[-1:]
    return "\n".join([head, *(part.aside(line) for line in body), *foot])
