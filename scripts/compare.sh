#!/usr/bin/env bash
# Before and after, in one run: dws built at REV (default HEAD~1) and dws built from the
# work tree, with ajv-cli as the peer, alternating run by run on the realistic corpus of
# scripts/bench.sh (go run ./bench/gen -realistic -n N): validate --no-cache, then a warm
# run with --format json. Prints medians of wall and CPU time (bench/runstat) and each
# side's ratio to ajv-cli. Usage: scripts/compare.sh [REV] [N]   (TRIALS=7 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:-HEAD~1}
N=${2:-10000}
TRIALS=${TRIALS:-7}
export CGO_ENABLED=1
work=$(mktemp -d)
trap 'git worktree remove --force "$work/before-tree" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git worktree add -q --detach "$work/before-tree" "$rev"
(cd "$work/before-tree" && go build -o "$work/dws-before" ./cmd/dws)
go build -o "$work/dws-after" ./cmd/dws
go build -o "$work/runstat" ./bench/runstat
ajv="$PWD/.cache/ajv/node_modules/.bin/ajv"
[ -x "$ajv" ] || { echo "compare.sh: ajv-cli is missing: run scripts/test.sh once (it installs it)" >&2; exit 2; }
real="$work/real"
go run ./bench/gen -out "$real/corpus" -n "$N" -realistic >/dev/null
cp fixtures/cortex/prompt_templates.yaml "$real/"
mv "$real/corpus/schema.sql" "$real/schema.sql"
printf 'version: 1\ninclude: ["corpus/*.json"]\ncortex: { prompt_templates: prompt_templates.yaml }\nsql: { from_ddl: schema.sql }\n' > "$real/.dws.yaml"
"$work/dws-after" schema cortex > "$real/cortex.schema.json"

one() { # one TAG CMD…: a run's "wall_ns cpu_ns maxrss_kb" appended to $work/r.TAG
  local tag=$1; shift
  rm -f "$work/rs"
  (cd "$real" && "$work/runstat" "$work/rs" "$@" >/dev/null 2>&1) || true
  cat "$work/rs" >> "$work/r.$tag"
}
for ((i = 0; i < TRIALS; i++)); do
  one before-cold "$work/dws-before" validate --no-cache corpus
  one after-cold "$work/dws-after" validate --no-cache corpus
  one ajv node "$ajv" validate --spec=draft2020 --strict=false -c ajv-formats -s cortex.schema.json -d "corpus/*.json"
  rm -rf "$work/cache-before" "$work/cache-after"
  (cd "$real" && "$work/dws-before" validate --cache "$work/cache-before" corpus >/dev/null 2>&1) || true
  (cd "$real" && "$work/dws-after" validate --cache "$work/cache-after" corpus >/dev/null 2>&1) || true
  one before-warm "$work/dws-before" validate --format json --cache "$work/cache-before" corpus
  one after-warm "$work/dws-after" validate --format json --cache "$work/cache-after" corpus
done
med() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
echo "$N realistic files, $TRIALS alternated runs; before = $(git rev-parse --short "$rev"), after = the work tree"
for k in before-cold after-cold ajv before-warm after-warm; do
  w=$(awk '{ print $1 }' "$work/r.$k" | med)
  c=$(awk '{ print $2 }' "$work/r.$k" | med)
  kb=$(awk '{ print $3 }' "$work/r.$k" | sort -n | tail -1)
  echo "$w $c" > "$work/m.$k"
  awk -v k="$k" -v w="$w" -v c="$c" -v kb="$kb" \
    'BEGIN { printf "%-12s wall %7.3f s  CPU %7.3f s  (medians)  largest peak RSS %5.0f MB\n", k, w / 1e9, c / 1e9, kb / 1024 }'
done
read -r aw ac < "$work/m.ajv"
for k in before-cold after-cold before-warm after-warm; do
  read -r w c < "$work/m.$k"
  awk -v k="$k" -v w="$w" -v c="$c" -v aw="$aw" -v ac="$ac" \
    'BEGIN { printf "%-12s ajv-cli/dws: wall %5.2fx  CPU %5.2fx\n", k, aw / w, ac / c }'
done
