#!/usr/bin/env bash
# `gpuplan catalog update` against a local HTTP server (tests/update/server.py on 127.0.0.1,
# started here, serving tests/fixtures/update/): a good download, dated by the server's
# Last-Modified header, fills the price cache and later runs use it and its dates; a file older
# than the cached prices, or undated against dated ones, is refused and the cache kept; a 404, a
# body cut short, bad CSV, a feed without offers, a refused connection and a stalled server each
# exit non-zero with the reason, the other clouds stored and the failed cloud's cache kept. Nothing here touches the internet or the real user's cache: XDG_CACHE_HOME and
# HOME point into a scratch folder.
# Usage: run.sh GPUPLAN SOURCE_DIR
set -u
gpuplan=$(realpath "$1")
source_dir=$(realpath "$2")
scratch=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan_update.XXXXXX")
server_pid=
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
    rm -rf "$scratch"
}
trap cleanup EXIT
export XDG_CACHE_HOME="$scratch/cache" HOME="$scratch/home"
mkdir -p "$HOME"
# The real user's configuration and GPUPLAN_* defaults stay out (docs/config.md).
export XDG_CONFIG_HOME="$scratch/no-config"
unset GPUPLAN_ACCEPT_SOFT GPUPLAN_CATALOG GPUPLAN_COLOR GPUPLAN_CURRENCY GPUPLAN_DISCOUNT GPUPLAN_DISCOUNT_RATE GPUPLAN_SOLVER_TIME
cache="$XDG_CACHE_HOME/gpuplan/prices.bin"
limit=30 # seconds for any one run
. "$source_dir/tests/support/expect.sh"

# json EXPRESSION: evaluates a Python expression over the JSON on stdout (`d`); prints it.
json() {
    python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print($1)" "$scratch/.out"
}

python3 "$source_dir/tests/update/server.py" "$source_dir/tests/fixtures/update" \
    "$scratch/port" &
server_pid=$!
for _ in $(seq 100); do
    [ -s "$scratch/port" ] && break
    sleep 0.1
done
[ -s "$scratch/port" ] || { echo "FAIL: the test server did not start" >&2; exit 1; }
base="http://127.0.0.1:$(cat "$scratch/port")"

current="no cache yet: recommend says nothing about one"
run recommend --preset llama-7b-lora --format json
expect_rc 0
[ "$(json "'cache' in d['catalog']")" = False ] || fail "a cache block without a cache"
embedded_digest=$(json "d['catalog']['digest']")

current="an undated download is refused against the catalog's dated prices"
run --wide catalog update --source "$base/good/" --cloud aws
expect_rc 0
[ -f "$cache" ] && fail "an undated feed was stored"
expect_out "aws: refused: the server states no date for $base/good/aws/vms.csv (no Last-Modified header, no commit date), and the catalog's own prices are dated 2026-07-09; it has no cached prices"
expect_err "the price cache $cache is unchanged"

current="a file older than the catalog's own prices is refused"
run --wide catalog update --source "$base/dated/2026-01-05/good" --cloud aws
expect_rc 0
[ -f "$cache" ] && fail "an older feed was stored"
expect_out "aws: refused: $base/dated/2026-01-05/good/aws/vms.csv is dated 2026-01-05 (the server's Last-Modified date), older than the catalog's own prices of 2026-07-09"

current="a good download fills the cache"
run --wide catalog update --source "$base/dated/2026-11-30/good/" --cloud aws --cloud lambda
expect_rc 0
[ -f "$cache" ] || fail "no cache file at $cache"
expect_out "aws: "
expect_out "$base/dated/2026-11-30/good/aws/vms.csv: as_of 2026-11-30 from the server's Last-Modified date"
expect_out "price cache $cache: 2 providers"
expect_out "not refreshed by catalog update: commitment prices (reserved, committed use), product facts, the dated list corrections, and the providers "
expect_no_temporaries "$XDG_CACHE_HOME"
case "$err" in *downloading*) fail "a progress line on a stderr that is not a terminal" ;; esac
cp "$cache" "$scratch/good.bin"

current="the next recommend uses the cache and its dates"
run recommend --preset llama-7b-lora --provider aws --format json
expect_rc 0
downloaded=$(json "d['catalog']['cache']['downloaded_at']")
[ "$(json "d['catalog']['cache']['providers']")" = "['aws', 'lambda']" ] ||
    fail "cache providers: $(json "d['catalog']['cache']")"
[ "$(json "d['catalog']['cache']['source']")" = "$base/dated/2026-11-30/good" ] || fail "cache source"
[ "$(json "d['catalog']['as_of']['newest']")" = "2026-11-30" ] ||
    fail "newest price $(json "d['catalog']['as_of']") is not the server's date 2026-11-30"
