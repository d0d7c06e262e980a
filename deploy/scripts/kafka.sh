#!/usr/bin/env bash
# A real single-node Kafka broker (KRaft, broker and controller in one JVM) on 127.0.0.1, from
# Maven Central jars: no Docker, nothing installed by hand. Used by .ci/run and by developers.
#
#   deploy/scripts/kafka.sh start    fetch the jars (first time), format storage, start, wait until ready
#   deploy/scripts/kafka.sh stop     stop it (storage kept)
#   deploy/scripts/kafka.sh restart  stop and start again (the fault tests do this)
#   deploy/scripts/kafka.sh reset    stop and delete its storage
#
# KAFKA_DIR (default .kafka in the repository, git-ignored) holds the jars, the storage and the log.
# KAFKA_PORT (default 9092) is where clients connect; the controller listens on KAFKA_PORT + 1.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
dir="${KAFKA_DIR:-$root/.kafka}"
port="${KAFKA_PORT:-9092}"
controller=$((port + 1))
libs="$dir/libs"
data="$dir/data"
log="$dir/broker.log"
pidfile="$dir/broker.pid"
# Fixed, so storage formatted once keeps matching (22 characters of base64).
cluster_id="cQb6bQhNRVCNTYoq3Tclsw"

# Running, and not a zombie: where nothing reaps orphans (a container whose first process is not an
# init), a stopped broker stays in the process table as one, and `kill -0` still finds it.
pid_running() { ps -o stat= -p "$1" 2>/dev/null | grep -qv '^Z'; }
running() { [ -f "$pidfile" ] && pid_running "$(cat "$pidfile")"; }

fetch() {
  if [ -n "$(ls "$libs"/kafka_2.13-*.jar 2>/dev/null)" ]; then return; fi
  echo "Fetching Kafka's jars from Maven Central (cached in ~/.m2)..."
  mvn -q -B -f "$root/deploy/kafka/pom.xml" dependency:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$libs"
}

configure() {
  mkdir -p "$data"
  cat > "$dir/server.properties" <<PROPERTIES
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$data
num.partitions=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=1
group.initial.rebalance.delay.ms=0
log.cleaner.dedupe.buffer.size=2097152
auto.create.topics.enable=false
PROPERTIES
  cat > "$dir/log4j.properties" <<'LOG4J'
log4j.rootLogger=WARN, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.server.KafkaServer=INFO
log4j.logger.kafka.server.BrokerServer=INFO
log4j.logger.kafka.Kafka$=INFO
LOG4J
}

java_opts=(-Xms256m -Xmx512m -XX:+UseG1GC "-Dlog4j.configuration=file:$dir/log4j.properties")

start() {
  if running; then echo "Kafka is already running (pid $(cat "$pidfile")) on 127.0.0.1:$port"; return; fi
  fetch
  configure
  java "${java_opts[@]}" -cp "$libs/*" kafka.tools.StorageTool format \
    -t "$cluster_id" -c "$dir/server.properties" --ignore-formatted > "$dir/format.log" 2>&1
  : > "$log"
  nohup java "${java_opts[@]}" -cp "$libs/*" kafka.Kafka "$dir/server.properties" >> "$log" 2>&1 &
  echo $! > "$pidfile"
  for _ in $(seq 1 120); do
    if grep -q "started (kafka.server" "$log" || grep -q "Kafka Server started" "$log"; then
      echo "Kafka is running on 127.0.0.1:$port (pid $(cat "$pidfile")); export KAFKA_BROKERS=127.0.0.1:$port"
      return
    fi
    if ! running; then echo "Kafka stopped while starting:"; tail -30 "$log"; exit 1; fi
    sleep 0.5
  done
  echo "Kafka did not start within 60 s:"; tail -30 "$log"; exit 1
}

stop() {
  if ! running; then rm -f "$pidfile"; return; fi
  local pid; pid="$(cat "$pidfile")"
  kill "$pid"
  for _ in $(seq 1 60); do pid_running "$pid" || break; sleep 0.5; done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$pidfile"
  echo "Kafka stopped"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  restart) stop; start ;;
  reset) stop; rm -rf "$data" ;;
  *) echo "usage: $0 start|stop|restart|reset" >&2; exit 2 ;;
esac
