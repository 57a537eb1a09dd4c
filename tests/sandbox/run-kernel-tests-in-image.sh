#!/bin/sh
# Runs the kernel's unittest suite inside the sandbox image, as the app starts the kernel:
# read-only root, no network, an unprivileged user. Exit 77 (skipped) without Docker, unless CI.
image=$1
root=$2
if ! docker image inspect "$image" >/dev/null 2>&1; then
    echo "Docker or the sandbox image $image is not available"
    [ "${CI:-}" = true ] && exit 1
    exit 77
fi
exec docker run --rm -i --network none --read-only --tmpfs /tmp:size=256m --cap-drop ALL \
    --security-opt no-new-privileges --pids-limit 256 --user 65534:65534 -e HOME=/tmp \
    -e SANDPIPER_REQUIRE_SCIENCE=1 \
    -v "$root/sandbox/kernel:/opt/kernel:ro" -v "$root/tests/sandbox/kernel:/opt/tests:ro" \
    "$image" python3 /opt/tests/test_kernel.py --kernel /opt/kernel/kernel.py
