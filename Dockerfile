# syntax=docker/dockerfile:1
# Cartograph: multi-stage image. Build:  docker build -t cartograph .
# Run:    docker run -p 3000:3000 -v cartograph-data:/var/lib/cartograph cartograph
# See docs/operations.md (compose.yaml runs PostgreSQL and two instances behind nginx).

# ── 1. build: native modules (better-sqlite3, argon2) and the TypeScript build need the toolchain
FROM node:24-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY migrations ./migrations
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

# ── 2. runtime: production dependencies and the compiled server only, as an unprivileged user
FROM node:24-bookworm-slim AS runtime
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
# node directly (not npm): SIGTERM reaches the server, which drains and exits 0.
CMD ["node", "--max-old-space-size=512", "--max-semi-space-size=16", "dist/src/main.js"]
