#!/usr/bin/env bash
# Restore a backup made by deploy/backup.sh into an EMPTY database (docs/DEPLOY.md, "Restore").
#   createdb -h 127.0.0.1 -U postgres -O rummy_owner rummy_restored
#   deploy/restore.sh backups/rummy-2026-11-23.dump postgresql://rummy_owner@127.0.0.1:5432/rummy_restored
# Stops at the first error. Then apply deploy/roles.sql to the restored database and point
# DATABASE_URL at it; `manage.py migrate` after a restore of an older backup.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 FILE DATABASE_URL" >&2
  exit 2
fi
pg_restore --exit-on-error --no-owner --no-privileges --single-transaction --dbname="$2" "$1"
echo "restored $1"
