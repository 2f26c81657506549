#!/bin/sh
# Loads an HTML page in headless Chromium at a phone width (asks for 390 px; headless Chromium
# opens no window narrower than 500 px, and the findings name the width measured) and a desktop
# width (1200 px), takes a screenshot, and checks with the browser's own layout (a measuring script added to
# a copy of the page, its findings read back with --dump-dom) that the page does not scroll
# sideways and that every text label of every inline SVG stays inside that SVG's box.
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
sed 's|</body>|<script>addEventListener("load",function(){var p=[];var w=document.documentElement.scrollWidth;if(w>innerWidth)p.push("page "+w+" px wide in a "+innerWidth+" px window");document.querySelectorAll("svg").forEach(function(s,i){var b=s.getBoundingClientRect();s.querySelectorAll("text").forEach(function(t){var r=t.getBoundingClientRect();if(r.left<b.left-0.5\|\|r.right>b.right+0.5\|\|r.top<b.top-0.5\|\|r.bottom>b.bottom+0.5)p.push("svg "+i+": label \\""+t.textContent+"\\" outside its box");});});var o=document.createElement("pre");o.id="gpuplan-check";o.textContent=p.length?p.join("\\n"):"ok";document.body.appendChild(o);});</script></body>|' "$page" >"$probe"
status=0
for width in 390 1200; do
    profile=$(mktemp -d "$scratch/profile.XXXXXX")
    set -- --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$profile" --window-size="$width,900" --virtual-time-budget=1000
    # One screenshot, of the phone width, for a person to look at (scratch/screenshot-390.png).
    if [ "$width" -eq 390 ]; then
        timeout 60 chromium "$@" --screenshot="$scratch/screenshot-$width.png" "file://$probe" \
            >/dev/null 2>&1
        if [ ! -s "$scratch/screenshot-$width.png" ]; then
            echo "$page: no screenshot at $width px"
            status=1
        fi
    fi
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
[ "$status" -eq 0 ] && echo "$page: ok at 390 and 1200 px"
exit "$status"
