# syntax=docker/dockerfile:1
# Harbormaster's image: build with dev dependencies, run with production ones.
# Node 24 is the line the project pins (docs/node-versions.md); a maintained LTS.
ARG NODE_IMAGE=node:24-bookworm-slim

# Build stage: the bundler (esbuild) is a dev dependency.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts/build.mjs scripts/build-plugins.mjs ./scripts/
COPY scripts/parts ./scripts/parts
COPY src ./src
# One esbuild bundle (scripts/build.mjs): a replica starts in about a bare Bolt app's time.
RUN npm run build

# Runtime stage: production dependencies and dist/ only. `npm ci --omit=dev`
# leaves out the `node` dev dependency, so the image's own Node runs the bot.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# Node's compile cache, filled by the build (src/main.ts turns it on): Node uses it only from a
# folder it may write, so this one folder belongs to the bot's user; the code beside it does not.
COPY --from=build --chown=1000:1000 /app/dist/.compile-cache ./dist/.compile-cache
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
