# copa-dash: gunicorn serving app:server, as a non-root user, with writable data and caches.
#   deploy/base-image.sh                                         (once: copa-base:bookworm from Debian packages)
#   docker build -t copa-dash .                                  (add --build-arg EXTRAS=redis for Redis/Celery)
#   docker run -p 8050:8050 -v copa-state:/var/lib/copa copa-dash
# Base: BASE_IMAGE, by default copa-base:bookworm, which deploy/base-image.sh builds from Debian
# packages (no image registry needed; the site's CA certificates and pip index go into it);
# where a registry is reachable, --build-arg BASE_IMAGE=python:3.11-slim works as well.
# pip: the base image's /etc/pip.conf, or --build-arg PIP_INDEX_URL=... (and PIP_TRUSTED_HOST).
# Port: COPA_PORT, else PORT (set by container platforms), else 8050 (gunicorn.conf.py).
# Settings are environment variables (see copa_dash/config.py), e.g. -e COPA_WORKERS=4,
# -e COPA_AUTH_USER=... -e COPA_AUTH_PASSWORD=..., -e COPA_REDIS_URL=redis://redis:6379/0.
# For a team: compose.yaml builds this image with EXTRAS=redis and runs it as 2 app replicas
# (this CMD) and a Celery worker (celery -A app:celery_app worker) beside Redis.
ARG BASE_IMAGE=copa-base:bookworm

########## builder: resolve and install the package and its dependencies into a venv
FROM ${BASE_IMAGE} AS builder
ARG EXTRAS=""
# no defaults: unset unless given, so pip keeps the base image's configuration
ARG PIP_INDEX_URL
ARG PIP_TRUSTED_HOST
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /app
COPY pyproject.toml README.md constraints.txt ./
COPY copa_dash ./copa_dash
# Editable install: the venv points at /app/copa_dash, which the runtime stage copies to the
# same path, so the code exists once and the app finds /app/assets and /app/datasets
# beside it. The dependencies are regular installs from wheels (no compiler needed), at the
# versions of the lock (constraints.txt, `make lock`).
RUN python -m pip install --upgrade pip \
 && python -m pip install -c constraints.txt -e ".${EXTRAS:+[$EXTRAS]}"

########## runtime
FROM ${BASE_IMAGE} AS runtime
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    COPA_HOST=0.0.0.0 \
    COPA_DATA_DIR=/var/lib/copa/data \
    COPA_CACHE_DIR=/var/lib/copa/cache \
    NUMBA_CACHE_DIR=/opt/numba-cache \
    COPA_DATASETS_DIR=/app/datasets \
    HOME=/home/copa
RUN groupadd --system --gid 10001 copa \
 && useradd --system --uid 10001 --gid copa --create-home --home-dir /home/copa copa \
 && mkdir -p /var/lib/copa/data /var/lib/copa/cache /opt/numba-cache \
 && chown -R copa:copa /var/lib/copa /opt/numba-cache
COPY --from=builder /opt/venv /opt/venv
WORKDIR /app
COPY --from=builder /app /app
COPY app.py gunicorn.conf.py ./
COPY assets ./assets
COPY datasets ./datasets
# the pages the app serves at /docs/<page> (the Help page links them), in mkdocs.yml's order
COPY docs ./docs
COPY mkdocs.yml ./
USER copa
# Compile every numba kernel into the image's cache, so no worker (and no request) pays the
# JIT compile at start-up; the cache sits outside the state volume so a mount cannot hide it.
RUN copa-dash compile
VOLUME ["/var/lib/copa"]
EXPOSE 8050
HEALTHCHECK --interval=30s --timeout=5s --start-period=90s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; port = os.environ.get('COPA_PORT') or os.environ.get('PORT') or '8050'; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % port, timeout=4).read()"]
CMD ["gunicorn", "app:server"]
