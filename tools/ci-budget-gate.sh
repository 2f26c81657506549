#!/usr/bin/env bash
# The budget gate of a pull/merge request, as examples/ci/github-actions.yml and
# examples/ci/gitlab-ci.yml run it (docs/ci.md):
#   1. refresh prices (gpuplan catalog update); when that fails, plan with the embedded catalog
#      (--offline) and say so in the comment, without the price-age check;
#   2. plan the branch's workload and the base branch's (recommend --format json);
#   3. check the branch's plan against the base's (check --compare-to --format markdown);
#   4. write the comment to a file, and post it or update the earlier one on the PR/MR.
# Exits with check's code: 0 pass, 4 gate failed (other codes: gpuplan's errors).
#
# Usage: ci-budget-gate.sh --workload FILE --base-workload FILE [options]
#   --max-increase LIMIT   allowed cost increase over the base: 10% (default) or an amount
#   --max-cost AMOUNT      also a limit on the branch's total cost
#   --max-catalog-age AGE  price age limit when prices were refreshed (default 90d; "" = none)
#   --offline              skip the price refresh (the embedded catalog)
#   --comment FILE         where the comment is written (default gpuplan-comment.md)
#   --post github|gitlab|none   post or update one comment (default none)
#   --gpuplan PATH         the gpuplan binary (default: gpuplan on PATH)
# Posting (curl and python3): github reads GH_TOKEN, GITHUB_REPOSITORY, PR_NUMBER and
# GITHUB_API_URL (default https://api.github.com); gitlab reads CI_API_V4_URL, CI_PROJECT_ID,
# CI_MERGE_REQUEST_IID and GITLAB_TOKEN (a token with the api scope).
set -uo pipefail

gpuplan=gpuplan workload='' base='' max_increase=10% max_cost='' max_age=90d offline=0
comment=gpuplan-comment.md post=none
while (($#)); do
    case $1 in
    --workload) workload=$2; shift ;;
    --base-workload) base=$2; shift ;;
    --max-increase) max_increase=$2; shift ;;
    --max-cost) max_cost=$2; shift ;;
    --max-catalog-age) max_age=$2; shift ;;
    --offline) offline=1 ;;
    --comment) comment=$2; shift ;;
    --post) post=$2; shift ;;
    --gpuplan) gpuplan=$2; shift ;;
    *) echo "ci-budget-gate: unknown argument '$1'" >&2; exit 2 ;;
    esac
    shift
done
[[ -n $workload && -n $base ]] || { echo "ci-budget-gate: give --workload and --base-workload" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. Prices.
prices_note=''
common=()
if ((offline)) || ! "$gpuplan" catalog update >&2; then
    common=(--offline)
    prices_note="> Prices: the catalog embedded in gpuplan $("$gpuplan" --version | cut -d' ' -f2) (no refresh), so the price-age check is left out."
    max_age=''
fi

# 2. Plans.
"$gpuplan" "${common[@]}" recommend "$workload" --format json -o "$work/head.json" || exit
"$gpuplan" "${common[@]}" recommend "$base" --format json -o "$work/base.json" || exit

# 3. The gate.
args=(check "$work/head.json" --compare-to "$work/base.json" --max-increase "$max_increase"
    --format markdown -o "$work/check.md")
[[ -n $max_cost ]] && args+=(--max-cost "$max_cost")
[[ -n $max_age ]] && args+=(--max-catalog-age "$max_age")
"$gpuplan" "${common[@]}" "${args[@]}"
verdict=$?
((verdict == 0 || verdict == 4)) || exit "$verdict"

marker='<!-- gpuplan-budget-gate -->'
{
    echo "$marker"
    # The plan files are temporary: name them by the workloads they came from.
    sed -e "s|$work/head.json|$workload|g" -e "s|$work/base.json|$base (base branch)|g" "$work/check.md"
    [[ -n $prices_note ]] && printf '\n%s\n' "$prices_note"
} >"$comment"

# 4. One comment per PR/MR, updated in place: the first comment that starts with the marker is
# replaced, else a new one is created (the platforms' REST APIs, with curl and python3).
upsert() { # LIST_URL CREATE_URL UPDATE_URL_PREFIX UPDATE_METHOD, with ${auth[@]}
    local id
    id=$(curl -fsS "${auth[@]}" "$1" | python3 -c '
import json, sys
marker = sys.argv[1]
print(next((str(c["id"]) for c in json.load(sys.stdin) if c["body"].startswith(marker)), ""))' "$marker") ||
        return 1
    python3 -c 'import json, sys; print(json.dumps({"body": open(sys.argv[1]).read()}))' \
        "$comment" >"$work/body.json" || return 1
    if [[ -n $id ]]; then
        curl -fsS -X "$4" "${auth[@]}" -H 'Content-Type: application/json' \
            --data-binary "@$work/body.json" "$3/$id" >/dev/null
    else
        curl -fsS -X POST "${auth[@]}" -H 'Content-Type: application/json' \
            --data-binary "@$work/body.json" "$2" >/dev/null
    fi
}
case $post in
none) ;;
github)
    api="${GITHUB_API_URL:-https://api.github.com}/repos/${GITHUB_REPOSITORY:?}/issues"
    auth=(-H "Authorization: Bearer ${GH_TOKEN:?}" -H 'Accept: application/vnd.github+json')
    upsert "$api/${PR_NUMBER:?}/comments?per_page=100" "$api/$PR_NUMBER/comments" \
        "$api/comments" PATCH || { echo "ci-budget-gate: posting the comment failed" >&2; exit 1; }
    ;;
gitlab)
    api="${CI_API_V4_URL:?}/projects/${CI_PROJECT_ID:?}/merge_requests/${CI_MERGE_REQUEST_IID:?}/notes"
    auth=(-H "PRIVATE-TOKEN: ${GITLAB_TOKEN:?}")
    upsert "$api?per_page=100" "$api" "$api" PUT ||
        { echo "ci-budget-gate: posting the comment failed" >&2; exit 1; }
    ;;
*) echo "ci-budget-gate: --post: expected github, gitlab or none, got '$post'" >&2; exit 2 ;;
esac
cat "$comment"
exit "$verdict"
