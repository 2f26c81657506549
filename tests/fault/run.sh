#!/usr/bin/env bash
# Fault injection against the built executable: hostile output targets, planted links, signals,
# full disks, closed and broken streams, inputs that could hang or flood, extreme numbers.
# Usage: run.sh GPUPLAN SOURCE_DIR. Every spawned run has a timeout; exits 1 on the first
# failed expectation with what was seen. Never points -o at a real device: only at device nodes
# it creates in its own scratch folder.
set -u
gpuplan=$(realpath "$1")
source_dir=$(realpath "$2")
scratch=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan_fault.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
# Every run without a price cache, whatever the user running the tests has downloaded.
export XDG_CACHE_HOME="$scratch/no-cache"
# The real user's configuration and GPUPLAN_* defaults stay out (docs/config.md).
export XDG_CONFIG_HOME="$scratch/no-config"
unset GPUPLAN_ACCEPT_SOFT GPUPLAN_CATALOG GPUPLAN_COLOR GPUPLAN_CURRENCY GPUPLAN_DISCOUNT GPUPLAN_DISCOUNT_RATE GPUPLAN_SOLVER_TIME
cd "$scratch" || exit 1
limit=60 # seconds for any one run; every case takes well under 1 s in release (a few under the sanitizers), so only a hang reaches it
. "$source_dir/tests/support/expect.sh"

case_() {
    current=$1
    rm -rf "$scratch/case" && mkdir "$scratch/case" && cd "$scratch/case" || exit 1
}

# --- Output files ---------------------------------------------------------------------------

case_ "a character device as -o is refused and stays a device"
if mknod fakefull c 1 7 2>/dev/null; then # /dev/full's numbers, in the scratch folder
    run presets -o fakefull
    expect_rc 1
    expect_err "fakefull: error: refusing to replace a character device"
    [ -c fakefull ] || fail "fakefull is no longer a character device"
else
    echo "fault injection: not root, the device-node case is skipped (the FIFO case remains)"
fi

case_ "a FIFO as -o or --chart is refused at once and stays a FIFO"
mkfifo pipe
run presets -o pipe
expect_rc 1
expect_err "pipe: error: refusing to replace a FIFO"
run report --preset llama-7b-lora --chart pipe -o report.md
expect_rc 1
[ -p pipe ] || fail "pipe is no longer a FIFO"
[ ! -e report.md ] || fail "report.md written although the chart failed"

case_ "a symlink as -o is written through to its target, and the link stays"
echo old >target.txt
ln -s target.txt link.txt
run presets -o link.txt
expect_rc 0
[ -L link.txt ] || fail "link.txt is no longer a symlink"
grep -q llama-7b-lora target.txt || fail "target.txt does not hold the output"

case_ "a planted symlink or hard link at the old temporary name does not redirect the write"
echo precious >precious.conf
for plant in "ln -s $PWD/precious.conf" "ln precious.conf"; do
    # The old name was .NAME.tmp.PID: the shell's PID is the one gpuplan runs with after exec.
    timeout "$limit" sh -c '$1 ".out.txt.tmp.$$"; exec "$0" presets -o out.txt' \
        "$gpuplan" "$plant" 2>/dev/null
    [ "$(cat precious.conf)" = precious ] || fail "$plant: precious.conf was overwritten"
    grep -q llama-7b-lora out.txt || fail "$plant: out.txt does not hold the output"
    rm -f .out.txt.tmp.* out.txt
done

case_ "replacing a 0600 file keeps mode 0600; a new file gets 0666 & ~umask"
echo secret >private.txt
chmod 600 private.txt
run presets -o private.txt
expect_rc 0
[ "$(stat -c %a private.txt)" = 600 ] || fail "mode $(stat -c %a private.txt), expected 600"
(umask 027 && timeout "$limit" "$gpuplan" presets -o new.txt)
[ "$(stat -c %a new.txt)" = 640 ] || fail "new file mode $(stat -c %a new.txt), expected 640"

case_ "a 254-byte file name works"
name=$(printf 'n%.0s' $(seq 254))
run presets -o "$name"
expect_rc 0
[ -s "$name" ] || fail "the 254-byte file was not written"
expect_no_temporaries

case_ "a fatal signal while the output is written leaves no temporary file"
ulimit -c 0 # SIGQUIT, SIGXCPU and SIGXFSZ dump core by default
for signal in TERM INT HUP QUIT USR1 USR2 ALRM PIPE XFSZ XCPU VTALRM PROF; do
    echo previous >out.txt
    rm -f hold && mkfifo hold
    # A background job starts with SIGINT ignored; the run must see the default action.
    GPUPLAN_FAULT_HOLD_BEFORE_RENAME=$PWD/hold timeout "$limit" \
        env --default-signal "$gpuplan" presets -o out.txt &
    pid=$!
    for _ in $(seq 200); do
        [ -n "$(find . -name '.gpuplan-*' -size +0)" ] && break
        sleep 0.02
    done
    [ -n "$(find . -name '.gpuplan-*')" ] || fail "$signal: no temporary file appeared"
    kill -s "$signal" "$(pgrep -P "$pid" gpuplan || echo "$pid")"
    { wait "$pid"; } 2>/dev/null
    status=$?
    [ "$status" -ge 128 ] || fail "$signal: exit status $status, expected death by the signal"
    expect_no_temporaries
    [ "$(cat out.txt)" = previous ] || fail "$signal: out.txt changed"
