#!/usr/bin/env bash
# Builds the standard sandbox image without a registry: a Debian 13 root made by mmdebstrap
# from Debian's packages (packages.txt beside this file), imported with `docker import`.
# Usage: build-offline.sh TAG   (SANDPIPER_DEBIAN_MIRROR names the Debian mirror to use)
set -euo pipefail
tag=${1:?usage: build-offline.sh TAG}
mirror=${SANDPIPER_DEBIAN_MIRROR:?set SANDPIPER_DEBIAN_MIRROR to a Debian mirror URL}
here=$(cd "$(dirname "$0")" && pwd)
packages=$(grep -v '^\s*\(#\|$\)' "$here/packages.txt" | paste -sd,)

# Matplotlib's font list is built once here, so that a fresh container does not spend a
# second on it; the kernel copies it into its writable config folder.
mmdebstrap --variant=apt --quiet --include="$packages" \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --customize-hook='chroot "$1" env MPLCONFIGDIR=/usr/share/sandpiper/matplotlib python3 -c "import matplotlib.pyplot"' \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*' \
    trixie - "deb $mirror trixie main" |
    docker import \
        --change 'ENV LANG=C.UTF-8' \
        --change 'ENV PYTHONDONTWRITEBYTECODE=1' \
        --change 'ENV MPLBACKEND=Agg' \
        --change 'ENV SANDPIPER_MPL_CACHE=/usr/share/sandpiper/matplotlib' \
        --change 'WORKDIR /mnt/data' \
        --change 'CMD ["python3"]' \
        - "$tag"
echo "built $tag"
