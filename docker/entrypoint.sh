#!/bin/sh
# The image's entrypoint: applies UMASK, then runs liverec as PUID:PGID (brec's image convention) or as root when PUID is 0.
set -e
umask "${UMASK:-022}"
if [ "$(id -u)" = "0" ] && [ "${PUID:-0}" != "0" ]; then
  # setpriv is part of util-linux, which every Debian image has. /rec must be writable by that user: liverec
  # refuses to start otherwise, naming the directory and the uid.
  exec setpriv --reuid="${PUID}" --regid="${PGID:-$PUID}" --clear-groups liverec "$@"
fi
exec liverec "$@"