done

case_ "an endless standard input stops at the limit of the input it is (a workload: 1 MiB)"
start=$(date +%s)
yes "# padding" | timeout "$limit" "$gpuplan" recommend - >/dev/null 2>.stderr
rc=$?
err=$(cat .stderr)
expect_rc 3
case "$err" in *"the limit is 1048576 bytes"*) ;; *) fail "stdin limit: $err" ;; esac
[ $(($(date +%s) - start)) -lt 10 ] || fail "took $(($(date +%s) - start)) s to stop reading"

case_ "a full file system (ulimit -f, SIGXFSZ ignored) fails with the real reason"
echo previous >out.txt
(trap '' XFSZ && ulimit -f 1 && exec timeout "$limit" "$gpuplan" catalog list -o out.txt) \
    2>.stderr
rc=$?
err=$(cat .stderr)
expect_rc 1
expect_err "out.txt: error: cannot write file: File too large"
[ "$(cat out.txt)" = previous ] || fail "out.txt changed"
expect_no_temporaries

case_ "two outputs to one file (--chart X -o ./X) are a usage error and write nothing"
run report --preset llama-7b-lora -o r.md --chart ./r.md
expect_rc 2
expect_err "name the same file"
[ ! -e r.md ] || fail "r.md written"

case_ "a partly failed catalog import -o DIR writes no file"
mkdir -p out/gcp.yaml
run catalog import "$source_dir/tests/fixtures/feeds/skypilot/aws_gpu_vms.csv" \
    "$source_dir/tests/fixtures/feeds/skypilot/gcp_gpu_vms.csv" -o out
expect_rc 1
expect_err "is a directory"
[ ! -e out/aws.yaml ] || fail "out/aws.yaml written although gcp.yaml failed"
expect_no_temporaries out

# --- Standard output ------------------------------------------------------------------------

case_ "stdout on a full device exits 1 with No space left on device"
for args in "presets" "--help" "--version" "recommend --preset llama-7b-lora --format json"; do
    # shellcheck disable=SC2086
    timeout "$limit" "$gpuplan" $args >/dev/full 2>.stderr
    rc=$?
    err=$(cat .stderr)
    expect_rc 1
    expect_err "cannot write to standard output: No space left on device"
done

case_ "a closed stdout exits 1 with Bad file descriptor"
for args in "presets" "--help" "catalog validate"; do
    # shellcheck disable=SC2086
    timeout "$limit" "$gpuplan" $args >&- 2>.stderr
    rc=$?
    err=$(cat .stderr)
    expect_rc 1
    expect_err "cannot write to standard output: Bad file descriptor"
done

case_ "a broken pipe with SIGPIPE ignored exits 1 with Broken pipe"
python3 - "$gpuplan" >.result 2>&1 <<'EOF'
import os, signal, subprocess, sys
read_end, write_end = os.pipe()
os.close(read_end)
signal.signal(signal.SIGPIPE, signal.SIG_IGN)
run = subprocess.run([sys.argv[1], "catalog", "list"], stdout=write_end, stderr=subprocess.PIPE,
                     restore_signals=False, timeout=20)
print(run.returncode, run.stderr.decode().strip())
EOF
grep -q "^1 gpuplan: error: cannot write to standard output: Broken pipe" .result ||
    fail "$(cat .result)"

# --- Inputs -------------------------------------------------------------------------------

case_ "a FIFO with no writer, or a device, as any input is refused at once"
mkfifo in.yaml in.csv in.json
for args in "estimate in.yaml" "recommend --preset llama-7b-lora --catalog in.yaml" \
    "recommend --preset llama-7b-lora --catalog in.csv" "check in.json --max-cost 1" \
    "rules check in.yaml" "catalog import in.csv" "catalog validate /dev/zero"; do
    # shellcheck disable=SC2086
    run $args
    expect_rc 1
    expect_err "not a regular file"
done

case_ "an input on standard input is read as '-'"
timeout "$limit" "$gpuplan" estimate - <"$source_dir/tests/fixtures/workloads/finetune-7b.yaml" \
    >.stdout 2>.stderr
rc=$?
err=$(cat .stderr)
expect_rc 0

