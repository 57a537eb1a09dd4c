#!/usr/bin/env bash
# Prints the Debian mirror that the offline image recipes use: SANDPIPER_DEBIAN_MIRROR, else the
# first Debian mirror of this machine's apt sources (a local mirror is enough). Fails when there is
# none.
set -euo pipefail
if [ -n "${SANDPIPER_DEBIAN_MIRROR:-}" ]; then echo "$SANDPIPER_DEBIAN_MIRROR"; exit 0; fi
uri=$( { grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{for (i = 2; i <= NF; i++) print $i}'
         grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list |
             sed -E 's/^deb +(\[[^]]*\] +)?//' | awk '{print $1}'; } |
       grep -v -e security -e '^cdrom:' | grep -i debian | head -n 1) || true
[ -n "$uri" ] || exit 1
echo "${uri%/}"
