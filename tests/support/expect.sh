# Shell helpers of the tests that run the gpuplan executable (tests/fault/run.sh,
# tests/update/run.sh); sourced after setting $gpuplan, $scratch (a private folder) and $limit
# (seconds for any one run). Each failed expectation counts in $failures and names $current.
failures=0

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

expect_out() {
    case "$out" in *"$1"*) ;; *) fail "stdout lacks '$1': ${out:0:400}" ;; esac
}

expect_no_temporaries() {
    local left
    left=$(find "${1:-.}" -name '.gpuplan-*' -o -name '*.tmp.*' | head -5)
    [ -z "$left" ] || fail "temporary files left behind: $left"
}