case_ "a flood of 700,000 unknown keys fails fast, with at most 100 problems printed"
keys() { python3 -c "import sys; sys.stdout.write('schema_version: 1\n' + ''.join(f'k{i}: 1\n' for i in range($1)))"; }
keys 700000 >flood.yaml
start=$(date +%s%N)
run estimate flood.yaml
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
expect_rc 3
expect_err "file too large"
[ "$elapsed_ms" -lt 5000 ] || fail "took $elapsed_ms ms"
keys 20000 >many.yaml
run estimate many.yaml
expect_rc 3
more=$(printf '%s\n' "$err" | sed -n 's/^gpuplan: error: \([0-9]*\) more problems not shown$/\1/p')
[ -n "$more" ] && [ $((more + 100)) -ge 20000 ] || fail "no count of the problems not shown"
[ "$(printf '%s\n' "$err" | wc -l)" -le 101 ] || fail "more than 101 lines on stderr"

case_ "--simulate has an upper bound"
run recommend --preset llama-7b-lora --simulate 100001
expect_rc 2
expect_err "--simulate"

# --- Hostile text ---------------------------------------------------------------------------

case_ "control characters from a feed never reach the terminal raw"
header=InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice
printf '%s\ngpu-h100\033]0;pwned\007\033[2J,H100,1,16,200,2.95,eu-north1,,1.25\n' "$header" \
    >nebius_vms.csv
for format in table markdown; do
    run recommend --preset llama-7b-lora --no-default-catalog --catalog nebius_vms.csv \
        --format "$format"
    expect_rc 0
    if printf '%s%s' "$out" "$err" | LC_ALL=C grep -q "$(printf '[\001-\011\013-\037\177]')"; then
        fail "$format: a raw control character in the output"
    fi
    case "$out" in *'\x1b]0;pwned\x07\x1b[2J'*) ;; *) fail "$format: no visible escape" ;; esac
done
run report --preset llama-7b-lora --no-default-catalog --catalog nebius_vms.csv --chart c.svg
expect_rc 0
python3 "$source_dir/tests/tools/check_svg.py" c.svg >/dev/null || fail "c.svg is not well-formed"

case_ "a NUL in a CSV field is refused"
printf '%s\ngpu-h100\000x,H100,1,16,200,2.95,eu-north1,,1.25\n' "$header" >nebius_vms.csv
run catalog import nebius_vms.csv
expect_rc 3
expect_err "nebius_vms.csv:2:9: error: NUL byte"

# --- Feeds and flags within the catalog's limits --------------------------------------------

case_ "a feed row with AcceleratorCount 1e9, 0 vCPUs or 0 GiB is refused by --catalog and import"
printf '%s\nbig,H100,1e9,16,200,2.95,eu-north1,,1.25\n' "$header" >nebius_vms.csv
for args in "catalog import nebius_vms.csv" \
    "recommend --preset llama-7b-lora --catalog nebius_vms.csv"; do
    # shellcheck disable=SC2086
    run $args
    expect_rc 3
    expect_err "AcceleratorCount: expected an accelerator count of 0 or from 0.01 to 1024, got 1e+09"
done
printf '%s\nnocpu,H100,1,0,200,2.95,eu-north1,,1.25\nnomem,H100,1,16,0,2.95,eu-north1,,1\n' \
    "$header" >nebius_vms.csv
run catalog import nebius_vms.csv
expect_rc 3
expect_err "vCPUs: expected a number of vCPUs from 1"
expect_err "MemoryGiB: expected a memory size above 0"

case_ "a duplicate CSV column is refused"
printf 'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,Price\n' \
    >nebius_vms.csv
printf 'g,H100,1,16,200,2.95,eu-north1,1\n' >>nebius_vms.csv
run catalog import nebius_vms.csv
expect_rc 3
expect_err "duplicate column 'Price' (fields 6 and 8)"

case_ "--gpu-count beyond the default max_gpus and --provider AWS are usage errors"
run recommend --preset llama-7b-lora --gpu-count 2048
expect_rc 2
expect_err "exceeds max_gpus (1024"
run catalog import "$source_dir/tests/fixtures/feeds/skypilot/aws_gpu_vms.csv" --provider AWS
expect_rc 2
expect_err "--provider: expected a lower-case provider id"
case "$err" in *":145:0"*) fail "misplaced diagnostic: $err" ;; esac

case_ "an empty or missing catalog folder is an error; .yml files are read"
mkdir empty
run recommend --preset llama-7b-lora --catalog empty
expect_rc 2
expect_err "no catalog files (*.yaml or *.yml) found in the folder 'empty'"
run recommend --preset llama-7b-lora --catalog missing-folder/
expect_rc 1
mkdir yml && cp "$source_dir/tests/fixtures/catalog/minimal.yaml" yml/minimal.yml
run catalog validate yml
expect_rc 0
case "$out" in *"ok: 1 file valid"*) ;; *) fail "yml/minimal.yml not read: $out" ;; esac

