# liverec's container image: Node 20 slim with the release package (npm pack) installed from its tarball.
#   npm ci && npm pack                      # in a checkout: builds dist/, adds the demo clips, writes liverec-<version>.tgz
#   docker build --build-arg VERSION=0.1.0 -t liverec .
# The install step below is exactly the command test/build/release-package.test.ts runs and checks (global, from
# the tarball, offline: every production dependency travels inside it; nothing is built). Keep the two the same.
FROM node:20-slim
ARG VERSION=0.1.0
# As brec's image: recordings in /rec, the API on 2356, China's time zone for file names and logs, and
# PUID/PGID/UMASK for the owner and mode of what is written (0 = root, as when unset).
ENV TZ=Asia/Shanghai PUID=0 PGID=0 UMASK=022 NODE_ENV=production
COPY liverec-${VERSION}.tgz /tmp/liverec.tgz
RUN npm install -g --prefix /usr/local --offline --no-audit --no-fund /tmp/liverec.tgz \
 && rm /tmp/liverec.tgz && npm cache clean --force
COPY docker/entrypoint.sh /usr/local/bin/liverec-entrypoint
COPY docker/healthcheck.cjs /usr/local/lib/liverec-healthcheck.cjs
RUN chmod 0755 /usr/local/bin/liverec-entrypoint && mkdir -p /rec
VOLUME /rec
EXPOSE 2356
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 CMD ["node", "/usr/local/lib/liverec-healthcheck.cjs"]
ENTRYPOINT ["liverec-entrypoint"]
# brec's image runs `run --bind http://*:2356 /rec`; JSON log lines (no terminal) for `docker logs` and collectors.
CMD ["run", "--bind", "http://*:2356", "/rec"]
