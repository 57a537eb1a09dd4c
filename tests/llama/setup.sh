#!/usr/bin/env bash
# Prepares what the tests labelled "llama" need, once: Debian's real llama.cpp server and a
# tiny model that answers with real tool calls (see make-model.py).
#
#   tests/llama/setup.sh          (scripts/test runs it; cached, a few seconds when ready)
#
# Debian packages llama.cpp only in sid, whose binaries need a newer C library than Debian 12
# and 13 have, so the server lives in a minimal sid root made with mmdebstrap (mirror: the
# host's own apt sources, as for the build root) and runs in it with bubblewrap. The model is
# built from make-model.py and the Qwen2.5 template inside that root, byte for byte the same
# every time. Both are kept under ~/.cache/sandpiper/llama/: the root is rebuilt when its package
# list changes, the model when its recipe does.
#
# When Docker answers, the root is also imported as the runner's image sandpiper-llama:HASH.
#
# When the Debian archive cannot be reached, this says so in llama/unavailable and succeeds:
# the tests then skip with that reason (and fail under CI=true).
source "$(dirname "$0")/../../scripts/lib/common.sh"

LLAMA_DIR="$SANDPIPER_CACHE/llama"
ROOT="$LLAMA_DIR/root"
MODEL="$LLAMA_DIR/tiny.gguf"
HERE="$SANDPIPER_ROOT/tests/llama"
PACKAGES=llama.cpp-tools,python3-gguf,python3-numpy

model_hash() {
    cat "$HERE/make-model.py" "$HERE/qwen2.5-instruct.jinja" | sha256sum | cut -c1-16
}

# Runs a command inside the sid root with this folder visible as /recipe.
in_root() {
    bwrap --bind "$ROOT" / --dev /dev --proc /proc --tmpfs /tmp --ro-bind "$HERE" /recipe \
        --bind "$LLAMA_DIR" /out --chdir /recipe --die-with-parent "$@"
}

build_root() {
    local mirror=$1
    say "creating the llama.cpp test root in $ROOT (once, about a minute)"
    rm -rf "$ROOT" "$ROOT.tmp"
    # A mirror that is a frozen snapshot serves Release files past their Valid-Until date.
    mmdebstrap --variant=apt --quiet \
        --aptopt='Acquire::Check-Valid-Until "false"' \
        --include="$PACKAGES" \
        --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
        --customize-hook='rm -f "$1"/etc/apt/sources.list "$1"/etc/apt/sources.list.d/*' \
        sid "$ROOT.tmp" "deb $mirror sid main"
    echo "$PACKAGES" >"$ROOT.tmp/.complete"
    mv "$ROOT.tmp" "$ROOT"
}

root_ready() { [ "$(cat "$ROOT/.complete" 2>/dev/null)" = "$PACKAGES" ]; }
model_ready() { [ -f "$MODEL" ] && [ "$(cat "$MODEL.hash" 2>/dev/null)" = "$(model_hash)" ]; }

# The same root as the image in which the runner starts llama-server on Docker (tst_containerrunner),
# when Docker answers; cached by its tag.
runner_image() {
    local tag
    root_ready && docker_answers || return 0
    tag=$(llama_image_tag "$PACKAGES")
    docker image inspect "$tag" >/dev/null 2>&1 || import_llama_image "$ROOT" "$tag"
}

main() {
    local mirror
    root_ready && model_ready && { runner_image; return 0; }
    mkdir -p "$LLAMA_DIR"
    rm -f "$LLAMA_DIR/unavailable"
    command -v bwrap >/dev/null || apt_install bubblewrap
    if ! root_ready; then
        command -v mmdebstrap >/dev/null || apt_install mmdebstrap
        command -v curl >/dev/null || apt_install curl
        mirror=$(debian_mirror)
        if ! timeout 30 curl -fsS -o /dev/null "$mirror/dists/sid/InRelease" 2>"$LLAMA_DIR/curl.log"; then
            echo "the Debian archive ($mirror, suite sid) cannot be reached: $(tr -d '\n' <"$LLAMA_DIR/curl.log")" \
                >"$LLAMA_DIR/unavailable"
            say "the llama tests will skip (and fail under CI=true): $(cat "$LLAMA_DIR/unavailable")"
            return 0
        fi
        build_root "$mirror"
    fi
    say "building the tiny test model"
    in_root nice -n 10 python3 /recipe/make-model.py /out/tiny.gguf.tmp >"$LLAMA_DIR/make-model.log" 2>&1 ||
        die "building the model failed; see $LLAMA_DIR/make-model.log"
    mv "$MODEL.tmp" "$MODEL"
    model_hash >"$MODEL.hash"
    runner_image
}

main "$@"
