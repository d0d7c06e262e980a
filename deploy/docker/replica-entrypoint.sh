#!/bin/sh
# The replica: made once with pg_basebackup from the primary (as production.sh's start_replica
# does), then a hot standby streaming from it.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  until pg_isready -h postgres -U replicator -q; do sleep 1; done
  PGPASSWORD="$REPLICATION_PASSWORD" pg_basebackup -h postgres -U replicator -D "$PGDATA" -R -X stream \
    -S portal_replica_1 -c fast
  chmod 700 "$PGDATA"
fi
exec postgres -c hot_standby=on -c hot_standby_feedback=on -c max_standby_streaming_delay=30s
