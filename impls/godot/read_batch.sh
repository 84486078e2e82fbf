# Reads one request of the text wire from stdin (Godot's, inherited through OS.execute) and prints it, for
# adapter.gd: GDScript in Godot 3.2 cannot read a pipe (File refuses anything but a regular file, and
# OS.read_string_from_stdin came in 3.4). The header line is read by the shell, which reads byte by byte, so
# nothing past it is taken; then exactly BYTES bytes of case lines by head -c, each hexfloat rewritten as 17
# significant digits (the same double; GDScript's float() reads decimals only) by printf (one call for a batch of 4096 cases).
# Prints nothing at end of input.
IFS= read -r head || exit 0
printf '%s\n' "$head"
set -- $head
[ "$1" = batch ] && [ $# -eq 6 ] || exit 0
case "$4" in slerp_tau.*) k=10 ;; *) k=9 ;; esac
fmt=$(printf '%%.17g %.0s' $(seq "$k"))
head -c "$6" | xargs -s 1000000 -n $((4096 * k)) printf "${fmt% }\n"
