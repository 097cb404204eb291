# redis-server for compose.yaml's redis service, from Debian's package on the same base image
# as the app (no image registry needed; deploy/base-image.sh). Runs as the redis user with
# its files in /data (the redis-data volume).
#   docker build -f deploy/redis.Dockerfile -t copa-redis deploy
ARG BASE_IMAGE=copa-base:bookworm
FROM ${BASE_IMAGE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data && chown redis:redis /data
USER redis
WORKDIR /data
VOLUME ["/data"]
EXPOSE 6379
HEALTHCHECK --interval=10s --timeout=3s --retries=5 CMD ["redis-cli", "ping"]
# without a configuration file Redis listens on every interface in protected mode (loopback
# only); the compose network is the only way in, so protected mode is off there
CMD ["redis-server", "--protected-mode", "no"]
