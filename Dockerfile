# syntax=docker/dockerfile:1
# Harbormaster's image: build with dev dependencies, run with production ones.
# Node 24 is the line the project pins (docs/node-versions.md); a maintained LTS.
ARG NODE_IMAGE=node:24-bookworm-slim

# Build stage: TypeScript and the local workspace page need the dev dependencies.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# Runtime stage: production dependencies and dist/ only. `npm ci --omit=dev`
# leaves out the `node` dev dependency, so the image's own Node runs the bot.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# Local mode (`--local`) reads the manifest and the example policy; the rest of the repository stays out.
COPY manifest.yml ./
COPY examples ./examples
# The commit this image was built from, shown in harbor_build_info{commit}.
ARG COMMIT=unknown
ENV HARBOR_BUILD_COMMIT=${COMMIT}
# The SQLite store's directory (the base manifests mount a PersistentVolumeClaim here).
ENV HARBOR_DATA_DIR=/data
RUN mkdir -p /data && chown 1000:1000 /data
# The image's `node` user, by number so Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 3000 9090
# Node as PID 1 gets SIGTERM itself (npm would not pass it on); nothing is rebuilt at start.
# --max-semi-space-size=8 as in `npm start`: without it V8 grows the young generation to 64-128 MB
# at start-up and under load and keeps it committed (docs/memory.md).
CMD ["node", "--max-semi-space-size=8", "dist/main.js"]
