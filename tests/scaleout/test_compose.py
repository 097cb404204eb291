"""compose.yaml, the Dockerfile and the test cluster describe one deployment.

The default suite checks the compose file by reading it, and the processes the other tests
in this folder start are built from its commands (cluster.compose_command); the worker's
container healthcheck is run for real. The stack itself runs in the opt-in tests/docker
(``make docker-test``), where a Docker engine is available.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from .cluster import ROOT, compose_command, compose_environment, compose_services


def dockerfile() -> str:
    return (ROOT / "Dockerfile").read_text(encoding="utf-8")


def test_compose_runs_redis_two_app_replicas_and_a_worker_from_one_image():
    services = compose_services()
    assert set(services) == {"proxy", "redis", "app", "worker"}
    app, worker = services["app"], services["worker"]
    assert app["deploy"]["replicas"] == 2
    assert app["image"] == worker["image"] and app["build"] == worker["build"]
    assert app["build"]["args"]["EXTRAS"] == "redis"          # celery + redis-py inside
    assert re.search(r'ARG EXTRAS=""', dockerfile())
    for service in (app, worker):
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"
        assert service["environment"]["COPA_REDIS_URL"] == "redis://redis:6379/0"


def test_the_app_command_and_healthcheck_are_the_images():
    app = compose_services()["app"]
    cmd = re.search(r'^CMD (\[.*\])$', dockerfile(), re.MULTILINE).group(1)
    assert compose_services()["app"]["command"] == json.loads(cmd)
    assert compose_command("app")[1:] == ["app:server"]      # what the cluster fixture runs
    assert "/healthz" in " ".join(app["healthcheck"]["test"])
    assert app["expose"] == ["8050"] and "/healthz" in dockerfile()
    assert "ports" not in app  # reachable only through the proxy


def test_the_proxy_buffers_bodies_and_bounds_sizes_and_waits():
    proxy = compose_services()["proxy"]
    assert proxy["ports"] == ["${COPA_PUBLIC_ADDRESS:-0.0.0.0}:${COPA_PUBLIC_PORT:-8050}:8080"]
    mount = "./deploy/nginx.conf:/etc/nginx/nginx.conf:ro"
    assert proxy["volumes"] == [mount]
    conf = " ".join((ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8").split())
    for directive in ("client_max_body_size 72m;", "client_body_timeout 20s;",
                      "client_header_timeout 10s;", "proxy_request_buffering on;",
                      "listen 8080;", "server app:8050", 'proxy_set_header X-Forwarded-User "";'):
        assert directive in conf
    # in step with the app's own bound on a callback body (app_factory.create_app)
    from copa_dash.config import Settings
    assert 72 * 2**20 >= Settings().max_upload_bytes * 4 // 3 + 4 * 2**20


def test_the_store_is_one_volume_mounted_where_every_process_reads_it():
    services = compose_services()
    data_dir = compose_environment("app")["COPA_DATA_DIR"]
    assert compose_environment("worker")["COPA_DATA_DIR"] == data_dir
    for name in ("app", "worker"):
        assert f"copa-data:{data_dir}" in services[name]["volumes"]
    assert "redis-data:/data" in services["redis"]["volumes"]
    assert "ENV" in dockerfile() and "COPA_DATA_DIR=/var/lib/copa/data" in dockerfile()


def test_the_worker_is_celery_on_the_apps_celery_app():
    command = compose_services()["worker"]["command"]
    assert command[:4] == ["celery", "-A", "app:celery_app", "worker"]
    assert compose_command("worker")[1:] == command[1:]
    hostname = next(a.split("=", 1)[1] for a in command if a.startswith("--hostname="))
    check = " ".join(compose_services()["worker"]["healthcheck"]["test"])
    assert hostname.replace("%h", "$$HOSTNAME") in check


@pytest.mark.scaleout
def test_the_worker_healthcheck_passes_on_a_live_worker_and_fails_on_a_dead_name(cluster):
    cluster.worker.ensure_running()
    env = {**os.environ, "COPA_REDIS_URL": cluster.redis.url}
    command = [sys.executable, "-m", "copa_dash.services.job_health"]
    ok = subprocess.run([*command, cluster.worker.name], env=env, capture_output=True,
                        text=True, timeout=60, check=False)
    assert ok.returncode == 0, ok.stderr
    dead = subprocess.run([*command, "worker@nowhere"], env=env, capture_output=True,
                          text=True, timeout=60, check=False)
    assert dead.returncode == 1 and "no recent heartbeat from worker@nowhere" in dead.stderr


@pytest.mark.skipif(not shutil.which("nginx"), reason="nginx is not installed")
def test_nginx_accepts_the_proxy_configuration(tmp_path):
    """``nginx -t`` on deploy/nginx.conf, the replicas' name pointed at loopback."""
    conf = (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")
    conf = conf.replace("server app:8050", "server 127.0.0.1:8050")
    conf = conf.replace("pid /tmp/nginx.pid;", f"pid {tmp_path}/nginx.pid;")
    (tmp_path / "nginx.conf").write_text(conf, encoding="utf-8")
    result = subprocess.run(["nginx", "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"),
                             "-e", str(tmp_path / "error.log")],
                            check=False, capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr


def test_the_proxy_passes_the_host_with_its_port_so_callbacks_are_same_origin(tmp_path):
    """compose publishes nginx on COPA_PUBLIC_PORT (8050): the page's callbacks carry
    ``Origin: http://localhost:8050``, and the app compares it with the Host it is given.
    nginx's ``$host`` drops the port, and every callback was refused as cross-site (403);
    ``$http_host`` keeps it (found by running the stack, tests/docker)."""
    from copa_dash.app_factory import create_app
    from copa_dash.config import Settings

    conf = " ".join((ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8").split())
    assert "proxy_set_header Host $http_host;" in conf
    assert "proxy_set_header X-Forwarded-Host $http_host;" in conf
    client = create_app(Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache",
                                 allowed_hosts=("localhost",))).server.test_client()

    def status(host: str) -> int:
        return client.post("/_dash-update-component", json={},
                           headers={"Host": host, "X-Forwarded-Host": host,
                                    "Origin": "http://localhost:8050"}).status_code

    assert status("localhost") == 403            # what $host sent
    assert status("localhost:8050") == 400       # $http_host: past the origin check (empty body)
