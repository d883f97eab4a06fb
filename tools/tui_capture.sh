#!/usr/bin/env bash
# Capture the terminal app at a size: tools/tui_capture.sh NAME COLSxROWS "pasch args" [keys...]
# Writes out/tmux/NAME-COLSxROWS.txt (plain text of the pane after the keys).
set -euo pipefail
name=$1; size=$2; args=$3; shift 3
cols=${size%x*}; rows=${size#*x}
here=$(cd "$(dirname "$0")/.." && pwd)
sess="cap-$$"
data=$(mktemp -d)
tmux new-session -d -s "$sess" -x "$cols" -y "$rows" \
  "cd $here && PASCH_DATA_DIR=$data TERM=xterm-256color .venv/bin/pasch play $args --bot-delay 0; sleep 30"
sleep ${CAPTURE_START:-4}
for k in "$@"; do
  if [[ $k == sleep:* ]]; then sleep "${k#sleep:}"; else tmux send-keys -t "$sess" "$k"; sleep ${KEY_DELAY:-0.4}; fi
done
sleep ${CAPTURE_SETTLE:-1.5}
mkdir -p "$here/out/tmux"
tmux capture-pane -p -t "$sess" > "$here/out/tmux/$name-$size.txt"
tmux kill-session -t "$sess"
rm -rf "$data"
echo "$here/out/tmux/$name-$size.txt"
