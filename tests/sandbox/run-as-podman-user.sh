#!/bin/sh
# Runs COMMAND... as the user of the rootless podman that scripts/test set up
# (scripts/lib/podman-engine.sh names it in SANDPIPER_PODMAN_USER), with podman as the sandbox's
# docker client. Without SANDPIPER_PODMAN_USER the command runs as it is (the podman tests then
# say podman is not set up); as that user itself, it runs with podman as the client.
#
# As root in the bubblewrap build root two things stand in rootless podman's way, and only there
# this script works around them: bubblewrap sets no_new_privs, which disarms the setuid bit of
# newuidmap/newgidmap (they map the user's subordinate ids), and it mounts /proc with read-only
# submounts, so the kernel refuses a fresh /proc to a container in a user namespace. So: a mount
# namespace of its own with a fresh /proc and shared propagation, and the user keeps CAP_SETUID
# and CAP_SETGID as ambient capabilities for newuidmap. The containers get none of them: they run
# in a user namespace of their own, with --cap-drop ALL.
set -eu
user=${SANDPIPER_PODMAN_USER:-}
if [ -z "$user" ]; then
    exec "$@"
fi
export SANDPIPER_DOCKER=podman
if [ "$(id -u)" -ne 0 ]; then
    exec "$@"
fi
uid=$(id -u "$user")
gid=$(id -g "$user")
home=$(getent passwd "$user" | cut -d: -f6)
# Where podman keeps its runtime state: stable, so that every run finds the same (podman checks).
runtime=/tmp/sandpiper-podman-$uid
if [ ! -d "$runtime" ]; then
    mkdir -m 700 "$runtime"
    chown "$uid:$gid" "$runtime"
fi
if [ -L "$runtime" ] || [ "$(stat -c %u "$runtime")" != "$uid" ]; then
    echo "$runtime is not the podman test user's own folder" >&2
    exit 1
fi
caps=""
if grep -q '^NoNewPrivs:[[:space:]]*1' /proc/self/status; then
    caps="--inh-caps=+setuid,+setgid --ambient-caps=+setuid,+setgid"
fi
# shellcheck disable=SC2016
exec unshare --mount --propagation private -- sh -c '
    set -e
    uid=$1 gid=$2 home=$3 user=$4 runtime=$5 caps=$6
    shift 6
    mount -t proc proc /proc
    as_user() { setpriv --reuid "$uid" --regid "$gid" --init-groups "$@"; }
    # Folders on the way to the program that the user may not enter (a checkout in root'"'"'s home):
    # here only, each is covered by a tmpfs that holds just the way on, bound from the original
    # with everything mounted below it (the build root binds the checkout into such a folder).
    case $1 in */*)
        dir=$(cd "$(dirname "$1")" && pwd -P) way="" rest=${dir#/}
        while [ -n "$rest" ]; do
            part=${rest%%/*}
            case $rest in */*) rest=${rest#*/} ;; *) rest="" ;; esac
            if ! as_user test -x "${way:-/}"; then
                hold=$(mktemp -d /tmp/sandpiper-hold.XXXXXX)
                mount --rbind "$way/$part" "$hold"
                mount -t tmpfs -o mode=0755 tmpfs "$way"
                mkdir "$way/$part"
                mount --move "$hold" "$way/$part"
                rmdir "$hold"
            fi
            way=$way/$part
        done
        if ! as_user test -x "$1"; then
            echo "the podman test user $user cannot run $1 (built under a umask that keeps" \
                "other users out? scripts/test builds under umask 022; remove the build folder)" >&2
            exit 1
        fi
    esac
    mount --make-rshared /
    # From the home folder: podman joins the mount namespace of its pause process, which may
    # lack the covers above, and it starts in the current folder.
    cd "$home"
    # shellcheck disable=SC2086
    exec setpriv --reuid "$uid" --regid "$gid" --init-groups $caps \
        env HOME="$home" USER="$user" LOGNAME="$user" XDG_RUNTIME_DIR="$runtime" "$@"
' sh "$uid" "$gid" "$home" "$user" "$runtime" "$caps" "$@"
