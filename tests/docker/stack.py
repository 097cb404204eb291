"""compose.yaml run for real: the images built here, the stack started on loopback ports.

``Engine.find()`` says why Docker cannot be used (no client, no engine, no compose), so
the test skips with that reason. ``Stack`` is one compose project with its own name and
volumes; ``down()`` removes its containers, network and volumes and keeps the images, so a
second run reuses every layer (vfs builds are slow: build once).

The images: the base ``COPA_BASE_IMAGE`` (default ``copa-base:bookworm``; made by
deploy/base-image.sh when missing, which needs root and mmdebstrap), then ``copa-redis``,
``copa-nginx`` and ``copa-dash`` from deploy/*.Dockerfile and the Dockerfile, with BuildKit
(only changed layers are rebuilt; the legacy builder copies the whole tree per step on vfs).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]
OVERRIDE = Path(__file__).with_name("compose.replica-ports.yaml")
BASE_IMAGE = os.environ.get("COPA_BASE_IMAGE") or "copa-base:bookworm"
# image name -> (Dockerfile, context, build args), as compose.yaml builds them
IMAGES = {
    "copa-redis:latest": ("deploy/redis.Dockerfile", "deploy", {}),
    "copa-nginx:latest": ("deploy/nginx.Dockerfile", "deploy", {}),
    "copa-dash:latest": ("Dockerfile", ".", {"EXTRAS": "redis"}),
}


def run(command: list[str], *, timeout: float, env: dict | None = None,
        check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=timeout, check=False)
    if check and result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({result.returncode}):\n"
                           f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return result


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _docker_clients() -> list[str]:
    """Every distinct ``docker`` executable on PATH, in PATH order."""
    seen, found = set(), []
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        path = Path(directory) / "docker"
        if path.is_file() and os.access(path, os.X_OK) and path.resolve() not in seen:
            seen.add(path.resolve())
            found.append(str(path))
    return found


@dataclass
class Engine:
    """A Docker client that reaches an engine, how it builds, and a compose command."""

    docker: str
    build: list[str]             # the build command up to its arguments
    build_env: dict
    compose: list[str]

    @classmethod
    def find(cls) -> Engine | str:
        """The engine, or the reason there is none (a skip message)."""
        clients = _docker_clients()
        if not clients:
            return "no docker client on PATH (apt-get install docker.io)"
        docker = clients[0]
        if run([docker, "info"], timeout=60, check=False).returncode != 0:
            return ("no Docker engine answers (start one: dockerd --storage-driver vfs, as "
                    "root; docs/hosting.md)")
        build, env = cls._builder(clients)
        if run([docker, "compose", "version"], timeout=60, check=False).returncode == 0:
            compose = [docker, "compose"]
        elif shutil.which("docker-compose"):
            compose = [shutil.which("docker-compose")]
        else:
            return "no docker compose (apt-get install docker-compose)"
        return cls(docker, build, env, compose)

    @staticmethod
    def _builder(clients: list[str]) -> tuple[list[str], dict]:
        """BuildKit through buildx, else a client with BuildKit built in (before 23), else
        the legacy builder."""
        for client in clients:
            if run([client, "buildx", "version"], timeout=60, check=False).returncode == 0:
                return [client, "buildx", "build", "--load"], {}
        for client in clients:
            version = run([client, "version", "--format", "{{.Client.Version}}"],
                          timeout=60, check=False).stdout.strip()
            if version and version.split(".")[0].isdigit() and int(version.split(".")[0]) < 23:
                return [client, "build"], {"DOCKER_BUILDKIT": "1"}
        return [clients[0], "build"], {"DOCKER_BUILDKIT": "0"}

    def has_image(self, name: str) -> bool:
        return run([self.docker, "image", "inspect", name], timeout=60,
                   check=False).returncode == 0

    def build_images(self, timeout: float = 1800) -> dict[str, float]:
        """Build the base (if missing) and the stack's three images; seconds each."""
        seconds = {}
        if not self.has_image(BASE_IMAGE):
            start = time.monotonic()
            run(["bash", str(ROOT / "deploy" / "base-image.sh"), BASE_IMAGE], timeout=timeout)
            seconds[BASE_IMAGE] = time.monotonic() - start
        env = {**os.environ, **self.build_env}
        for name, (dockerfile, context, args) in IMAGES.items():
            start = time.monotonic()
            build_args = [f"--build-arg={k}={v}" for k, v in
                          {**args, "BASE_IMAGE": BASE_IMAGE}.items()]
            run([*self.build, "-q", "-f", str(ROOT / dockerfile), "-t", name, *build_args,
                 str(ROOT / context)], timeout=timeout, env=env)
            seconds[name] = time.monotonic() - start
        return seconds


