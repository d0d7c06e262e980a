#!/usr/bin/env bash
# The production shape on one machine, with real programs and no Docker (README, "Running in
# production"):
#
#   nginx (TLS) -> GET/HEAD -> query-api x2 -> PostgreSQL streaming replica (REPLICA_PORT)
#               -> others   -> command-api x2 -> PostgreSQL primary (this machine's)
#   relay (log -> Kafka), projector x2 (Kafka consumer group -> read models on the primary)
#
#   deploy/scripts/production.sh up              start what is not running yet, wait until healthy
#   deploy/scripts/production.sh down            stop what `up` started, and only that
#   deploy/scripts/production.sh status          each part: running or not, and its health
#   deploy/scripts/production.sh start NAME      start one part again (after a crash, say)
#   deploy/scripts/production.sh stop NAME       stop one part (SIGTERM, SIGKILL after 10 s)
#   deploy/scripts/production.sh replica-delay MS  the replica applies changes MS ms late (tests)
#
# NAME is command-api-1, command-api-2, query-api-1, query-api-2, projector-1, projector-2,
# relay, nginx or replica. Settings (environment, defaults in brackets) are listed under
# "Settings" below and in the README.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"

# ---- Settings
dir="$(mkdir -p "${PRODUCTION_DIR:-$root/data/production}" && cd "${PRODUCTION_DIR:-$root/data/production}" && pwd)"
pg_host="${PG_HOST:-127.0.0.1}"
pg_port="${PG_PORT:-5432}"
pg_user="${PG_USER:-postgres}"
database="${PG_DATABASE:-portal}"
replica_port="${REPLICA_PORT:-5433}"
listen="${LISTEN:-0.0.0.0}"
https_port="${HTTPS_PORT:-8443}"
http_port="${HTTP_PORT:-8080}"
command_ports=(${COMMAND_PORTS:-3101 3102})
query_ports=(${QUERY_PORTS:-3111 3112})
projector_ports=(${PROJECTOR_PORTS:-3121 3122})
relay_port="${RELAY_PORT:-3131}"
export KAFKA_PORT="${KAFKA_PORT:-9092}"
pg_bin="${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}"
slot="portal_replica_${replica_port}"

run="$dir/run"
logs="$dir/logs"
replica_dir="$dir/replica"
primary_url="postgres://$pg_user@$pg_host:$pg_port/$database"
replica_url="postgres://$pg_user@127.0.0.1:$replica_port/$database"
mkdir -p "$run" "$logs"

say() { printf '%s\n' "$*"; }
fail() {
  printf 'production.sh: %s\n' "$*" >&2
  exit 1
}

# PostgreSQL's programs refuse to run as root: as root they run as the postgres user.
as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
psql_primary() { "$pg_bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$pg_host" -p "$pg_port" -U "$pg_user" "$@"; }

# ---- Secrets: given in the environment, else made once and kept in secrets.env (owner only).
secrets="$dir/secrets.env"
if [ ! -f "$secrets" ]; then
  umask 077
  {
    echo "SESSION_SECRET=$(openssl rand -base64 48 | tr -d '\n')"
    echo "DATA_KEY=$(openssl rand -base64 32)"
    echo "ADMIN_USERNAME=admin01"
    echo "ADMIN_PASSWORD=$(openssl rand -base64 18 | tr -d '/+=\n')"
  } >"$secrets"
  umask 022
fi
set -a
# shellcheck disable=SC1090
. "$secrets"
set +a
export SESSION_SECRET="${SESSION_SECRET}" DATA_KEY="${DATA_KEY}"

# ---- Processes: NAME.pid in run/, output in logs/NAME.log.
pidfile() { echo "$run/$1.pid"; }
# Running, and not a zombie: where nothing reaps orphans (a container whose first process is not
# an init), a dead service stays in the process table as one.
running_pid() { [ -n "$1" ] && ps -o stat= -p "$1" 2>/dev/null | grep -qv '^Z'; }
alive() { [ -f "$(pidfile "$1")" ] && running_pid "$(cat "$(pidfile "$1")")"; }

# The environment every portal service shares.
common_env() {
  echo "DATABASE_URL=$primary_url"
  echo "UPLOADS_DIR=$dir/uploads"
  echo "TRUST_PROXY=1"
  echo "COOKIE_SECURE=true"
  echo "KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT"
  echo "KAFKA_TOPIC=${KAFKA_TOPIC:-portal.$database.events}"
  echo "NODE_ENV=production"
  # Links in e-mailed certificates point at nginx, the one address people use.
  echo "PUBLIC_URL=${PUBLIC_URL:-https://localhost:$https_port}"
}

