"""The browser client: one HTML page for every client route, and its static files."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

router = APIRouter(include_in_schema=False)


def web_root() -> Path:
    """The directory of the static browser client (``alea/web/static``)."""
    return Path(str(resources.files("alea.web") / "static"))


def static_files() -> StaticFiles:
    """The client's scripts, styles and images, to be mounted at ``/static``."""
    return StaticFiles(directory=web_root())


@router.get("/")
@router.get("/game/{game_id}")
@router.get("/replay/{game_id}")
@router.get("/games")
async def page() -> Response:
    """The one page of the client; its script reads the path and shows the right screen."""
    return FileResponse(web_root() / "index.html", headers={"Cache-Control": "no-cache"})
