# nginx for compose.yaml's proxy service, from Debian's package on the same base image as the
# app (no image registry needed; deploy/base-image.sh). compose.yaml mounts deploy/nginx.conf
# over the copy made here, so an edit there needs no rebuild.
#   docker build -f deploy/nginx.Dockerfile -t copa-nginx deploy
ARG BASE_IMAGE=copa-base:bookworm
FROM ${BASE_IMAGE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nginx-light \
 && rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled/*
COPY nginx.conf /etc/nginx/nginx.conf
# the master starts as root and its workers run as nobody (the configuration names no user)
EXPOSE 8080
STOPSIGNAL SIGQUIT
HEALTHCHECK --interval=30s --timeout=5s --retries=3 CMD ["nginx", "-t", "-q"]
CMD ["nginx", "-g", "daemon off;"]
