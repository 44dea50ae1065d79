#!/usr/bin/env bash
# Install everything the project needs on a fresh Debian 12 machine (run as root).
# Idempotent: a second run installs nothing new.  Used by the README's two commands and .ci/run.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
export DEBIAN_FRONTEND=noninteractive

# netperf lives in Debian's non-free component: enable it (and contrib) on the existing
# Debian sources rather than naming any mirror here.
enable_nonfree() {
  local changed=0 f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    if grep -q '^Components:.*\bmain\b' "$f" && ! grep -q '^Components:.*non-free\b' "$f"; then
      sed -i -E '/^Components:/ s/\bmain\b/main contrib non-free/' "$f"; changed=1
    fi
  done
  if [ -f /etc/apt/sources.list ] && grep -qE '^deb .* main' /etc/apt/sources.list \
     && ! grep -qE '^deb .*non-free' /etc/apt/sources.list; then
    sed -i -E '/^deb / s/ main( |$)/ main contrib non-free\1/' /etc/apt/sources.list; changed=1
  fi
  return 0
}

need_apt=()
while read -r pkg; do
  [ -z "$pkg" ] && continue
  case "$pkg" in \#*) continue;; esac
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need_apt+=("$pkg")
done < "$here/scripts/apt-packages.txt"

if [ ${#need_apt[@]} -gt 0 ]; then
  enable_nonfree
  apt-get update -qq
  # netperf's postinst would start a system netserver on port 12865; tests start their own.
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d
  apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
  rm -f /usr/sbin/policy-rc.d
fi

# Python side: the project and its dependencies into the interpreter that runs it.
py=${PYTHON:-python3}
# Checked from / so the current directory cannot stand in for the install, and against this
# checkout's path: an editable install of another checkout does not count.
if ! (cd / && "$py" -c 'import os, sys, verifier, claims, runners, yaml, scipy, dask, pandas
sys.exit(os.path.dirname(os.path.dirname(os.path.abspath(verifier.__file__))) != sys.argv[1])' \
      "$(cd "$here" && pwd -P)") 2>/dev/null \
   || [ "$here/pyproject.toml" -nt "$here/.install-stamp" ]; then
  "$py" -m pip install -q -e "$here[test]"
  touch "$here/.install-stamp"
fi

# The project's bytecode, as a regular pip install writes it: where PYTHONDONTWRITEBYTECODE is
# set (it is on the machines we run on), an editable install would otherwise compile every
# module from source in every process: twice the import CPU, and a compiler's transient of
# several MiB that stays in the peak RSS of a short `verifier extract` run.
"$py" -m compileall -q "$here/claims" "$here/runners" "$here/verifier" >/dev/null