# service NAME: its program and its own environment, one per line after the first.
service_spec() {
  local name="$1" index="${1##*-}"
  case "$name" in
    command-api-[0-9]*)
      echo "command-api/src/server.ts"
      echo "PORT=${command_ports[$((index - 1))]}"
      ;;
    query-api-[0-9]*)
      echo "query-api/src/server.ts"
      echo "PORT=${query_ports[$((index - 1))]}"
      echo "READ_DATABASE_URL=$replica_url"
      echo "CONSOLE_DIR=$root/console/dist"
      ;;
    projector-[0-9]*)
      echo "projector/src/server.ts"
      echo "PORT=${projector_ports[$((index - 1))]}"
      echo "PROJECTOR_NAME=$name"
      ;;
    relay)
      echo "relay/src/server.ts"
      echo "PORT=$relay_port"
      ;;
    *) return 1 ;;
  esac
}

service_port() { service_spec "$1" | sed -n 's/^PORT=//p'; }

start_service() {
  local name="$1" spec program
  alive "$name" && return 0
  spec="$(service_spec "$name")" || fail "no part named $name"
  program="$(head -n 1 <<<"$spec")"
  local -a env_lines
  mapfile -t env_lines < <(common_env; tail -n +2 <<<"$spec")
  # One process (service.mjs runs the service in itself, from the bundle build_bundle made), so a
  # kill reaches the service.
  (cd "$root" && exec env "${env_lines[@]}" setsid node deploy/scripts/service.mjs "$program" >>"$logs/$name.log" 2>&1) &
  echo $! >"$(pidfile "$name")"
}

# Waits until NAME answers 200 on /api/health (60 s), or says why not.
wait_healthy() {
  local name="$1" port
  port="$(service_port "$name")"
  for _ in $(seq 1 600); do
    if ! alive "$name"; then
      tail -n 20 "$logs/$name.log" >&2
      fail "$name stopped while starting (its log: $logs/$name.log)"
    fi
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/health")" = 200 ] && return 0
    sleep 0.1
  done
  fail "$name is not healthy after 60 s (its log: $logs/$name.log)"
}

stop_pid() {
  local name="$1" pid
  alive "$name" || {
    rm -f "$(pidfile "$name")"
    return 0
  }
  pid="$(cat "$(pidfile "$name")")"
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do running_pid "$pid" || break; sleep 0.1; done
  if running_pid "$pid"; then
    say "$name did not stop within 10 s of SIGTERM: killed"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$(pidfile "$name")"
}

# ---- PostgreSQL: the database on the primary, and a streaming replica made by pg_basebackup.
hba_mark="# added by course-portal production.sh for its replica"

ensure_primary() {
  psql_primary -d postgres -c 'SELECT 1' >/dev/null || fail "PostgreSQL at $pg_host:$pg_port does not answer"
  if [ "$(psql_primary -d postgres -Atc "SELECT count(*) FROM pg_database WHERE datname = '$database'")" = 0 ]; then
    psql_primary -d postgres -c "CREATE DATABASE \"$database\""
  fi
  # pg_basebackup and the replica connect for replication, which "all" in pg_hba.conf does not cover.
  if [ "$(psql_primary -d postgres -Atc "SELECT count(*) FROM pg_hba_file_rules WHERE 'replication' = ANY(database) AND error IS NULL")" = 0 ]; then
    local hba
    hba="$(psql_primary -d postgres -Atc 'SHOW hba_file')"
    [ -w "$hba" ] || fail "the primary allows no replication connection and $hba is not writable: add 'host replication $pg_user 127.0.0.1/32 trust' (or scram-sha-256) and reload it"
    printf 'host replication %s 127.0.0.1/32 trust %s\n' "$pg_user" "$hba_mark" >>"$hba"
    psql_primary -d postgres -c 'SELECT pg_reload_conf()' >/dev/null
    echo "$hba" >"$run/hba-added"
    say "allowed replication connections from 127.0.0.1 in $hba (removed again by down)"
  fi
}

replica_running() { as_postgres "$pg_bin/pg_ctl" -D "$replica_dir" status >/dev/null 2>&1; }

