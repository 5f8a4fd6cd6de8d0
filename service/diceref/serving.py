"""granian's server with a send timeout: a connection whose answer the client does not
take is closed (README, "What the service withstands").

granian has no write timeout, and the app cannot supply one (an answer handed over in one
piece leaves it at once), so a client that never reads holds a connection slot for good.
The timeout is the kernel's: `TCP_USER_TIMEOUT` on the listening socket, which every accepted
connection inherits (Linux; RFC 5482).  granian builds each worker's listener inside the
worker on Linux, so this server builds the one listener in the main process, sets the
option, and hands it to the workers as granian does where it shares one listener.  It
overrides one private method of granian's, which the locked version pins;
tests/operations/test_slow_readers.py fails if an upgrade changes it.  Its stop and reload
signal handlers do not take a lock (`signal_handler_interrupt`).
"""

from __future__ import annotations

import logging
import socket
import threading
from typing import Any

from granian._granian import ListenerSpec
from granian.server.mp import MPServer

log = logging.getLogger(__name__)


class BoundedSendGranian(MPServer):
    """`Granian` (granian's process-per-worker server, what `Granian` is under the GIL),
    whose TCP connections are aborted once a send stalls for `send_timeout` seconds."""

    def __init__(self, *args: Any, send_timeout: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.send_timeout = send_timeout

    def signal_handler_interrupt(self, *args: Any, **kwargs: Any) -> None:
        """granian's handler sets a `threading.Event`, whose lock the main thread may hold
        when the signal lands: inside `Event.wait`, or inside the handler of a first signal
        (a terminal's Ctrl-C or `kill` of the process group reaches the server directly and
        again through `uv run`, which forwards it).  The handler then waits for a lock its
        own thread holds, for ever.  Here the flag is set at once and the event from a
        thread of its own, which waits its turn for the lock."""
        self.interrupt_signal = True
        self._wake_main_loop()

    def signal_handler_reload(self, *args: Any, **kwargs: Any) -> None:
        """SIGHUP, without a lock (`signal_handler_interrupt`)."""
        self.reload_signal = True
        self._wake_main_loop()

    def _wake_main_loop(self) -> None:
        threading.Thread(
            target=self.main_loop_interrupt.set, name="granian-signal", daemon=True
        ).start()

    def _init_shared_socket(self) -> None:
        """The listener, built here and shared with the workers, with the timeout set."""
        if self.bind_uds or not hasattr(socket, "TCP_USER_TIMEOUT"):
            if not self.bind_uds:
                log.warning("no TCP_USER_TIMEOUT on this platform: no send timeout")
            super()._init_shared_socket()  # type: ignore[no-untyped-call]
            return
        holder = ListenerSpec(self.bind_addr, self.bind_port, self.backlog).build()
        self._ssp, self._sfd = None, holder.get_fd()
        self._shd = holder  # type: ignore[assignment]  # granian declares it None
        listener = socket.socket(fileno=self._sfd)
        listener.set_inheritable(True)
        listener.setsockopt(
            socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, round(self.send_timeout * 1000)
        )
        self._sso = listener
