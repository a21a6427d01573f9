"""The nginx configuration of a several-process deployment, rendered in one place.

docs/deploy.md shows it, ``bench/server_load.py`` and the cluster tests run it, and
``alea deploy nginx`` prints it: one function renders each part, so the three can
never drift apart (a test compares the documented text with :func:`nginx_site`).
It lives outside :mod:`alea.server` because it is deployment, not serving: the
server never imports it, and the benchmarks and tests import it without importing
each other.

Two parts, because nginx wants them in two places: :func:`nginx_main` is the top of
``nginx.conf`` (workers and their connections: what a burst of WebSocket openings
needs), :func:`nginx_site` the ``http``-level block (the upstream of ``alea serve``
processes and the WebSocket proxying). :func:`nginx_conf` puts both in one file for
an nginx run in the foreground as the current user (the tests and benchmarks).
"""

from __future__ import annotations

from collections.abc import Sequence

#: Connections one nginx worker may hold. A proxied WebSocket holds two (client and
#: upstream), so this is twice the sockets a worker can carry; Debian's default of 768
#: would refuse a burst of a few hundred players.
WORKER_CONNECTIONS = 16384
#: Pending connections the kernel queues for nginx's ``listen`` socket (nginx's own
#: default is 511): the burst of every player of a thousand games reconnecting at once
#: waits here instead of having its SYNs dropped and retried a second or more later.
#: Linux caps it at ``net.core.somaxconn`` (4096 by default since 5.4).
LISTEN_BACKLOG = 4096
#: The parameters of each upstream ``server`` line: no failure accounting. With
#: ``max_fails=1`` an upstream that refused one connection stays marked failed until a
#: request to it *ends*, and a WebSocket lasts minutes, so after a few ``kill -9``s nginx
#: answered 502 "no live upstreams" to most new sockets (the fault campaign of
#: docs/deploy.md). A refused connection still goes to the next process at once
#: (``proxy_next_upstream error``).
UPSTREAM_OPTIONS = "max_fails=0"


def nginx_site(
    upstreams: Sequence[str],
    *,
    listen: str = "443 ssl",
    server_name: str | None = "alea.example",
    backlog: int = LISTEN_BACKLOG,
    indent: str = "",
    options: str = UPSTREAM_OPTIONS,
    affinity: bool = True,
) -> str:
    """The ``map``, ``upstream`` and ``server`` blocks for ``upstreams`` (``host:port``),
    each ``server`` line with ``options`` (:data:`UPSTREAM_OPTIONS` unless a benchmark
    measures another choice).

    ``affinity``: a game's sockets go to one process, chosen by a consistent hash of
    the socket's path (which names the game), so that a move is applied, viewed and
    sent by one process, not also by each process that holds one of the game's seats
    (each applies every announced move again and builds its own seats' updates). Any
    process still serves any socket: when the chosen one is down, nginx takes the next
    (``proxy_next_upstream``), and adding or removing a process moves only its share of
    the games. Without it, sockets are spread round robin like everything else (the
    benchmarks measure the fan-out that way).
    """
    servers = "    # No failure accounting (max_fails=0): a WebSocket lasts minutes.\n" + "".join(
        f"    server {u.removeprefix('http://')} {options};\n" for u in upstreams
    )
    proxied = (
        "        proxy_http_version 1.1;\n"
        "        proxy_set_header Upgrade $http_upgrade;\n"
        "        proxy_set_header Connection $connection_upgrade;\n"
        "        proxy_set_header Host $host;\n"
        "        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;\n"
        "        proxy_set_header X-Forwarded-Proto $scheme;\n"
        "        proxy_read_timeout 3600s;\n"
        "        proxy_connect_timeout 2s;\n"
        "        proxy_next_upstream error timeout http_502 http_503;\n"
    )
    games = (
        (
            "\n"
            "# A game's sockets to one process (any can serve it; see docs/deploy.md).\n"
            "upstream alea_games {\n"
            "    hash $uri consistent;\n"
            f"{servers}"
            "}\n"
        )
        if affinity
        else ""
    )
    sockets = (
        (
            "\n    location /ws/games/ {\n        proxy_pass http://alea_games;\n"
            + proxied
            + "    }\n"
        )
        if affinity
        else ""
    )
    name = f"    server_name {server_name};\n" if server_name else ""
    tls = "    # ssl_certificate ...; ssl_certificate_key ...;\n" if "ssl" in listen.split() else ""
    text = (
        "map $http_upgrade $connection_upgrade {\n"
        "    default upgrade;\n"
        "    ''      close;\n"
        "}\n"
        "\n"
        "upstream alea {\n"
        f"{servers}"
        "}\n"
        f"{games}"
        "\n"
        "server {\n"
        f"    listen {listen} backlog={backlog};\n"
        f"{name}{tls}"
        "\n"
        "    location / {\n"
        "        proxy_pass http://alea;\n"
        f"{proxied}"
        "    }\n"
        f"{sockets}"
        "}\n"
    )
    return "".join(indent + line if line.strip() else line for line in text.splitlines(True))


def nginx_main(
    *, worker_processes: str = "auto", worker_connections: int = WORKER_CONNECTIONS
) -> str:
    """The top of ``nginx.conf``: workers, and the file descriptors and connections each
    may hold (every proxied socket takes two descriptors)."""
    return (
        f"worker_processes {worker_processes};\n"
        f"worker_rlimit_nofile {2 * worker_connections + 1024};\n"
        f"events {{ worker_connections {worker_connections}; }}\n"
    )


def nginx_conf(
    upstreams: Sequence[str],
    *,
    port: int,
    prefix: str,
    worker_processes: str = "1",
    worker_connections: int = WORKER_CONNECTIONS,
    as_root: bool = False,
    options: str = UPSTREAM_OPTIONS,
    affinity: bool = True,
) -> str:
    """A whole ``nginx.conf`` for nginx in the foreground on ``127.0.0.1:port``, its pid,
    logs and temporary files under ``prefix`` (the tests' and benchmarks' nginx).

    ``as_root``: nginx started by root would hand its workers to ``nobody``, who may not
    write ``prefix``; ``user root`` keeps them as root.
    """
    head = nginx_main(worker_processes=worker_processes, worker_connections=worker_connections)
    site = nginx_site(
        upstreams,
        listen=f"127.0.0.1:{port}",
        server_name=None,
        indent="    ",
        options=options,
        affinity=affinity,
    )
    return (
        "daemon off;\n" + ("user root;\n" if as_root else "") + f"pid {prefix}/nginx.pid;\n"
        f"error_log {prefix}/error.log warn;\n"
        f"{head}"
        "http {\n"
        "    access_log off;\n"
        f"    client_body_temp_path {prefix}/body;\n"
        f"    proxy_temp_path {prefix}/proxy;\n"
        f"    fastcgi_temp_path {prefix}/fastcgi;\n"
        f"    uwsgi_temp_path {prefix}/uwsgi;\n"
        f"    scgi_temp_path {prefix}/scgi;\n"
        f"{site}"
        "}\n"
    )
