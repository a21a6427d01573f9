"""The nginx configuration is written once (:mod:`alea.deploy`): docs/deploy.md shows
exactly what it renders, nginx accepts what the tests and benchmarks run, and
``alea deploy nginx`` prints it for one's own ports."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from alea.cli import app
from alea.deploy import nginx_conf, nginx_main, nginx_site

DOCS = Path(__file__).resolve().parents[1] / "docs" / "deploy.md"
DOCUMENTED = ["127.0.0.1:8001", "127.0.0.1:8002", "127.0.0.1:8003"]


def nginx_blocks() -> list[str]:
    return re.findall(r"```nginx\n(.*?)```", DOCS.read_text(), re.S)


def test_the_docs_show_what_the_renderer_renders() -> None:
    assert nginx_site(DOCUMENTED) in nginx_blocks()
    assert nginx_main() in nginx_blocks()


def test_the_site_names_every_upstream_and_the_burst_backlog() -> None:
    site = nginx_site(["10.0.0.7:9001", "http://10.0.0.8:9002"], listen="80", backlog=1234)
    assert "server 10.0.0.7:9001 max_fails=0;" in site
    assert "server 10.0.0.8:9002 max_fails=0;" in site
    assert "listen 80 backlog=1234;" in site
    assert "ssl_certificate" not in site  # no TLS comment without ssl


def test_the_test_configuration_is_the_documented_site_indented(tmp_path: Path) -> None:
    conf = nginx_conf(DOCUMENTED, port=9000, prefix=str(tmp_path), worker_connections=1024)
    assert "events { worker_connections 1024; }" in conf
    assert "listen 127.0.0.1:9000 backlog=4096;" in conf
    location = nginx_site(DOCUMENTED).split("    location / {")[1]
    indented = "".join(
        "    " + line if line.strip() else line for line in location.splitlines(True)
    )
    assert indented in conf  # the same proxying as the docs, one level deeper


def test_nginx_accepts_the_configuration(tmp_path: Path) -> None:
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(binary).exists():
        pytest.skip("needs nginx (apt-get install nginx)")
    import os

    conf = tmp_path / "nginx.conf"
    conf.write_text(
        nginx_conf(DOCUMENTED, port=9000, prefix=str(tmp_path), as_root=os.geteuid() == 0)
    )
    done = subprocess.run(
        [binary, "-t", "-p", str(tmp_path), "-c", str(conf), "-e", str(tmp_path / "e.log")],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr


def test_alea_deploy_nginx_prints_it_for_given_ports() -> None:
    result = CliRunner().invoke(app, ["deploy", "nginx", "--upstream", "10.1.2.3:8001"])
    assert result.exit_code == 0, result.output
    assert nginx_site(["10.1.2.3:8001"]) in result.output
    assert nginx_main() in result.output
