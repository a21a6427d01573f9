"""Sending e-mail: the standard library's :mod:`smtplib`, off the request path.

:class:`Mailer` queues messages and one task hands them, one at a time, to a
thread that talks SMTP, so a slow or unreachable mail server never delays a
move or a page. Without ``Settings.smtp_url`` (the default) it sends nothing.

``smtp_url``: ``smtp://host:port`` (plain, upgraded with STARTTLS when the
server offers it), ``smtps://host:port`` (TLS from the start), with
``user:password@`` before the host when the server wants a login.

The unsubscribe link of every message is signed (:func:`unsubscribe_token`):
an HMAC of the account id under the server's key, so one click switches
e-mail off without signing in, and nobody can switch off someone else's.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import logging
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formataddr, make_msgid
from typing import Final
from urllib.parse import unquote, urlsplit

log = logging.getLogger("alea.server.mail")

#: Tries per message before it is given up (with a pause between them).
ATTEMPTS: Final = 3
RETRY_PAUSE: Final = 5.0
#: Messages waiting at most; past it new ones are dropped (and logged), never blocking.
QUEUE_SIZE: Final = 1000


def unsubscribe_token(key: bytes, user_id: str) -> str:
    """The signature that lets a link switch off e-mail for ``user_id``."""
    digest = hmac.new(key, f"unsubscribe:{user_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def unsubscribe_matches(key: bytes, user_id: str, token: object) -> bool:
    """Whether ``token`` is the unsubscribe signature of ``user_id`` (constant time)."""
    if not isinstance(token, str) or not token or len(token) > 100:
        return False
    return hmac.compare_digest(token, unsubscribe_token(key, user_id))


@dataclass(frozen=True)
class Mail:
    """One message to send: the recipient, subject, plain text, and its unsubscribe link."""

    to: str
    subject: str
    text: str
    unsubscribe: str


@dataclass(frozen=True)
class SmtpTarget:
    """Where to send, read from ``smtp_url``."""

    host: str
    port: int
    tls: bool
    user: str | None = None
    password: str | None = None


def parse_smtp_url(url: str) -> SmtpTarget:
    """The SMTP server of ``url`` (``ValueError`` for one that is not smtp:// or smtps://)."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ValueError(f"not an smtp:// or smtps:// URL: {url!r}")
    tls = parts.scheme == "smtps"
    return SmtpTarget(
        host=parts.hostname,
        port=parts.port or (465 if tls else 25),
        tls=tls,
        user=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
    )


def compose(mail: Mail, sender: str) -> EmailMessage:
    """The message as sent, with ``List-Unsubscribe`` for one-click unsubscribing
    (RFC 8058) besides the link in the text."""
    message = EmailMessage()
    message["From"] = formataddr(("Alea Iacta Est", sender))
    message["To"] = mail.to
    message["Subject"] = mail.subject
    message["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or None)
    message["List-Unsubscribe"] = f"<{mail.unsubscribe}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message["Auto-Submitted"] = "auto-generated"
    message.set_content(mail.text)
    return message


def deliver(target: SmtpTarget, message: EmailMessage, timeout: float = 20.0) -> None:
    """Send one message (blocking; the mailer's thread)."""
    if target.tls:
        smtp: smtplib.SMTP = smtplib.SMTP_SSL(
            target.host, target.port, timeout=timeout, context=ssl.create_default_context()
        )
    else:
        smtp = smtplib.SMTP(target.host, target.port, timeout=timeout)
    with smtp:
        smtp.ehlo()
        if not target.tls and smtp.has_extn("starttls"):
            smtp.starttls(context=ssl.create_default_context())
            smtp.ehlo()
        if target.user:
            smtp.login(target.user, target.password or "")
        smtp.send_message(message)


class Mailer:
    """The outgoing mail of one server: a queue and the task that empties it."""

    def __init__(self, smtp_url: str | None, sender: str) -> None:
        self.target = parse_smtp_url(smtp_url) if smtp_url else None
        self.sender = sender
        self.sent = 0
        self._queue: asyncio.Queue[Mail] | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def enabled(self) -> bool:
        return self.target is not None

    def start(self) -> None:
        if self.target is None:
            return
        self._queue = asyncio.Queue(QUEUE_SIZE)
        self._task = asyncio.get_running_loop().create_task(self._run(), name="alea-mail")

    def send(self, mail: Mail) -> None:
        """Queue ``mail`` (never waits; dropped with a warning when the queue is full)."""
        if self._queue is None:
            return
        try:
            self._queue.put_nowait(mail)
        except asyncio.QueueFull:
            log.warning("mail queue full; not sending %r", mail.subject)

    async def stop(self, grace: float = 5.0) -> None:
        """Send what is queued (for up to ``grace`` seconds), then stop."""
        if self._task is None or self._queue is None:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._queue.join(), grace)
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None

    async def _run(self) -> None:
        assert self._queue is not None and self.target is not None
        while True:
            mail = await self._queue.get()
            try:
                await self._send(mail)
            finally:
                self._queue.task_done()

    async def _send(self, mail: Mail) -> None:
        assert self.target is not None
        message = compose(mail, self.sender)
        for attempt in range(1, ATTEMPTS + 1):
            try:
                await asyncio.to_thread(deliver, self.target, message)
            except (OSError, smtplib.SMTPException) as err:
                log.warning("mail to %s failed (attempt %d): %s", mail.to, attempt, err)
                if attempt < ATTEMPTS:
                    await asyncio.sleep(RETRY_PAUSE)
                continue
            self.sent += 1
            return
