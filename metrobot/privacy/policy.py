"""`/privacy`: the privacy policy in short, in the reader's language, with the operator's
contact (`METROBOT_OPERATOR_CONTACT`), the version of metrobot they run (people asking what a
bot keeps should know which one it is), and where the full policy is (`METROBOT_PRIVACY_URL`,
else PRIVACY.md, which ships with the bot). PRIVACY.md says the same at length."""

from __future__ import annotations

from .. import __version__
from ..i18n import me
from ..i18n import words as part
from ..service import Message, Outcome


class Policy:
    """`/privacy`: what is kept and why, in the reader's language."""

    def __init__(self, retention_days: float, contact: str | None, policy_url: str | None):
        self.retention_days = retention_days
        self.contact = contact
        self.policy_url = policy_url

    async def policy(self) -> Outcome:
        t = me()
        contact = self.contact or t.t("not given; ask the people who run this server")
        full = (
            t.t("The full policy: {url}", url=self.policy_url)
            if self.policy_url
            else t.t("The full policy is PRIVACY.md, which comes with the bot's code.")
        )
        lines = [
            t.t("**Privacy** — what metrobot keeps, and your say over it"),
            t.t(
                "• **What**: your Discord ID; the display name you had at each table; your settings (turn DMs, "
                "quiet hours, time zone, language) and time away with its note; every move of your games; your "
                "results and ratings. Not your messages, not the server's member list."
            ),
            t.t(
                "• **Why**: to run the games (turns, clocks, secret hands by DM) and to show replays, histories, "
                "leaderboards and profiles."
            ),
            t.t(
                "• **How long**: as long as the games are kept. When the bot is removed from a server, that "
                "server's games, ratings and settings are deleted after {days} days.",
                days=t.num(self.retention_days, 2, trim=True),
            ),
            t.t(
                "• **Who sees it**: everyone in a game's channel sees what the bot posts there; your settings and "
                "hands only you; the bot's operator keeps the database. Nothing is sold or shared."
            ),
            t.t(
                "• **Your data**: {command} sends you all of it as a file; {command2} deletes it (in games others "
                "played with you, you become “Deleted player”). Posts already in channels stay: they are Discord's "
                "messages, and others replied to them.",
                command=part.command("me data", t.code),
                command2=part.command("me forget", t.code),
            ),
            t.t("• **Operator**: {contact}.", contact=contact),
            t.t("• **Version**: metrobot {version}.", version=__version__),
            full,
        ]
        return Outcome(reply=Message("\n".join(lines)))
