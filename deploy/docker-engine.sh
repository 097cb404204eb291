#!/usr/bin/env bash
# Run a command with a Docker engine: start one (vfs storage, state in a temporary folder) when
# none answers, run the command, stop the engine it started. Used by `make docker-ci` (the CI
# step after the test suite: tests/docker builds and runs the compose stack for real).
#
#   sudo deploy/docker-engine.sh make docker-test
#
# Installs docker.io, docker-compose and mmdebstrap from Debian when missing (root). The engine
# is started only after the test suite, never beside it: Docker's bridge network set-up makes a
# running Chromium drop its page loads (net::ERR_NETWORK_CHANGED).
set -euo pipefail

if ! command -v dockerd >/dev/null || ! command -v mmdebstrap >/dev/null \
        || ! { command -v docker-compose >/dev/null || docker compose version >/dev/null 2>&1; }; then
    apt-get -o DPkg::Lock::Timeout=600 update -qq
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
        docker.io docker-compose mmdebstrap >/dev/null
fi

started=""
state=""
stop_engine() {
    if [ -n "$started" ]; then
        kill "$started" 2>/dev/null || true
        for _ in $(seq 1 30); do kill -0 "$started" 2>/dev/null || break; sleep 1; done
        kill -9 "$started" 2>/dev/null || true
    fi
    # the engine's vfs layers are copies of whole file systems: do not leave them behind
    [ -n "$state" ] && rm -rf "$state" 2>/dev/null || true
}
trap stop_engine EXIT

if ! docker info >/dev/null 2>&1; then
    state="$(mktemp -d /tmp/copa-docker-engine.XXXXXX)"
    dockerd --storage-driver vfs --data-root "$state/data" --exec-root "$state/exec" \
        --pidfile "$state/dockerd.pid" >"$state/dockerd.log" 2>&1 &
    started=$!
    for _ in $(seq 1 120); do
        docker info >/dev/null 2>&1 && break
        kill -0 "$started" 2>/dev/null || { tail -20 "$state/dockerd.log"; exit 1; }
        sleep 1
    done
    docker info >/dev/null 2>&1 || { echo "docker-engine: dockerd did not answer in 120 s"; \
                                    tail -20 "$state/dockerd.log"; exit 1; }
fi
"$@"
