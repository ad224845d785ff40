"""Links to the web pages: capability URLs, signed with a key of each server.

A link names what it opens ("game:42", "t:7" for a tournament, "server:123", "person:123:456",
"daily:456:<game>:<day>" for a person's page of a day's daily challenge table) and carries an HMAC
of that name made with the server's own key (kept in the database, never shown). Nothing is
listed and nothing can be guessed: a page opens only through a link the bot handed out (or,
for a server's index page, when its managers made it public). A forged or altered link, or
one signed with a key that has since been rotated, opens nothing and says nothing (404).
The key is per server, so rotating it revokes every link of that server and no other. Games
outside servers share one key (`NO_SERVER`) until a player of one of them revokes their links
(`/me settings web_new_key`): each channel of theirs then gets a key of its own (`own_key`),
new at each revocation, and the links signed before open nothing. A person's pages of the daily
challenge's tables are signed with that shared key over the person's own mark (`DAILY_MARK`,
in their settings), which the same revocation replaces.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import TYPE_CHECKING, Any

from ..i18n import me
from ..storage import GameRow, TournamentRow
from .outcome import Message, Outcome, Refused

if TYPE_CHECKING:
    from ..storage import Database
    from .core import Games, ServiceOptions

NO_SERVER = "@me"  # the key of games played outside any server (kept like a server's)
SIGNATURE_BYTES = 18  # 144 bits: 24 characters in a URL
DAILY_MARK = "web_daily"  # a person's setting: what their daily-table links are signed over (new: revoked)


def own_key(channel_id: str) -> str:
    """The key of one channel's games outside servers, made when someone revoked their links."""
    return f"{NO_SERVER}:{channel_id}"


async def game_key(db: Any, guild_id: str | None, channel_id: str | None, *, make: bool) -> bytes | None:
    """The key that signs a game's links: its server's; outside servers, its channel's own once
    a player there revoked their links, else the one all games outside servers share."""
    if guild_id:
        access = await db.web.web_access(guild_id, make=make)
    else:
        access = channel_id is not None and await db.web.web_access(own_key(channel_id))
        access = access or await db.web.web_access(NO_SERVER, make=make)
    return access[0] if access else None


def signature(key: bytes, what: str) -> str:
    mac = hmac.new(key, what.encode(), hashlib.sha256).digest()[:SIGNATURE_BYTES]
    return base64.urlsafe_b64encode(mac).decode()


def valid(key: bytes, what: str, given: str) -> bool:
    return hmac.compare_digest(signature(key, what), given.encode("ascii", "replace").decode())


