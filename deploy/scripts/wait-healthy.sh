#!/bin/sh
# Waits (60 s) until the service on 127.0.0.1:PORT answers 200 on /api/health: production.sh's
# check, and systemd's ExecStartPost, so a unit is "started" only once it serves.
#   deploy/scripts/wait-healthy.sh PORT
set -eu
port="${1:?usage: wait-healthy.sh PORT}"
for _ in $(seq 1 600); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/health")" = 200 ] && exit 0
  sleep 0.1
done
echo "nothing healthy on 127.0.0.1:$port/api/health after 60 s" >&2
exit 1
