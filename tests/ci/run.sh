#!/usr/bin/env bash
# tools/ci-budget-gate.sh, the script the CI examples run (examples/ci/), against two fixture
# workloads, offline, writing the comment to a file instead of posting it: the comment must name
# both plans' best options (read from their recommend JSON) and the money difference between
# them, and the exit code must be check's verdict. Usage: run.sh GPUPLAN SOURCE_DIR
set -uo pipefail
gpuplan=$1
source_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CONFIG_HOME=$work/config XDG_CACHE_HOME=$work/cache HOME=$work
unset GPUPLAN_ACCEPT_SOFT GPUPLAN_CATALOG GPUPLAN_COLOR GPUPLAN_CURRENCY GPUPLAN_DISCOUNT GPUPLAN_DISCOUNT_RATE GPUPLAN_SOLVER_TIME
gate=$source_dir/tools/ci-budget-gate.sh
base=$source_dir/tests/fixtures/ci/base.yaml
branch=$source_dir/tests/fixtures/ci/branch.yaml
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# What the comment must say, from the plans themselves.
for name in base branch; do
    "$gpuplan" --offline recommend "$source_dir/tests/fixtures/ci/$name.yaml" --format json \
        -o "$work/$name.json" || fail "recommend $name"
done
read -r base_id branch_id difference < <(python3 - "$work/base.json" "$work/branch.json" <<'PY'
import json, sys
base, branch = (json.load(open(path))["options"][0] for path in sys.argv[1:3])
difference = round(branch["cost"]["total"] - base["cost"]["total"], 2)
print(base["id"], branch["id"], f"{'+' if difference >= 0 else '-'}{abs(difference):,.2f}")
PY
)
echo "expected: base $base_id, branch $branch_id, difference $difference USD"
[[ $base_id != "$branch_id" ]] || fail "the fixtures should choose different options"

bash "$gate" --gpuplan "$gpuplan" --offline --workload "$branch" --base-workload "$base" \
    --comment "$work/comment.md" >"$work/out.md" 2>"$work/err.txt"
rc=$?
[[ $rc == 4 ]] || fail "a branch dearer by more than 10% should fail the gate (exit 4), got $rc: $(cat "$work/err.txt")"
comment=$(cat "$work/comment.md")
grep -qF "**$branch_id** (rank 1) of \`$branch\`" <<<"$comment" || fail "the comment does not name the branch's option $branch_id"
grep -qF "option **$base_id** (rank 1)" <<<"$comment" || fail "the comment does not name the base's option $base_id"
grep -qF "Difference: **$difference USD" <<<"$comment" || fail "the comment does not give the difference $difference USD"
grep -q '^<!-- gpuplan-budget-gate -->$' <<<"$comment" || fail "no marker to update the comment in place"
grep -qF "$work" <<<"$comment" && fail "the comment names a temporary file"
grep -qF "no refresh" <<<"$comment" || fail "an offline run should say the prices were not refreshed"
cmp -s "$work/comment.md" "$work/out.md" || fail "the comment printed differs from the file"

bash "$gate" --gpuplan "$gpuplan" --offline --workload "$branch" --base-workload "$base" \
    --max-increase 100000% --comment "$work/pass.md" >/dev/null 2>&1
rc=$?
[[ $rc == 0 ]] || fail "with --max-increase 100000% the gate should pass, got $rc"
grep -q "check passed" "$work/pass.md" || fail "the passing comment does not say passed"

bash "$gate" --gpuplan "$gpuplan" --offline --workload "$work/missing.yaml" --base-workload "$base" \
    --comment "$work/none.md" >/dev/null 2>&1
rc=$?
[[ $rc == 1 ]] || fail "a missing workload should be gpuplan's exit 1, got $rc"
[[ -e $work/none.md ]] && fail "a failed plan should write no comment"
# Posting against a local stand-in of the APIs (tests/ci/fake_api.py): the first run creates the
# comment, the second updates the same one, on GitHub's and on GitLab's URLs.
python3 "$source_dir/tests/ci/fake_api.py" "$work/port" "$work/api.log" &
server=$!
trap 'kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do [[ -s $work/port ]] && break; sleep 0.1; done
port=$(cat "$work/port")
for _ in 1 2; do
    GITHUB_API_URL=http://127.0.0.1:$port GITHUB_REPOSITORY=acme/models PR_NUMBER=12 GH_TOKEN=t1 \
        bash "$gate" --gpuplan "$gpuplan" --offline --workload "$branch" --base-workload "$base" \
        --post github --comment "$work/gh.md" >/dev/null 2>"$work/gh.err"
    [[ $? == 4 ]] || fail "--post github: expected exit 4: $(cat "$work/gh.err")"
done
for _ in 1 2; do
    CI_API_V4_URL=http://127.0.0.1:$port/api/v4 CI_PROJECT_ID=3 CI_MERGE_REQUEST_IID=5 GITLAB_TOKEN=t2 \
        bash "$gate" --gpuplan "$gpuplan" --offline --workload "$branch" --base-workload "$base" \
        --post gitlab --comment "$work/gl.md" >/dev/null 2>"$work/gl.err"
    [[ $? == 4 ]] || fail "--post gitlab: expected exit 4: $(cat "$work/gl.err")"
done
expected_log="GET /repos/acme/models/issues/12/comments?per_page=100 Bearer t1
POST /repos/acme/models/issues/12/comments Bearer t1
GET /repos/acme/models/issues/12/comments?per_page=100 Bearer t1
PATCH /repos/acme/models/issues/comments/7 Bearer t1
GET /api/v4/projects/3/merge_requests/5/notes?per_page=100 t2
PUT /api/v4/projects/3/merge_requests/5/notes/7 t2
GET /api/v4/projects/3/merge_requests/5/notes?per_page=100 t2
PUT /api/v4/projects/3/merge_requests/5/notes/7 t2"
[[ $(cat "$work/api.log") == "$expected_log" ]] ||
    fail "API requests: expected
$expected_log
got
$(cat "$work/api.log")"

((failures == 0)) || { echo "$failures failures"; exit 1; }
echo ok
