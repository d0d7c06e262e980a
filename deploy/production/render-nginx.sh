#!/bin/sh
# Prints deploy/production/nginx.conf with its @NAME@ values filled in from the environment:
# RUN_DIR, LOG_DIR, LISTEN, HTTPS_PORT, HTTP_PORT, TLS_CERT, TLS_KEY, and COMMAND_SERVERS and
# QUERY_SERVERS (space-separated host:port). production.sh and the nginx image both use it, so
# the two shapes route alike. POSIX sh: it runs in the nginx image too.
set -eu
template="${NGINX_TEMPLATE:-$(dirname "$0")/nginx.conf}"
servers() {
  out=""
  for address in $1; do out="${out}    server ${address} max_fails=1 fail_timeout=5s;\\n"; done
  printf '%s' "${out%\\n}"
}
sed -e "s#@RUN_DIR@#${RUN_DIR}#g" -e "s#@LOG_DIR@#${LOG_DIR}#g" -e "s#@LISTEN@#${LISTEN}#g" \
  -e "s#@HTTPS_PORT@#${HTTPS_PORT}#g" -e "s#@HTTP_PORT@#${HTTP_PORT}#g" \
  -e "s#@TLS_CERT@#${TLS_CERT}#g" -e "s#@TLS_KEY@#${TLS_KEY}#g" \
  -e "s#@COMMAND_SERVERS@#$(servers "${COMMAND_SERVERS}")#" -e "s#@QUERY_SERVERS@#$(servers "${QUERY_SERVERS}")#" \
  "$template"
