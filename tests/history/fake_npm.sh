#!/bin/bash
# A stand-in for npm (QC_NPM) that serves packages from a folder instead of the registry, so that the history
# tests need no network: `view PKG versions --json` prints $FAKE_REGISTRY/PKG/versions.json, `install --prefix P
# ... PKG@V` copies $FAKE_REGISTRY/PKG/V into P/node_modules/PKG with the hidden lockfile npm writes. Every call
# is appended to $FAKE_NPM_LOG.
set -euo pipefail
echo "$*" >> "$FAKE_NPM_LOG"
case "$1" in
  view)
    f="$FAKE_REGISTRY/$2/versions.json"
    [ -f "$f" ] || { echo "npm error code E404"; exit 1; }
    cat "$f" ;;
  install)
    prefix="$3"; spec="${*: -1}"; pkg="${spec%@*}"; ver="${spec##*@}"
    [ -d "$FAKE_REGISTRY/$pkg/$ver" ] || { echo "npm error code ETARGET"; exit 1; }
    mkdir -p "$prefix/node_modules"
    cp -r "$FAKE_REGISTRY/$pkg/$ver" "$prefix/node_modules/$pkg"
    printf '{"lockfileVersion":3,"packages":{"node_modules/%s":{"version":"%s","integrity":"sha512-fake-%s"}}}\n' \
      "$pkg" "$ver" "$ver" > "$prefix/node_modules/.package-lock.json" ;;
  *) echo "fake npm: unexpected '$*'"; exit 1 ;;
esac
