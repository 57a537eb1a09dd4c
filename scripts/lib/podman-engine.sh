# Rootless podman for the podman sandbox tests (issue 18) and the bench. Sourced by scripts/test
# and scripts/bench after common.sh.
#
# Rootless podman needs a user other than root with subordinate ids (/etc/subuid, /etc/subgid).
# Run as root, this makes one in the build environment (in the build root, or on a Debian 13
# host itself) with ids no user of this machine has, and its podman storage gets the sandbox
# image from the main engine (docker save | podman load), once per image. Run as another user,
# that user's own podman is used. tests/sandbox/run-as-podman-user.sh runs commands as the user.

PODMAN_TEST_USER=sandpiper-podman
PODMAN_AS_USER="$SANDPIPER_ROOT/tests/sandbox/run-as-podman-user.sh"

# podman_engine_start: exports SANDPIPER_PODMAN_USER once the user's podman runs containers and
# has the sandbox image; says why not and returns 1 when it cannot.
podman_engine_start() {
    in_env sh -c 'command -v podman' >/dev/null || {
        say "no podman in the build environment: the podman sandbox tests cannot run"; return 1; }
    if [ "$(id -u)" -eq 0 ]; then
        podman_engine_make_user || return 1
        export SANDPIPER_PODMAN_USER=$PODMAN_TEST_USER
    else
        SANDPIPER_PODMAN_USER=$(id -un)
        export SANDPIPER_PODMAN_USER
    fi
    local tag
    tag=$(sandbox_image_tag)
    if ! podman_as_user podman image exists "$tag"; then
        say "loading $tag into the rootless podman of $SANDPIPER_PODMAN_USER (docker save | podman load, once)"
        if ! docker save "$tag" | podman_as_user podman load -q >/dev/null; then
            say "could not load $tag into podman"; unset SANDPIPER_PODMAN_USER; return 1
        fi
        # Earlier versions of the image go.
        podman_as_user podman images --format '{{.Repository}}:{{.Tag}}' |
            grep "/${tag%%:*}:" | grep -v ":${tag#*:}\$" |
            while read -r old; do podman_as_user podman rmi "$old" >/dev/null 2>&1 || true; done
    fi
    # As the sandbox runs (keep-id): the first such run copies the image's layers for the
    # mapping (some seconds, once), so that no test pays for it.
    if ! podman_as_user podman run --rm --pull never --network none --userns=keep-id "$tag" true; then
        say "rootless podman cannot run a container here (above: why)"; unset SANDPIPER_PODMAN_USER; return 1
    fi
    remote_engine_check_main
}

# podman_engine_stop: ends the user's podman pause process once no container of the user runs.
podman_engine_stop() {
    [ -n "${SANDPIPER_PODMAN_USER:-}" ] || return 0
    # shellcheck disable=SC2016
    podman_as_user sh -c '
        [ -z "$(podman ps -q)" ] || exit 0
        pid=$(cat "$XDG_RUNTIME_DIR/libpod/tmp/pause.pid" 2>/dev/null) || exit 0
        kill "$pid" 2>/dev/null || true' || true
}

# From /tmp, which the user may enter (the build environment starts in the current folder).
podman_as_user() { (cd /tmp && in_env env PODMAN_IGNORE_CGROUPSV1_WARNING=1 "$PODMAN_AS_USER" "$@"); }

# The user, with subordinate ids of its own; runc where crun refuses the machine's cgroups.
podman_engine_make_user() {
    if [ "$(host_kind)" = native ]; then
        say "making the user $PODMAN_TEST_USER on this machine for the rootless podman tests"
    fi
    # shellcheck disable=SC2016
    in_env sh -c '
        set -e
        user=$1
        if ! id -u "$user" >/dev/null 2>&1; then
            # An id and a subordinate range that no user of the host has (the build root shares
            # the kernel with it, so the same number would be the same user).
            id=2931
            while getent passwd "$id" >/dev/null || [ -n "$(awk -F: -v id="$id" "\$3 == id" "$2")" ]; do
                id=$((id + 1))
            done
            useradd --create-home --shell /bin/sh --uid "$id" --user-group \
                -K SUB_UID_MIN=2100000000 -K SUB_UID_MAX=2110000000 \
                -K SUB_GID_MIN=2100000000 -K SUB_GID_MAX=2110000000 "$user"
        fi
        home=$(getent passwd "$user" | cut -d: -f6)
        # crun refuses a hybrid cgroup host whose cgroup v2 hierarchy holds controllers; runc runs.
        mkdir -p "$home/.config/containers"
        if [ -n "$(cat /sys/fs/cgroup/unified/cgroup.controllers 2>/dev/null)" ]; then
            printf "[engine]\nruntime = \"runc\"\n" >"$home/.config/containers/containers.conf"
        else
            rm -f "$home/.config/containers/containers.conf"
        fi
        chown -R "$user:" "$home/.config"
    ' sh "$PODMAN_TEST_USER" "$(podman_host_passwd)"
}

# The host's user list, for the build environment to see (it binds $HOME, where the cache is).
podman_host_passwd() {
    local copy="$SANDPIPER_CACHE/host-passwd"
    mkdir -p "$SANDPIPER_CACHE"
    getent passwd >"$copy"
    echo "$copy"
}