[ "$(json "d['catalog']['digest'] != '$embedded_digest'")" = True ] || fail "digest unchanged"
python3 - "$source_dir" "$scratch/.out" <<'CHECK' || fail "the output breaks docs/schema/recommend.schema.json"
import json, pathlib, sys
sys.path.insert(0, sys.argv[1] + "/tests/tools")
import jsonschema, validate_json
schemas = validate_json.load_schemas(pathlib.Path(sys.argv[1]) / "docs/schema")
validator = validate_json.make_validator(jsonschema, schemas, "recommend.schema.json")
errors = [f"{list(e.path)}: {e.message}" for e in validator.iter_errors(json.load(open(sys.argv[2])))]
print("\n".join(errors), file=sys.stderr)
sys.exit(1 if errors else 0)
CHECK
case "$(json "d['assumptions']['notes']")" in
*"from the price cache $cache"*) ;;
*) fail "no assumption names the cache: $(json "d['assumptions']['notes']")" ;;
esac
run --wide recommend --preset llama-7b-lora
expect_rc 0
expect_out "prices of aws, lambda from the price cache $cache, downloaded $downloaded"

current="catalog list shows the downloaded prices, dated the server's date"
run catalog list --provider aws --gpu H100 --format json
expect_rc 0
rows=$(json "[(o['region'], o['on_demand_per_hour'], o['spot_per_hour'], o['as_of']) for o in d['offers'] if o['instance'] == 'p5.48xlarge']")
[ "$rows" = "[('us-east-1', 31.4159, 12.3456, '2026-11-30'), ('us-west-2', 31.4159, None, '2026-11-30')]" ] ||
    fail "p5.48xlarge rows: $rows"
run catalog list --provider aws --format json
[ "$(json "d['sources']['skypilot-aws-feed']['url']")" = "$base/dated/2026-11-30/good/aws/vms.csv" ] ||
    fail "source url: $(json "d['sources'].get('skypilot-aws-feed')")"
run catalog audit --today 2026-12-07
expect_rc 0

current="--offline leaves the cache out"
run --offline recommend --preset llama-7b-lora --format json
expect_rc 0
[ "$(json "'cache' in d['catalog']")" = False ] || fail "--offline still names the cache"
[ "$(json "d['catalog']['digest']")" = "$embedded_digest" ] || fail "--offline digest differs"

# expect_unchanged: the cache is still the good download, byte for byte.
expect_unchanged() {
    cmp -s "$cache" "$scratch/good.bin" || fail "the cache changed"
    expect_err "the price cache $cache is unchanged"
    expect_no_temporaries "$XDG_CACHE_HOME"
}

current="a password in --source is used for the download and stored nowhere"
run --wide catalog update --source "http://gpuplan:s3cret-pw@${base#http://}/dated/2026-11-30/good" --cloud aws
expect_rc 0
grep -q "s3cret-pw" "$cache" && fail "the cache holds the password"
run recommend --preset llama-7b-lora --provider aws --format json
case "$out" in *s3cret-pw*) fail "the provenance prints the password" ;; esac
[ "$(json "d['catalog']['cache']['source']")" = "$base/dated/2026-11-30/good" ] ||
    fail "cache source with credentials: $(json "d['catalog']['cache']['source']")"
cp "$scratch/good.bin" "$cache"

current="an older file is refused and the cached prices stay"
run --wide catalog update --source "$base/dated/2026-10-01/good" --cloud aws --cloud lambda
expect_rc 0
expect_out "aws: refused: $base/dated/2026-10-01/good/aws/vms.csv is dated 2026-10-01 (the server's Last-Modified date), older than the cached prices of 2026-11-30; its cached prices stay"
expect_out "lambda: refused: "
expect_unchanged

current="an undated file is refused against dated cached prices"
run --wide catalog update --source "$base/good" --cloud lambda
expect_rc 0
expect_out "lambda: refused: the server states no date for $base/good/lambda/vms.csv (no Last-Modified header, no commit date), and the cached prices are dated 2026-11-30; its cached prices stay"
expect_unchanged

current="404 on one of the clouds: the others are stored, the failed one named"
run --wide catalog update --source "$base/dated/2026-12-01/good" --cloud aws --cloud nebius
expect_rc 1
expect_err "$base/dated/2026-12-01/good/nebius/vms.csv: error: the server answered HTTP 404"
expect_out "nebius: failed: $base/dated/2026-12-01/good/nebius/vms.csv: error: the server answered HTTP 404; it has no cached prices"
expect_out "price cache $cache: 2 providers"
run catalog list --provider aws --gpu H100 --format json
[ "$(json "sorted({o['as_of'] for o in d['offers'] if o['instance'] == 'p5.48xlarge'})")" = "['2026-12-01']" ] ||
    fail "aws was not stored with the newer date"
run catalog list --provider lambda --format json
[ "$(json "'2026-11-30' in {o['as_of'] for o in d['offers']} and '2026-12-01' not in {o['as_of'] for o in d['offers']}")" = True ] ||
    fail "lambda's cached prices did not stay: $(json "sorted({o['as_of'] for o in d['offers']})")"
