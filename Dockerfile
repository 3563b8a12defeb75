# One image for all three services; docker-compose.yml picks the service with `command`
# (node ingestion-service/src/main.ts | lineage-service/src/main.ts | gateway/src/main.ts).
# No build step: Node 24 strips TypeScript types at load time.

FROM node:24-bookworm-slim AS deps
WORKDIR /app
# Manifests first so the dependency layer is reused until a package.json or the lockfile changes.
COPY package.json package-lock.json ./
COPY catalog/package.json catalog/
COPY ingestion-service/package.json ingestion-service/
COPY lineage-service/package.json lineage-service/
COPY gateway/package.json gateway/
# --ignore-scripts: the root dependency on the npm package `node` would otherwise download a second
# Node 24 binary (~120 MB) in its preinstall; the base image already is Node 24, and without the
# script no node_modules/.bin/node exists to shadow it. The only other production install scripts
# (protobufjs, @apollo/protobufjs postinstall) just print version advice.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
# Whole /app from deps, not just node_modules: npm may nest conflicting versions under a workspace's
# own node_modules, and workspace links (node_modules/@lineage/*) point at ../../<workspace>.
COPY --from=deps /app /app
COPY catalog/ catalog/
COPY cypher/ cypher/
COPY ingestion-service/ ingestion-service/
COPY lineage-service/ lineage-service/
COPY gateway/ gateway/
COPY tools/ tools/
# Files stay root-owned: the services only read their code, so the runtime user cannot alter it.
USER node
EXPOSE 8080 8081 9002
CMD ["node", "ingestion-service/src/main.ts"]
