#!/usr/bin/env bash
# Back up the site's PostgreSQL database to one file (docs/DEPLOY.md, "Backups").
#   deploy/backup.sh postgresql://rummy_owner@127.0.0.1:5432/rummy backups/rummy-$(date +%F).dump
# A custom-format dump (compressed; pg_restore can restore all or part of it), without owners
# or grants, so it restores on any server; deploy/roles.sql sets the grants again after.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 DATABASE_URL FILE" >&2
  exit 2
fi
mkdir -p "$(dirname "$2")"
pg_dump --format=custom --no-owner --no-privileges --file="$2.partial" --dbname="$1"
mv "$2.partial" "$2"
echo "backed up to $2 ($(du -h "$2" | cut -f1))"
