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
cd "$scratch" || exit 1
failures=0
limit=20 # seconds for any one run; the slowest case takes well under 2

fail() {
    echo "FAIL: $current: $*" >&2
    failures=$((failures + 1))
}

# run ARGS...: runs gpuplan, sets $rc, $out (stdout) and $err (stderr).
run() {
    timeout "$limit" "$gpuplan" "$@" >"$scratch/.out" 2>"$scratch/.err"
    rc=$?
    out=$(cat "$scratch/.out")
    err=$(cat "$scratch/.err")
}

expect_rc() {
    [ "$rc" = "$1" ] || fail "exit code $rc, expected $1 (stderr: ${err:0:400})"
}

expect_err() {
    case "$err" in *"$1"*) ;; *) fail "stderr lacks '$1': ${err:0:400}" ;; esac
}

expect_no_temporaries() {
    local left
    left=$(find "${1:-.}" -name '.gpuplan-*' -o -name '*.tmp.*' | head -5)
    [ -z "$left" ] || fail "temporary files left behind: $left"
}

case_() {
    current=$1
    rm -rf "$scratch/case" && mkdir "$scratch/case" && cd "$scratch/case" || exit 1
}

# --- Output files ---------------------------------------------------------------------------

case_ "a character device as -o is refused and stays a device"
mknod fakefull c 1 7
run presets -o fakefull
expect_rc 1
expect_err "fakefull: error: refusing to replace a character device"
[ -c fakefull ] || fail "fakefull is no longer a character device"

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

case_ "SIGTERM, SIGINT or SIGHUP while the output is written leaves no temporary file"
for signal in TERM INT HUP; do
    echo previous >out.txt
    rm -f hold && mkfifo hold
    # A background job starts with SIGINT ignored; the run must see the default action.
    GPUPLAN_FAULT_HOLD_BEFORE_RENAME=$PWD/hold timeout "$limit" \
        env --default-signal=INT,TERM,HUP "$gpuplan" presets -o out.txt &
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

if [ "$failures" -gt 0 ]; then
    echo "$failures fault-injection expectation(s) failed" >&2
    exit 1
fi
echo "fault injection: all cases passed"
