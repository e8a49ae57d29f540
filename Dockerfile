# syntax=docker/dockerfile:1
# Cartograph: multi-stage image. Build:  docker build -t cartograph .
# Run:    docker run -p 127.0.0.1:3000:3000 -v cartograph-data:/var/lib/cartograph -e JWT_SECRET=... cartograph
# See docs/operations.md (compose.yaml runs PostgreSQL and two instances behind nginx).
# test/e2e/deployment-image.e2e-spec.ts replays this file without Docker: its build stage's COPY
# set and RUN lines (apt lines aside) in an empty folder, then the runtime stage's COPY set and CMD.
#
# Base image: an exact Node.js release, the same in both stages (docs/decisions.md, issue 26:
# why a version tag and not a digest). Pin the digest for reproducible builds:
#   docker buildx imagetools inspect node:24.21.0-bookworm-slim   ->  FROM node:24.21.0-bookworm-slim@sha256:...

# ── 1. build: native modules (better-sqlite3, argon2) and the TypeScript build need the toolchain
FROM node:24.21.0-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# Dependencies first: this layer is reused while only the sources change. npm ci's `prepare`
# step would build, and the sources are not here yet: it only checks the Node.js version.
COPY package.json package-lock.json .npmrc ./
COPY scripts ./scripts
RUN CARTOGRAPH_SKIP_PREPARE_BUILD=1 npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY migrations ./migrations
COPY web ./web
# The server (dist/src) and the dashboard (dist/web), then the dev dependencies go.
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

# ── 2. runtime: production dependencies and the compiled server only, as an unprivileged user
FROM node:24.21.0-bookworm-slim AS runtime
ARG VERSION=0.1.0
ARG REVISION=unknown
LABEL org.opencontainers.image.title="Cartograph" \
      org.opencontainers.image.description="Self-hostable server for indoor positioning and cartography data" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="LicenseRef-Proprietary" \
      org.opencontainers.image.base.name="docker.io/library/node:24.21.0-bookworm-slim"
# GLIBC_TUNABLES: see docs/operations.md (memory).
ENV NODE_ENV=production \
    GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072 \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/var/lib/cartograph
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json ./package.json
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
# The code stays owned by root and read-only to the server; only DATA_DIR is writable.
RUN mkdir -p /var/lib/cartograph && chown node:node /var/lib/cartograph
USER node
VOLUME ["/var/lib/cartograph"]
EXPOSE 3000
# The image has no curl: Node's fetch asks the public liveness probe.
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node directly (not npm): SIGTERM reaches the server, which drains and exits 0. Its first
# require (dist/scripts/check-node.cjs) refuses another Node.js with exit 69.
CMD ["node", "--max-old-space-size=512", "--max-semi-space-size=16", "dist/src/main.js"]
