# A second, "remote" Docker engine on this machine for the tests of issue 18. Sourced by
# scripts/test and scripts/bench after common.sh.
#
# Its filesystem is not this one's: dockerd runs in its own mount namespace with a tmpfs over
# /tmp, $HOME and /run, so a bind mount of a conversation's folder finds an empty folder of the
# engine's own, as on another machine. It has its own network namespace too: a second dockerd in
# the main one removes the main engine's docker0 bridge and breaks every container of it. Its
# state (data root, exec root, pid file, log) is a temporary folder; its socket is in that folder,
# which is bound back into the namespace at the same path after /tmp is hidden, so the build
# environment (which binds /tmp) reaches it at the same address.

REMOTE_ENGINE_DIR=""

# remote_engine_start [--with-image]: starts the engine (with the sandbox image loaded into it
# by `docker save | docker load`, if asked) and exports SANDPIPER_REMOTE_DOCKER_HOST; says why
# not and returns 1 when it cannot.
remote_engine_start() {
    local with_image=${1:-}
    command -v dockerd >/dev/null && command -v unshare >/dev/null || {
        say "no dockerd or unshare here: the remote-engine tests cannot run"; return 1; }
    [ "$(id -u)" -eq 0 ] || { say "the remote engine for the tests needs root (dockerd)"; return 1; }
    remote_engine_remove_stale
    REMOTE_ENGINE_DIR=$(mktemp -d /tmp/sandpiper-engine.XXXXXX)
    local dir=$REMOTE_ENGINE_DIR
    mkdir -p "$dir/data" "$dir/exec"
    echo '{}' >"$dir/daemon.json"
    # The namespace's own view: /tmp, $HOME and /run hidden; the state folder bound back.
    # shellcheck disable=SC2016
    setsid unshare --mount --net --propagation private -- sh -c '
        set -e
        dir=$1 home=$2
        mount --bind "$dir" /mnt
        mount -t tmpfs tmpfs /tmp
        mount -t tmpfs tmpfs /run
        [ "$home" = / ] || mount -t tmpfs tmpfs "$home"
        mkdir -p "$dir"
        mount --move /mnt "$dir"
        ip link set lo up 2>/dev/null || true
        exec dockerd --config-file "$dir/daemon.json" --data-root "$dir/data" --exec-root "$dir/exec" \
            --pidfile "$dir/dockerd.pid" --host "unix://$dir/docker.sock" --bridge=none \
            --iptables=false --ip6tables=false --ip-masq=false --exec-opt native.cgroupdriver=cgroupfs \
            --cgroup-parent sandpiper-remote-engine
    ' sh "$dir" "$HOME" >"$dir/dockerd.log" 2>&1 </dev/null &
    echo $! >"$dir/unshare.pid"
    export SANDPIPER_REMOTE_DOCKER_HOST="unix://$dir/docker.sock"
    local _
    for _ in $(seq 60); do
        DOCKER_HOST=$SANDPIPER_REMOTE_DOCKER_HOST timeout 5 docker version >/dev/null 2>&1 && break
        kill -0 "$(cat "$dir/unshare.pid")" 2>/dev/null || break
        sleep 0.5
    done
    if ! DOCKER_HOST=$SANDPIPER_REMOTE_DOCKER_HOST timeout 5 docker version >/dev/null 2>&1; then
        say "the remote engine did not come up:"; tail -n 5 "$dir/dockerd.log" >&2
        remote_engine_stop; unset SANDPIPER_REMOTE_DOCKER_HOST; return 1
    fi
    local tag
    tag=$(sandbox_image_tag)
    if [ "$with_image" != --with-image ]; then
        remote_engine_check_main
        return 0
    fi
    say "sending $tag to the remote engine (docker save | docker load)"
    if ! docker save "$tag" | DOCKER_HOST=$SANDPIPER_REMOTE_DOCKER_HOST docker load -q >/dev/null; then
        say "could not load $tag into the remote engine"
        remote_engine_stop; unset SANDPIPER_REMOTE_DOCKER_HOST; return 1
    fi
    remote_engine_check_main
}

# remote_engine_stop: stops the engine started above and removes its state.
remote_engine_stop() {
    local dir=$REMOTE_ENGINE_DIR
    [ -n "$dir" ] && [ -d "$dir" ] || return 0
    remote_engine_kill "$dir"
    REMOTE_ENGINE_DIR=""
    remote_engine_check_main
}

remote_engine_kill() {
    local dir=$1 pid _
    pid=$(cat "$dir/unshare.pid" 2>/dev/null || true)
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
        kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -rf "$dir"
}

# Engines that an interrupted run left behind (their dockerd is gone).
remote_engine_remove_stale() {
    local old pid
    for old in /tmp/sandpiper-engine.*; do
        [ -d "$old" ] || continue
        pid=$(cat "$old/unshare.pid" 2>/dev/null || true)
        # An engine of a run that still goes on (another checkout's scripts/test) stays.
        [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && continue
        remote_engine_kill "$old"
    done
}

# The main engine must still run containers after a second one came or went.
remote_engine_check_main() {
    timeout 60 docker run --rm --network none "$(sandbox_image_tag)" true >/dev/null 2>&1 ||
        say "WARNING: the main Docker engine failed to run a container after the remote engine started or stopped"
}