start_replica() {
  replica_running && return 0
  if [ ! -f "$replica_dir/standby.signal" ]; then
    say "making the replica with pg_basebackup (slot $slot)..."
    rm -rf "$replica_dir"
    mkdir -p "$replica_dir"
    chmod 700 "$replica_dir"
    if [ "$(id -u)" = 0 ]; then
      chown postgres: "$replica_dir"
      # The postgres user must reach its directory through ours (passing through, not listing it).
      chmod o+x "$dir"
    fi
    if [ "$(psql_primary -d postgres -Atc "SELECT count(*) FROM pg_replication_slots WHERE slot_name = '$slot'")" = 0 ]; then
      psql_primary -d postgres -c "SELECT pg_create_physical_replication_slot('$slot')" >/dev/null
    fi
    as_postgres "$pg_bin/pg_basebackup" -h "$pg_host" -p "$pg_port" -U "$pg_user" -D "$replica_dir" \
      -R -X stream -S "$slot" -c fast
    # Debian keeps the configuration outside the data directory: the replica gets its own.
    as_postgres tee "$replica_dir/postgresql.conf" >/dev/null <<CONF
port = $replica_port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$replica_dir'
hot_standby = on
hot_standby_feedback = on
max_standby_streaming_delay = 30s
max_connections = 200
shared_buffers = 128MB
include_if_exists = 'delay.conf'
CONF
    as_postgres tee "$replica_dir/pg_hba.conf" >/dev/null <<HBA
local all all trust
host all all 127.0.0.1/32 trust
HBA
    as_postgres rm -f "$replica_dir/postmaster.pid" "$replica_dir/postmaster.opts"
  fi
  touch "$logs/replica.log"
  [ "$(id -u)" = 0 ] && chown postgres: "$logs/replica.log"
  as_postgres "$pg_bin/pg_ctl" -D "$replica_dir" -l "$logs/replica.log" -w -t 60 start >/dev/null ||
    fail "the replica did not start (its log: $logs/replica.log)"
}

stop_replica() {
  replica_running && as_postgres "$pg_bin/pg_ctl" -D "$replica_dir" -m fast -w stop >/dev/null
  return 0
}

# ---- nginx
nginx_conf="$run/nginx.conf"
tls_dir="$dir/tls"

write_nginx_conf() {
  local cert="${TLS_CERT_FILE:-}" key="${TLS_KEY_FILE:-}" commands="" queries="" port
  if [ -z "$cert" ] || [ -z "$key" ]; then
    (cd "$root" && node --import tsx deploy/src/production-tls.ts "$tls_dir") >/dev/null
    cert="$tls_dir/server.crt"
    key="$tls_dir/server.key"
  fi
  for port in "${command_ports[@]}"; do commands+=" 127.0.0.1:$port"; done
  for port in "${query_ports[@]}"; do queries+=" 127.0.0.1:$port"; done
  RUN_DIR="$run" LOG_DIR="$logs" LISTEN="$listen" HTTPS_PORT="$https_port" HTTP_PORT="$http_port" \
    TLS_CERT="$cert" TLS_KEY="$key" COMMAND_SERVERS="$commands" QUERY_SERVERS="$queries" \
    "$root/deploy/production/render-nginx.sh" >"$nginx_conf"
}

nginx_bin() { command -v nginx || echo /usr/sbin/nginx; }

start_nginx() {
  [ -x "$(nginx_bin)" ] || fail "nginx is not installed (Debian: apt-get install nginx)"
  write_nginx_conf
  "$(nginx_bin)" -t -q -c "$nginx_conf" -p "$run" -e "$logs/nginx-error.log" || fail "nginx refused $nginx_conf"
  if [ -f "$run/nginx.pid" ] && running_pid "$(cat "$run/nginx.pid")"; then
    # Already running: it takes the configuration again (instances added since), without dropping a request.
    kill -HUP "$(cat "$run/nginx.pid")"
    return 0
  fi
  "$(nginx_bin)" -c "$nginx_conf" -p "$run" -e "$logs/nginx-error.log"
}

stop_nginx() {
  [ -f "$run/nginx.pid" ] || return 0
  local pid
  pid="$(cat "$run/nginx.pid")"
  kill -QUIT "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do running_pid "$pid" || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$run/nginx.pid"
}

# ---- Kafka: the broker script's own broker; stopped by down only when up started it.
start_kafka() {
  if ! (exec 3<>"/dev/tcp/127.0.0.1/$KAFKA_PORT") 2>/dev/null; then
    "$root/deploy/scripts/kafka.sh" start
    touch "$run/kafka-started"
  fi
}

# ---- The console: built once (or when older than its sources), served by query-api.
build_console() {
  node "$root/deploy/scripts/console-build.mjs"
}

