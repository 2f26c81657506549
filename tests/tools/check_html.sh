#!/bin/sh
# Loads an HTML page in headless Chromium on a phone's screen (375 px, emulated through the
# DevTools protocol by phone_check.mjs, which also takes a screenshot) and in a desktop window
# (1200 px), and checks with the browser's own layout (a measuring script added to a copy of the
# page, its findings read back through the protocol or --dump-dom) that the page does not scroll
# sideways, that every table is in a box that scrolls sideways (so a wide table is never cut:
# overflow-x auto) and that box ends inside the window, and that every text label of every
# inline SVG stays inside that SVG's box.
# Usage: check_html.sh PAGE.html SCRATCH_DIR [GPUPLAN REPORT-ARGS...]: with GPUPLAN, the page is
# first written by `GPUPLAN REPORT-ARGS... --format html -o PAGE.html`. Exit 0 when both widths
# pass, 1 otherwise. Chromium's flags keep it off the network (the test machine has none).
set -u
page=$1
scratch=$2
shift 2
mkdir -p "$scratch"
if [ "$#" -gt 0 ]; then
    "$@" --format html -o "$page" || { echo "$page: gpuplan failed"; exit 1; }
fi
probe="$scratch/probe.html"
# The measuring script goes just before </body>, after everything it measures.
sed 's|</body>|<script>addEventListener("load",function(){var p=[];var w=document.documentElement.scrollWidth;if(w>innerWidth)p.push("page "+w+" px wide in a "+innerWidth+" px window");document.querySelectorAll("svg").forEach(function(s,i){var b=s.getBoundingClientRect();s.querySelectorAll("text").forEach(function(t){var r=t.getBoundingClientRect();if(r.left<b.left-0.5\|\|r.right>b.right+0.5\|\|r.top<b.top-0.5\|\|r.bottom>b.bottom+0.5)p.push("svg "+i+": label \\""+t.textContent+"\\" outside its box");});});document.querySelectorAll("table").forEach(function(t,i){var c=t.parentElement,x=getComputedStyle(c).overflowX;if(x!="auto"\&\&x!="scroll")p.push("table "+i+": not in a box that scrolls sideways");else if(c.getBoundingClientRect().right>innerWidth+0.5)p.push("table "+i+": its box ends past the window");});var o=document.createElement("pre");o.id="gpuplan-check";o.textContent=p.length?p.join("\\n"):"ok";document.body.appendChild(o);});</script></body>|' "$page" >"$probe"
status=0
# The phone: 375 px emulated through the DevTools protocol (phone_check.mjs), since headless
# Chromium opens no window narrower than 500 px; its screenshot is scratch/screenshot-375.png.
phone=375
profile=$(mktemp -d "$scratch/profile.XXXXXX")
result=$(timeout 90 "${GPUPLAN_NODE:-node}" "$(dirname "$0")/phone_check.mjs" "file://$probe" \
    "$phone" "$scratch/screenshot-$phone.png" "$profile" 2>&1)
if [ "$result" != "ok" ]; then
    echo "$page at $phone px: ${result:-the phone check printed nothing}"
    status=1
fi
if [ ! -s "$scratch/screenshot-$phone.png" ]; then
    echo "$page: no screenshot at $phone px"
    status=1
fi
# The desktop: a 1200 px window, its findings read back with --dump-dom.
for width in 1200; do
    profile=$(mktemp -d "$scratch/profile.XXXXXX")
    set -- --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$profile" --window-size="$width,900" --virtual-time-budget=1000
    result=$(timeout 60 chromium "$@" --dump-dom "file://$probe" 2>/dev/null |
        sed -n '/<pre id="gpuplan-check">/,/<\/pre>/p' | sed 's/<[^>]*>//g')
    if [ "$result" != "ok" ]; then
        echo "$page at $width px: ${result:-the measuring script did not run}"
        status=1
    fi
done
[ "$status" -eq 0 ] && echo "$page: ok at $phone (phone, emulated) and 1200 px"
exit "$status"
