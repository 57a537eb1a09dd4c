#!/usr/bin/env bash
# The image in which Sandpiper runs llama.cpp's server on this machine's Docker engine when the
# machine has no llama-server of its own and no registry gives llama.cpp's published one: Debian
# sid's llama.cpp-tools in a root made by mmdebstrap, imported with `docker import` (no registry).
# Settings › Models runs it ("Get llama-server for Docker"), as do scripts/llama-image and
# tests/llama/setup.sh.
#
#   build-image.sh [TAG]            builds from Debian's archive (SANDPIPER_DEBIAN_MIRROR, else
#                                   the Debian mirror of this machine's apt sources); the last
#                                   line says "built TAG"
#   build-image.sh TAG --root DIR   imports DIR, a sid root that already has llama.cpp-tools
#   build-image.sh --tag PACKAGES   the tag of a root of PACKAGES made by this recipe
set -euo pipefail

# What the image says about itself; part of its tag.
changes=(--change 'ENV LANG=C.UTF-8' --change 'USER 65534:65534'
         --change 'ENTRYPOINT ["/usr/bin/llama-server"]')
packages=llama.cpp-tools

# The tag carries a hash of the package list and of what the image says about itself, so an
# image is made again only when either changes.
tag_for() {
    echo "sandpiper-llama:$( { echo "$1"; printf '%s\n' "${changes[@]}"; } | sha256sum | cut -c1-12)"
}

if [ "${1:-}" = --tag ]; then
    tag_for "${2:?usage: build-image.sh --tag PACKAGES}"
    exit 0
fi
tag=${1:-$(tag_for "$packages")}

if [ "${2:-}" = --root ]; then
    root=${3:?usage: build-image.sh TAG --root DIR}
    tar -C "$root" --exclude=./proc --exclude=./sys --exclude=./dev -c . | docker import "${changes[@]}" - "$tag" >/dev/null
    echo "imported $root as $tag"
    exit 0
fi

command -v mmdebstrap >/dev/null || { echo "mmdebstrap is not installed (apt install mmdebstrap)" >&2; exit 1; }
# Without a mirror in the apt sources (another distribution), Debian's own.
mirror=$("$(dirname "$0")/../debian-mirror.sh") || mirror=http://deb.debian.org/debian
# The root goes to a file first: a build that fails half-way imports nothing.
work=$(mktemp -d "${TMPDIR:-/var/tmp}/sandpiper-llama.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "building $tag from Debian sid ($mirror): $packages"
# A mirror that is a frozen snapshot serves Release files past their Valid-Until date.
mmdebstrap --variant=apt --aptopt='Acquire::Check-Valid-Until "false"' --include="$packages" \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/* "$1"/etc/apt/sources.list' \
    sid "$work/root.tar" "deb $mirror sid main"
echo "importing the root into Docker as $tag"
docker import "${changes[@]}" "$work/root.tar" "$tag" >/dev/null
echo "built $tag"
