#!/bin/sh
# The primary's first start (docker-entrypoint-initdb.d): a role the replica copies and streams as.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" <<SQL
CREATE ROLE replicator WITH REPLICATION LOGIN PASSWORD '${REPLICATION_PASSWORD}';
SELECT pg_create_physical_replication_slot('portal_replica_1');
SQL
echo "host replication replicator all scram-sha-256" >>"$PGDATA/pg_hba.conf"