cp "$scratch/good.bin" "$cache"

current="a body cut short of its announced length"
run --wide catalog update --source "$base/truncated/good" --cloud aws
expect_rc 1
expect_err "$base/truncated/good/aws/vms.csv: error: the download was cut short"
expect_unchanged

current="a file cut in the middle of a row (served whole)"
run --wide catalog update --source "$base/partial" --cloud aws
expect_rc 3
expect_err "$base/partial/aws/vms.csv:"
expect_unchanged

current="bad CSV"
run --wide catalog update --source "$base/bad" --cloud aws --cloud lambda
expect_rc 3
expect_err "$base/bad/aws/vms.csv:3:"
expect_err "AcceleratorCount"
expect_unchanged

current="a feed with no GPU offers gpuplan knows"
run --wide catalog update --source "$base/nogpu" --cloud aws
expect_rc 3
expect_err "accelerator 'K80' left out"
expect_err "holds no GPU offers gpuplan knows"
expect_unchanged

current="connection refused"
closed_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
run --wide catalog update --source "http://127.0.0.1:$closed_port/good" --cloud aws
expect_rc 1
expect_err "http://127.0.0.1:$closed_port/good/aws/vms.csv: error: "
expect_unchanged

current="a server that stops sending (timeout)"
start=$(date +%s)
run --wide catalog update --source "$base/slow/good" --cloud aws --timeout 1
elapsed=$(($(date +%s) - start))
expect_rc 1
expect_err "error: timed out"
expect_unchanged
[ "$elapsed" -lt 15 ] || fail "took ${elapsed}s to give up with --timeout 1"

current="a damaged cache is left out with a warning"
printf 'not a cache' >"$scratch/cache/gpuplan/prices.bin"
run recommend --preset llama-7b-lora --format json
expect_rc 0
expect_err "the price cache $cache is left out"
[ "$(json "'cache' in d['catalog']")" = False ] || fail "a damaged cache is named"
cp "$scratch/good.bin" "$cache"

current="usage errors"
run --wide catalog update --source "ftp://127.0.0.1/good"
expect_rc 2
expect_err "--source: expected an http:// or https:// URL"
run --wide catalog update --source "$base/good" --cloud AWS
expect_rc 2
expect_err "--cloud: expected a SkyPilot cloud"
run --offline catalog update --source "$base/good"
expect_rc 2
run --wide catalog update --source "$base/good" --timeout 0
expect_rc 2

current="without XDG_CACHE_HOME the cache is HOME/.cache/gpuplan"
XDG_CACHE_HOME= run --wide catalog update --source "$base/dated/2026-11-30/good" --cloud aws
expect_rc 0
[ -f "$HOME/.cache/gpuplan/prices.bin" ] || fail "no cache in $HOME/.cache/gpuplan"
env -u XDG_CACHE_HOME -u HOME "$gpuplan" catalog update --source "$base/dated/2026-11-30/good" --cloud aws \
    >"$scratch/.out" 2>"$scratch/.err"
rc=$?
err=$(cat "$scratch/.err")
expect_rc 1
expect_err "no folder for the price cache"

current="the summary fits 80 columns and keeps every word whole"
# The runs above pass --wide so that their sentences are checked whole; here the same download's
# summary at the default 80 columns must have no longer line and no word that is not one of the
# --wide summary's (a word cut or broken in two would be).
run --wide catalog update --source "$base/dated/2026-11-30/good/" --cloud aws --cloud lambda
wide_out=$out
COLUMNS=80 run catalog update --source "$base/dated/2026-11-30/good/" --cloud aws --cloud lambda
expect_rc 0
over=$(awk 'length($0) > 80' <<<"$out")
[ -z "$over" ] || fail "lines over 80 columns: $over"
[ "$(awk 'length($0) > 80' <<<"$wide_out" | wc -l)" -gt 0 ] || fail "the --wide summary has no long line"
# The two runs' download times may differ by a second: both read as TIME.
stamp='s/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z/TIME/g'
set -f
wide_words=" $(sed -E "$stamp" <<<"$wide_out" | tr '\n' ' ') "
for word in $(sed -E "$stamp" <<<"$out"); do
    case "$wide_words" in *" $word "*) ;; *) fail "'$word' is not a word of the --wide summary" ;; esac
done
set +f

current="a progress line on a terminal"
if command -v script >/dev/null; then
    script -qec "'$gpuplan' catalog update --source '$base/dated/2026-11-30/good' --cloud aws --cloud lambda" \
        "$scratch/typescript" >/dev/null 2>&1
    grep -q "downloading lambda/vms.csv (2 of 2)" "$scratch/typescript" ||
        fail "no progress line: $(head -c 400 "$scratch/typescript")"
else
    echo "note: script(1) missing, the terminal case is not run" >&2
fi

if [ "$failures" -gt 0 ]; then
    echo "$failures failure(s)" >&2
    exit 1
fi
echo "catalog update: every case passed"