@dataclass
class Stack:
    """One compose project: proxy, two app replicas, a worker, Redis; loopback ports."""

    engine: Engine
    project: str
    public_port: int = field(default_factory=free_port)

    @property
    def env(self) -> dict:
        return {**os.environ, "COPA_PUBLIC_ADDRESS": "127.0.0.1",
                "COPA_PUBLIC_PORT": str(self.public_port), "COPA_BASE_IMAGE": BASE_IMAGE,
                "COPA_SECRET_KEY": f"{self.project}-secret",
                # creating a container copies its whole image on vfs: minutes under load
                "COMPOSE_HTTP_TIMEOUT": "600", "DOCKER_CLIENT_TIMEOUT": "600"}

    def compose(self, *args: str, timeout: float = 300, check: bool = True):
        command = [*self.engine.compose, "-p", self.project, "-f", str(ROOT / "compose.yaml"),
                   "-f", str(OVERRIDE), *args]
        return run(command, timeout=timeout, env=self.env, check=check)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.public_port}"

    def up(self) -> None:
        self.compose("up", "-d", "--no-build", "--scale", "app=2", timeout=1200)

    def down(self) -> None:
        self.compose("down", "-v", "--remove-orphans", "-t", "5", timeout=600, check=False)
        # a container whose creation outlived a failed `up` is not known to compose yet
        label = f"label=com.docker.compose.project={self.project}"
        docker = self.engine.docker
        for kind, listing in (("container", ["ps", "-aq"]), ("volume", ["volume", "ls", "-q"]),
                              ("network", ["network", "ls", "-q"])):
            leftover = run([docker, *listing, "--filter", label], timeout=120,
                           check=False).stdout.split()
            if leftover:
                remove = ["rm", "-f"] if kind == "container" else [kind, "rm"]
                run([docker, *remove, *leftover], timeout=300, check=False)

    def containers(self, service: str) -> list[str]:
        out = run([self.engine.docker, "ps", "-q", "--filter",
                   f"label=com.docker.compose.project={self.project}", "--filter",
                   f"label=com.docker.compose.service={service}"], timeout=60).stdout
        return sorted(out.split())

    def replica_urls(self) -> dict[str, str]:
        """Each app container's own loopback URL (compose.replica-ports.yaml publishes it)."""
        urls = {}
        for container in self.containers("app"):
            ports = json.loads(run([self.engine.docker, "inspect", "--format",
                                    "{{json .NetworkSettings.Ports}}", container],
                                   timeout=60).stdout)
            port = ports["8050/tcp"][0]["HostPort"]
            urls[container] = f"http://127.0.0.1:{port}"
        return urls

    def wait_healthy(self, urls: list[str], timeout: float = 600) -> None:
        deadline = time.monotonic() + timeout
        pending = list(urls)
        while pending:
            url = pending[0]
            try:
                if requests.get(url + "/healthz", timeout=5).status_code == 200:
                    pending.pop(0)
                    continue
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url}/healthz did not answer 200 in {timeout:.0f} s:\n"
                                   + self.logs())
            time.sleep(1)

    def kill(self, container: str) -> None:
        run([self.engine.docker, "kill", container], timeout=60)

    def logs(self, service: str | None = None, tail: str = "200") -> str:
        out = self.compose("logs", "--no-color", "--tail", tail,
                           *([service] if service else []), timeout=120, check=False)
        return out.stdout + out.stderr
