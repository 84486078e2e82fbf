# Shared by the tests of quatcheck installed into a temporary prefix (sourced after tests/lib.sh; not a test itself):
#   install_prefix          cmake --install of the build into $tmp/prefix, which it sets as prefix
#   c_adapter_project       install_prefix, and the C adapter copied to $tmp/proj/tools/adapter for a CMake project
#   run_hidden WHAT ARG...  bash $tmp/inner.sh ARG... with the source tree and build folder hidden (a private mount
#                           namespace) where that is permitted, in place otherwise; fails with "WHAT failed ..."
# Needs: build, src, tmp and fail of tests/lib.sh.
install_prefix() {  # the build installed into $tmp/prefix (sets prefix)
  prefix="$tmp/prefix"
  cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" || { cat "$tmp/install.log"; fail "cmake --install failed"; }
}
c_adapter_project() {  # the installed prefix, and $tmp/proj/tools/adapter: the reference C adapter
  [ -x "$build/process/c_adapter" ] || fail "$build/process/c_adapter is not built"
  install_prefix
  mkdir -p "$tmp/proj/tools"
  cp "$build/process/c_adapter" "$tmp/proj/tools/adapter"
}
run_hidden() {  # WHAT ARG...: $tmp/inner.sh run with the checkout out of reach where permitted
  local what="$1"
  shift
  local hide=(mount -t tmpfs -o size=1m qc-hidden "$src")
  case "$build/" in "$src"/*) ;; *) hide+=(\&\& mount -t tmpfs -o size=1m qc-hidden "$build") ;; esac
  if unshare --mount true 2>/dev/null; then
    unshare --mount bash -c "${hide[*]} && bash '$tmp/inner.sh' $(printf "'%s' " "$@")" \
      || fail "$what failed with the checkout hidden (above)"
    echo "checked with the source tree and build folder hidden"
  else
    echo "note: unshare --mount is not permitted here: the checks run with the checkout in place (cwd outside it)"
    bash "$tmp/inner.sh" "$@" || fail "$what failed (above)"
  fi
}