# ---- The services' code bundled once (or when older than its sources) before any starts, rather
# than by each at once.
build_bundle() {
  node "$root/deploy/scripts/server-build.mjs"
}

services=()
for i in "${!command_ports[@]}"; do services+=("command-api-$((i + 1))"); done
services+=(relay)
for i in "${!projector_ports[@]}"; do services+=("projector-$((i + 1))"); done
for i in "${!query_ports[@]}"; do services+=("query-api-$((i + 1))"); done

up() {
  build_console
  build_bundle
  start_kafka
  ensure_primary
  start_replica
  # The first command-api makes the schema and the first admin; the rest start together.
  start_service "${services[0]}"
  wait_healthy "${services[0]}"
  for name in "${services[@]:1}"; do start_service "$name"; done
  for name in "${services[@]:1}"; do wait_healthy "$name"; done
  start_nginx
  for _ in $(seq 1 100); do
    [ "$(curl -sk -o /dev/null -w '%{http_code}' "https://127.0.0.1:$https_port/api/health")" = 200 ] && break
    sleep 0.1
  done
  say ""
  say "The portal is up at https://localhost:$https_port/ (nginx, TLS; certificate authority: $tls_dir/ca.crt)"
  say "Sign in as $ADMIN_USERNAME with the password in $secrets (ADMIN_PASSWORD)."
  say "Status: deploy/scripts/production.sh status    Stop: deploy/scripts/production.sh down"
}

down() {
  stop_nginx
  # Every service up ever started here, whatever the ports are set to now: readers first, writers last.
  local kind pid
  for kind in query-api projector relay command-api; do
    for pid in "$run/$kind"*.pid; do [ -f "$pid" ] && stop_pid "$(basename "$pid" .pid)"; done
  done
  stop_replica
  if [ -f "$run/kafka-started" ]; then
    "$root/deploy/scripts/kafka.sh" stop
    rm -f "$run/kafka-started"
  fi
  # The slot keeps WAL on the primary for the replica: without the replica it must go.
  psql_primary -d postgres -Atc \
    "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '$slot' AND NOT active" \
    >/dev/null 2>&1 || true
  rm -rf "$replica_dir"
  if [ -f "$run/hba-added" ]; then
    local hba
    hba="$(cat "$run/hba-added")"
    sed -i "/$hba_mark/d" "$hba"
    psql_primary -d postgres -c 'SELECT pg_reload_conf()' >/dev/null || true
    rm -f "$run/hba-added"
  fi
  say "stopped"
}

status() {
  local name port code all_ok=0
  printf '%-14s %-8s %s\n' PART STATE HEALTH
  for name in "${services[@]}"; do
    port="$(service_port "$name")"
    if alive "$name"; then
      code="$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/health" || true)"
      printf '%-14s %-8s %s\n' "$name" running "$code on 127.0.0.1:$port/api/health"
      [ "$code" = 200 ] || all_ok=1
    else
      printf '%-14s %-8s\n' "$name" stopped
      all_ok=1
    fi
  done
  if replica_running; then
    printf '%-14s %-8s %s\n' replica running "$(psql_primary -d postgres -Atc "SELECT 'replay lag ' || coalesce(replay_lag::text, '0') FROM pg_stat_replication WHERE application_name = 'walreceiver' LIMIT 1" 2>/dev/null || true)"
  else
    printf '%-14s %-8s\n' replica stopped
    all_ok=1
  fi
  if [ -f "$run/nginx.pid" ] && running_pid "$(cat "$run/nginx.pid")"; then
    code="$(curl -sk -o /dev/null -w '%{http_code}' "https://127.0.0.1:$https_port/api/health" || true)"
    printf '%-14s %-8s %s\n' nginx running "$code on https://127.0.0.1:$https_port/api/health"
  else
    printf '%-14s %-8s\n' nginx stopped
    all_ok=1
  fi
  return $all_ok
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  start)
    case "${2:-}" in
      nginx) start_nginx ;;
      replica) start_replica ;;
      *)
        start_service "${2:?name}"
        wait_healthy "$2"
        ;;
    esac
    ;;
  stop)
    case "${2:-}" in
      nginx) stop_nginx ;;
      replica) stop_replica ;;
      *) stop_pid "${2:?name}" ;;
    esac
    ;;
  replica-delay)
    echo "recovery_min_apply_delay = '${2:?milliseconds}ms'" | as_postgres tee "$replica_dir/delay.conf" >/dev/null
    as_postgres "$pg_bin/pg_ctl" -D "$replica_dir" reload >/dev/null
    ;;
  *)
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
