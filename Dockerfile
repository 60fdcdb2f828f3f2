# One file, one build stage, one target per service:
#   docker build --target gateway .   (renderer, image, icons likewise)
# Each target copies only what its service runs: dist/standalone/<service>/, the files its entries
# reach (traced with @vercel/nft by `npm run build:standalone`: its own package's dist/, the
# workspace packages it imports through their node_modules/@tern/* links, their production
# dependencies) and the build output it reads. No target carries a shared node_modules.
# (npm ci --omit=dev --workspace=… installs every workspace's production dependencies when one of
# them is a workspace: the cookbook app's shiki and the image service's sharp would ride along.)
ARG NODE_IMAGE=node:24-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# The workspace's manifests first (npm ci links every workspace package), so the install is cached
# while only sources change.
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY packages/runtime/package.json packages/runtime/
COPY packages/ui/package.json packages/ui/
COPY packages/site/package.json packages/site/
COPY packages/vite-plugin/package.json packages/vite-plugin/
COPY packages/cli/package.json packages/cli/
COPY services/gateway/package.json services/gateway/
COPY services/renderer/package.json services/renderer/
COPY services/image/package.json services/image/
COPY services/icons/package.json services/icons/
COPY apps/cookbook/package.json apps/cookbook/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY packages ./packages
COPY services ./services
COPY apps ./apps
# The origin prerendered pages name in their canonical links: docker build --build-arg PUBLIC_ORIGIN=https://…
ARG PUBLIC_ORIGIN
RUN npm run build
# The icon sets the icons image carries: every set of @iconify/json, or a list (lucide,logos).
ARG ICONS_SETS=all
RUN npm run build:standalone

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 LOG_FORMAT=json
WORKDIR /app
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "packages/shared/dist/http/healthcheck.js"]
USER node

FROM runtime AS gateway
ENV PORT=3000
# Pages rendered at build time (prerender route rules), served without the renderer: in the folder.
COPY --from=build /app/dist/standalone/gateway ./
EXPOSE 3000
CMD ["node", "services/gateway/dist/main.js"]

FROM runtime AS renderer
ENV PORT=3001
# With the client files, SSR bundle, content and build meta, and the users CLI.
COPY --from=build /app/dist/standalone/renderer ./
EXPOSE 3001
CMD ["node", "services/renderer/dist/main.js"]

FROM runtime AS image
ENV PORT=3002 IMAGE_CACHE_DIR=/app/cache
USER root
# jemalloc hands libvips' freed buffers back to the kernel after a burst, where glibc kept them
# (bench/image-memory.ts); `-e LD_PRELOAD=` turns it off. Linked under one name for every arch.
RUN apt-get update && apt-get install -y --no-install-recommends libjemalloc2 && rm -rf /var/lib/apt/lists/* \
  && ln -s "/usr/lib/$(uname -m)-linux-gnu/libjemalloc.so.2" /usr/local/lib/libjemalloc.so.2 \
  && mkdir -p /app/cache && chown node:node /app/cache
ENV LD_PRELOAD=/usr/local/lib/libjemalloc.so.2 MALLOC_CONF=background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0
USER node
# With sharp's platform packages (libvips) and the site's public images.
COPY --from=build /app/dist/standalone/image ./
VOLUME ["/app/cache"]
EXPOSE 3002
CMD ["node", "services/image/dist/main.js"]

FROM runtime AS icons
ENV PORT=3003
# With the ICONS_SETS files of @iconify/json and their per-set indexes (npm run build:icons).
COPY --from=build /app/dist/standalone/icons ./
EXPOSE 3003
CMD ["node", "services/icons/dist/main.js"]