class WebLinks:
    def __init__(self, db: Database, options: ServiceOptions, games: Games):
        self.db = db
        self.options = options
        self.games = games

    def url(self, path: str) -> str:
        assert self.options.web_base is not None
        return self.options.web_base.rstrip("/") + path

    async def _sign(self, guild_id: str | None, what: str) -> str:
        access = await self.db.web.web_access(guild_id or NO_SERVER, make=True)
        assert access is not None, "make=True makes a key"
        key, _ = access
        return signature(key, what)

    async def game_signature(self, row: GameRow, what: str) -> str:
        """`what` signed with the key of the game's links (made if there is none yet): its page's
        link, a person's play link and its page's token, and the Activity's sessions in it, which
        revoking the links (a new key) ends too."""
        key = await game_key(self.db, row.guild_id, row.channel_id, make=True)
        assert key is not None, "make=True makes a key"
        return signature(key, what)

    async def game_signed(self, row: GameRow, what: str, given: str) -> bool:
        """Whether `given` is `what` signed with the key of the game's links as it is now (not
        where there is none, nor with a key since revoked)."""
        key = await game_key(self.db, row.guild_id, row.channel_id, make=False)
        return key is not None and valid(key, what, given)

    async def game_path(self, row: GameRow) -> str:
        return f"/g/{row.id}/{await self.game_signature(row, f'game:{row.id}')}/"

    async def review_path(self, row: GameRow, user_id: str) -> str:
        """A player's review on the game's page: the game's link, then theirs alone (issue 64)."""
        return f"{await self.game_path(row)}review/{user_id}/{await self.game_signature(row, f'review:{row.id}:{user_id}')}/"

    async def opened_review(self, game_id: int, given: str, user_id: str, signed: str) -> GameRow | None:
        """The finished game a player's review link opens, or None (not the game's link, not this
        player's, a game not finished, someone who did not play it)."""
        row = await self.opened_game(game_id, given)
        if row is None or row.status != "finished" or row.seat(user_id) is None:
            return None
        return row if await self.game_signed(row, f"review:{row.id}:{user_id}", signed) else None

    async def tournament_path(self, row: TournamentRow) -> str:
        return f"/t/{row.id}/{await self._sign(row.guild_id, f't:{row.id}')}/"

    async def server_path(self, guild_id: str) -> str:
        return f"/s/{guild_id}/{await self._sign(guild_id, f'server:{guild_id}')}/"

    async def person_path(self, guild_id: str, user_id: str) -> str:
        return f"/p/{guild_id}/{user_id}/{await self._sign(guild_id, f'person:{guild_id}:{user_id}')}/"

    async def daily_path(self, user_id: str, kind: str, day: str) -> str:
        """A person's page of a day's table (daily/challenge.py): what it shows is decided when it
        is opened, by what that person has finished then. Signed with the key of games outside
        servers (the table is everyone's, not a server's)."""
        sig = await self._sign(None, await self._daily_what(user_id, kind, day))
        return f"/d/{user_id}/{kind}/{day}/{sig}/"

    async def opened_daily(self, user_id: str, kind: str, day: str, given: str) -> bool:
        return await self._checked(None, await self._daily_what(user_id, kind, day), given)

    async def _daily_what(self, user_id: str, kind: str, day: str) -> str:
        """What a person's daily-table link signs: the page, and their mark once they revoked
        their links (`/me settings web_new_key`: a new mark, and the links before open nothing)."""
        mark = (await self.db.people.person(user_id)).settings.get(DAILY_MARK)
        return f"daily:{user_id}:{kind}:{day}" + (f":{mark}" if mark else "")

    async def _checked(self, guild_id: str | None, what: str, given: str) -> bool:
        access = await self.db.web.web_access(guild_id or NO_SERVER)
        return access is not None and valid(access[0], what, given)

    async def opened_game(self, game_id: int, given: str) -> GameRow | None:
        """The game a link opens, or None (no such game, a lobby, a wrong or revoked signature)."""
        row = await self.db.game(game_id)
        if row is None or row.status == "lobby" or row.state is None:
            return None
        return row if await self.game_signed(row, f"game:{row.id}", given) else None

    async def opened_tournament(self, tournament_id: int, given: str) -> TournamentRow | None:
        """The tournament a link opens, or None (no such tournament, a wrong or revoked signature)."""
        row = await self.db.tournaments.tournament(tournament_id)
        if row is None:
            return None
        return row if await self._checked(row.guild_id, f"t:{row.id}", given) else None

    async def opened_server(self, guild_id: str, given: str | None) -> bool:
        """Whether a link opens a server's index page (without a signature: only a public one)."""
        access = await self.db.web.web_access(guild_id)
        if access is None:
            return False
        key, public = access
        return valid(key, f"server:{guild_id}", given) if given is not None else public

    async def opened_person(self, guild_id: str, user_id: str, given: str) -> bool:
        return await self._checked(guild_id, f"person:{guild_id}:{user_id}", given)

    # ------------------------------------------------------------ what the bot hands out
    async def status_link(self, game_id: int) -> tuple[str, str] | None:
        """The status message's link button (its label in the game's language, the URL), once
        the game has started; None when there are no web pages."""
        if self.options.web_base is None:
            return None
        row = await self.db.game(game_id)
        if row is None or row.state is None:
            return None
        return self.games.lang(row).p("button", "🌐 Open in browser"), self.url(await self.game_path(row))

    async def tap_label(self, game_id: int) -> str | None:
        """The status message's "▶ Play on the board" (in the game's language) while the game
        runs, where board play is on (see ServiceOptions.board_play); None otherwise."""
        if not self.options.board_play:
            return None
        row = await self.db.game(game_id)
        if row is None or row.status != "active" or row.state is None:
            return None
        return self.games.lang(row).p("button", "▶ Play on the board")

    async def web_link(self, channel_id: str) -> Outcome:
        """`/game web`: the link to this channel's game (the one running, else the last one)."""
        mine = me()
        if self.options.web_base is None:
            raise Refused(mine.t("This bot has no web pages: its operator can turn them on (METROBOT_WEB_PORT)."))
        row = await self.db.open_game(channel_id) or await self.db.last_game(channel_id)
        if row is None or row.state is None:
            raise Refused(mine.t("No game has started in this channel yet: a game's page exists once it starts."))
        return Outcome(
            reply=Message(
                mine.t(
                    "🌐 This game in a browser (anyone with the link can follow it; never a secret hand): {link}",
                    link=self.url(await self.game_path(row)),
                )
            )
        )

    async def leaderboard_link(self, guild_id: str) -> str | None:
        """The server's page, its leaderboards included (for `/leaderboard`), in the requester's language."""
        if self.options.web_base is None:
            return None
        return me().t(
            "🌐 Every leaderboard, game and lobby of this server: {link}",
            link=self.url(await self.server_path(guild_id)),
        )

    async def web_settings(self, guild_id: str, *, manager: bool, public: bool | None, rotate: bool) -> str | None:
        """`/server settings web_public / web_new_key`: what changed, in words (None: nothing asked)."""
        if public is None and not rotate:
            return None
        if not manager:
            raise Refused(me().t("Only people with the Manage Server permission change the server's settings."))
        _, now_public = await self.db.web.change_web(guild_id, public=public, rotate=rotate)
        said = (
            [me().t("Every web link of this server handed out so far no longer works; the bot hands out new ones.")]
            if rotate
            else []
        )
        said.append(
            me().t("The server's web page is public: anyone with its address sees its games and leaderboards.")
            if now_public
            else me().t("The server's web page opens only through a link the bot hands out.")
        )
        return "\n".join(said)

    async def revoke_links_outside_servers(self, user_id: str) -> str:
        """`/me settings web_new_key`: every link to the person's games outside servers (their
        pages, play links and Activity sessions, whoever they were handed to) and to their pages
        of the daily tables opens nothing from now on; a server's links are its managers' to revoke."""
        channels = await self.db.web.channels_outside_servers(user_id)
        for channel in channels:
            await self.db.web.change_web(own_key(channel), rotate=True)
        person = await self.db.people.person(user_id)  # (their pages of the daily tables too)
        person.settings = {**person.settings, DAILY_MARK: secrets.token_hex(8)}
        await self.db.people.save_person(person)
        if not channels:
            return me().t(
                "You have no game outside servers, so no web link of yours to revoke here. A server's links are "
                "revoked by its managers: /server settings web_new_key."
            )
        return me().t(
            "Every web link to your games outside servers handed out so far no longer works (their pages, play "
            "links and board sessions, for everyone); the bot hands out new ones."
        )
