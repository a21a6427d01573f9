"""``alea deploy nginx``: print the nginx configuration of docs/deploy.md.

The same text the docs show and the tests run (:mod:`alea.deploy`), for the ports
of one's own processes, so a deployment starts from the tested configuration
rather than from a copy of the docs.
"""

from __future__ import annotations

from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    """Add ``alea deploy`` (with its one sub-command, ``nginx``) to ``app``."""
    deploy = typer.Typer(help="Configuration for running several server processes.")
    app.add_typer(deploy, name="deploy")

    @deploy.command("nginx")
    def nginx(
        upstream: Annotated[
            list[str] | None,
            typer.Option(help="host:port of one `alea serve` process (repeat for each)."),
        ] = None,
        listen: Annotated[str, typer.Option(help="nginx's listen address.")] = "443 ssl",
        server_name: Annotated[str, typer.Option(help="The site's name.")] = "alea.example",
        worker_connections: Annotated[int, typer.Option(help="Per nginx worker.")] = 16384,
    ) -> None:
        """Print the top of nginx.conf and the site block for the given processes."""
        from alea.deploy import nginx_main, nginx_site

        upstreams = upstream or ["127.0.0.1:8001", "127.0.0.1:8002", "127.0.0.1:8003"]
        typer.echo("# at the top of nginx.conf")
        typer.echo(nginx_main(worker_connections=worker_connections), nl=False)
        typer.echo("\n# in the http block (e.g. /etc/nginx/sites-available/alea)")
        typer.echo(nginx_site(upstreams, listen=listen, server_name=server_name), nl=False)
