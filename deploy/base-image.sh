#!/usr/bin/env bash
# Build the base image of copa-dash's images from Debian packages, without an image registry:
#
#   sudo deploy/base-image.sh                 # -> copa-base:bookworm
#   sudo deploy/base-image.sh my-base:tag     # another name
#
# mmdebstrap writes a minimal Debian bookworm (python3, python3-venv, ca-certificates, passwd)
# as a tarball that `docker import` turns into an image. The Dockerfile (BASE_IMAGE) builds
# the app on it, and deploy/nginx.Dockerfile and deploy/redis.Dockerfile add nginx and
# redis-server with apt. Where a registry is reachable, python:3.11-slim works as BASE_IMAGE
# instead and this script is not needed.
#
# The site's settings go into the image, never into the repository:
# - the Debian mirror: COPA_DEBIAN_MIRROR, else the first URI of this machine's apt sources,
#   else http://deb.debian.org/debian (apt in the derived images uses the same one);
# - extra certificate authorities (a TLS-inspecting egress proxy): COPA_BASE_CA_CERTS, a
#   space-separated list of PEM files, else this machine's /usr/local/share/ca-certificates/*.crt;
#   they join the image's system store;
# - pip: the image's /etc/pip.conf verifies TLS against that system store and uses
#   PIP_INDEX_URL (else `pip config get global.index-url`) when it is an http(s) URL, else
#   pip's default index. Nothing else of the machine is copied.
# Needs root, mmdebstrap and a running Docker engine (`apt-get install mmdebstrap docker.io`).
# Takes about a minute on a fast mirror (docs/hosting.md has the measured time).
set -euo pipefail

TAG="${1:-copa-base:bookworm}"
SUITE="${COPA_DEBIAN_SUITE:-bookworm}"
PACKAGES="python3,python3-venv,python-is-python3,ca-certificates,passwd"

mirror="${COPA_DEBIAN_MIRROR:-}"
if [ -z "$mirror" ]; then
    for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list; do
        [ -f "$f" ] || continue
        mirror="$(sed -n -e 's/^URIs:[[:space:]]*\([^[:space:]]*\).*/\1/p' \
                         -e 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\(http[^[:space:]]*\).*/\2/p' "$f" \
                  | grep -v -e security -e '^$' | head -n 1 || true)"
        [ -n "$mirror" ] && break
    done
fi
mirror="${mirror:-http://deb.debian.org/debian}"
# security updates from the mirror's debian-security beside it (COPA_DEBIAN_SECURITY_MIRROR)
security="${COPA_DEBIAN_SECURITY_MIRROR:-${mirror%/debian}/debian-security}"

if [ -z "${COPA_BASE_CA_CERTS+set}" ]; then
    COPA_BASE_CA_CERTS="$(ls /usr/local/share/ca-certificates/*.crt 2>/dev/null | tr '\n' ' ' || true)"
fi

index_url="${PIP_INDEX_URL:-}"
if [ -z "$index_url" ] && command -v pip >/dev/null 2>&1; then
    index_url="$(pip config get global.index-url 2>/dev/null || true)"
fi
case "$index_url" in http://*|https://*) ;; *) index_url="" ;; esac

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
{
    echo "[global]"
    echo "cert = /etc/ssl/certs/ca-certificates.crt"
    [ -n "$index_url" ] && echo "index-url = $index_url"
} > "$work/pip.conf"

hooks=(--customize-hook="copy-in $work/pip.conf /etc")
for cert in $COPA_BASE_CA_CERTS; do
    hooks+=(--customize-hook="copy-in $cert /usr/local/share/ca-certificates")
done
hooks+=(--customize-hook='chroot "$1" update-ca-certificates >/dev/null')
# no apt lists, caches or docs in the image; apt-get update fetches the lists again
hooks+=(--customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin "$1"/usr/share/doc/* "$1"/usr/share/man/*')

echo "base image $TAG: Debian $SUITE from $mirror and $security, extra CAs: ${COPA_BASE_CA_CERTS:-none}," \
     "pip index: ${index_url:-the default}" >&2
mmdebstrap --variant=minbase --include="$PACKAGES" "${hooks[@]}" \
    "$SUITE" - "deb $mirror $SUITE main" "deb $mirror $SUITE-updates main" \
    "deb $security $SUITE-security main" \
  | docker import \
      --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
      --change 'ENV LANG=C.UTF-8' \
      --change 'CMD ["bash"]' \
      - "$TAG"
docker image inspect --format '{{.Id}} {{.Size}}' "$TAG"
