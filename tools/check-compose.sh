#!/usr/bin/env bash
# Validates the compose files (docker-compose.yml, and the scale-out profile
# deploy/compose.cluster.yaml) with `docker compose config` (no engine needed), installing the
# compose plugin first if this machine lacks it. Runs from any cwd.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
compose_files=("$root/docker-compose.yml" "$root/deploy/compose.cluster.yaml")

if ! bash "$root/tools/install-compose.sh"; then
  echo "check-compose: FAILED: could not install the docker compose plugin (see messages above)" >&2
  exit 1
fi

# Without a docker client the plugin binary is still usable on its own.
if command -v docker >/dev/null 2>&1 && docker compose version >/dev/null 2>&1; then
  compose=(docker compose)
else
  compose=("${DOCKER_CONFIG:-$HOME/.docker}/cli-plugins/docker-compose")
fi

for compose_file in "${compose_files[@]}"; do
  if ! "${compose[@]}" -f "$compose_file" config -q; then
    echo "check-compose: FAILED: '${compose[*]} -f ${compose_file#"$root/"} config' rejected $compose_file" >&2
    exit 1
  fi
  echo "check-compose: OK: $compose_file is valid ($("${compose[@]}" version --short 2>/dev/null || true))"
done