# --- Extreme numbers ------------------------------------------------------------------------

case_ "extreme accepted numbers never print inf, nan, -0.0 or a wrapped integer, and JSON stays valid"
bad_number='\binf\b|\bnan\b|-9223372036854775808|-0\.0\b|(^|[^0-9.])-0([^.0-9]|$)'
sed 's/on_demand: [0-9.]*/on_demand: 1e9/; s/spot: [0-9.]*/spot: -0/' \
    "$source_dir/tests/fixtures/catalog/minimal.yaml" >extreme.yaml
n=0
for args in "estimate --params 1e18 --tokens 1e18" \
    "recommend --params 1e18 --tokens 1e18 --deadline 1e14y --top 0" \
    "recommend --preset llama-7b-lora --deadline 1e14y --budget 1e18 --max-gpus 1000000" \
    "recommend --params 20T --tokens 1T --task train --max-gpus 1000000 --top 3" \
    "recommend --preset llama-7b-lora --catalog extreme.yaml --simulate 20 --top 0" \
    "tco --preset llama-7b-lora --catalog extreme.yaml" \
    "catalog list --catalog extreme.yaml"; do
    for format in table json markdown; do
        # shellcheck disable=SC2086
        run $args --format "$format"
        [ "$rc" = 0 ] || fail "$args --format $format: exit $rc: ${err:0:300}"
        if printf '%s' "$out" | grep -Eiq -- "$bad_number"; then
            fail "$args --format $format: $(printf '%s' "$out" | grep -Eio -- ".{0,30}($bad_number).{0,20}" | head -1)"
        fi
        if [ "$format" = json ]; then
            n=$((n + 1))
            mkdir -p "cases/$n"
            # shellcheck disable=SC2086
            printf '%s\n' $args --format json >"cases/$n/args"
            printf '%s\n' "$out" >"cases/$n/stdout"
        fi
    done
done
python3 "$source_dir/tests/tools/validate_json.py" "$source_dir" cases >.validate 2>&1 ||
    fail "JSON outputs outside their schemas: $(head -c 600 .validate)"

case_ "check refuses plan totals and wall times outside the limits, and --max-cost 1e308"
run recommend --preset llama-7b-lora --format json -o plan.json
python3 -c '
import json
plan = json.load(open("plan.json"))
plan["options"][0]["cost"]["total"] = 1e308
json.dump(plan, open("huge.json", "w"))
plan["options"][0]["cost"]["total"] = 10
plan["options"][0]["wall_hours"] = -1
json.dump(plan, open("negative.json", "w"))
'
run check huge.json --max-cost 100
expect_rc 3
expect_err "/options/0/cost/total: expected a number from -1e+18 to 1e+18, got 1e+308"
run check negative.json --max-cost 100
expect_rc 3
expect_err "/options/0/wall_hours: expected a number from 0 to 1e+18, got -1"
run check plan.json --max-cost 1e308 --format json
expect_rc 2
expect_err "--max-cost: expected an amount up to 1e18"

case_ "fleet of 200 services on 8 GPUs over 120 months answers within --solver-time and says whether it is optimal or its proven gap"
python3 - <<'PY'
lines = ["schema_version: 1", "name: two-hundred", "horizon_months: 120",
         "finance: {discount_rate: 0.10, currency: USD}", "workloads:"]
for i in range(200):
    lines += [f"  - start_month: {i % 120}", "    workload:", "      schema_version: 1",
              f"      name: service-{i}", "      task: inference",
              "      model: {family: transformer, params: 70B, layers: 80, hidden: 8192, heads: 64, kv_heads: 8, seq_len: 4096}",
              "      inference: {requests_per_second: 30, input_tokens: 1024, output_tokens: 256, latency_ms: 20000, hours_per_day: 24}"]
open("portfolio.yaml", "w").write("\n".join(lines) + "\n")
PY
saved_limit=$limit
limit=120 # the solver stops at --solver-time (10 s); pricing the 200 services takes about 2 s in release, more under the sanitizers
run fleet portfolio.yaml --solver-time 10
limit=$saved_limit
expect_rc 0
grep -qE '\((optimal for the model|best found, not proven optimal: the optimum is at least [0-9,.]+ USD, so the plan is at most [0-9.]+% dearer)\)' <<<"$(tr '\n' ' ' <<<"$out" | sed 's/  */ /g')" ||
    fail "the plan does not say whether it is optimal: ${out:0:300}"
grep -q "sensitivity: the 12 workloads with the most" <<<"$out" ||
    fail "the bounded sensitivity analysis is not stated"

if [ "$failures" -gt 0 ]; then
    echo "$failures fault-injection expectation(s) failed" >&2
    exit 1
fi
echo "fault injection: all cases passed"
