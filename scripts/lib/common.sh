# Shared set-up for scripts/run, test, bench, shell and cli. Sourced, not executed.
#
# Sandpiper needs Qt >= 6.5, KF6 SyntaxHighlighting, QCoro and QtKeychain. On Debian 13 or
# newer the packages are installed natively. On older Debian hosts a Debian 13 build root
# is created once with mmdebstrap and every build, test and run happens inside it with
# bubblewrap; the repository, $HOME, /tmp and the Docker socket are bound at the same paths,
# so paths handed to Docker mean the same thing on both sides.

set -euo pipefail

SANDPIPER_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SANDPIPER_CACHE=${SANDPIPER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sandpiper}
BUILDROOT_PACKAGES="$SANDPIPER_ROOT/scripts/buildroot-packages.txt"
# The sanitized Debug build: a report ends the program (and fails its test). Leaks are not
# looked for: the libraries below Qt keep caches to the end by design, and a leak crashes no one.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:detect_stack_use_after_return=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

say() { printf '\033[1m[sandpiper]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[sandpiper]\033[0m %s\n' "$*" >&2; exit 1; }

package_list() { grep -v '^\s*\(#\|$\)' "$1"; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

apt_install() {
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    say "installing ${missing[*]}"
    as_root apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
}

# 'native' when the host's own packages are new enough, 'buildroot' on older Debian,
# 'unsupported' elsewhere (then the user installs the README's packages and we build as is).
host_kind() {
    if [ -n "${SANDPIPER_HOST_KIND:-}" ]; then echo "$SANDPIPER_HOST_KIND"; return; fi
    local id="" version=0
    if [ -r /etc/os-release ]; then
        id=$(. /etc/os-release && echo "${ID:-}")
        version=$(. /etc/os-release && echo "${VERSION_ID:-0}" | cut -d. -f1)
    fi
    if [ "$id" = debian ] && [ "${version:-0}" -lt 13 ] 2>/dev/null; then echo buildroot
    elif [ "$id" = debian ] || [ "$id" = ubuntu ]; then echo native
    else echo unsupported; fi
}

# The Debian mirror the host already uses (its own apt sources), or SANDPIPER_DEBIAN_MIRROR.
debian_mirror() {
    "$SANDPIPER_ROOT/sandbox/debian-mirror.sh" ||
        die "no Debian mirror in the apt sources; set SANDPIPER_DEBIAN_MIRROR"
}

buildroot_dir() {
    local hash
    hash=$(package_list "$BUILDROOT_PACKAGES" | sha256sum | cut -c1-16)
    echo "$SANDPIPER_CACHE/buildroot-$hash"
}

ensure_buildroot() {
    local dir
    dir=$(buildroot_dir)
    if [ -f "$dir/.complete" ]; then
        touch "$dir/.last-used"
        return 0
    fi
    [ "$(id -u)" -eq 0 ] || die "creating the Debian 13 build root needs root once (run this script with sudo)"
    apt_install mmdebstrap bubblewrap
    say "creating the Debian 13 build root in $dir (once, about a minute)"
    rm -rf "$dir" "$dir.tmp"
    mkdir -p "$SANDPIPER_CACHE"
    mmdebstrap --variant=apt --quiet \
        --include="$(package_list "$BUILDROOT_PACKAGES" | paste -sd,)" \
        --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
        trixie "$dir.tmp" "deb $(debian_mirror) trixie main"
    touch "$dir.tmp/.complete" "$dir.tmp/.last-used"
    mv "$dir.tmp" "$dir"
    # Build roots of other package lists go once no checkout has used them for a week (another
    # checkout or branch may still build in one).
    find "$SANDPIPER_CACHE" -maxdepth 1 -name 'buildroot-*' ! -path "$dir" ! -name '*.tmp' |
        while read -r old; do
            [ -n "$(find "$old/.last-used" -mtime -7 2>/dev/null)" ] || rm -rf "$old"
        done
}

ensure_native_packages() {
    # shellcheck disable=SC2046
    apt_install $(package_list "$BUILDROOT_PACKAGES")
}

# Runs a command in the build environment: inside the build root on old hosts, else here.
in_env() {
    if [ "$(host_kind)" != buildroot ]; then "$@"; return; fi
    local dir args=()
    dir=$(buildroot_dir)
    args=(--bind "$dir" / --dev-bind /dev /dev --proc /proc --ro-bind /sys /sys
          --bind /tmp /tmp --bind "$HOME" "$HOME" --bind "$SANDPIPER_ROOT" "$SANDPIPER_ROOT"
          --ro-bind /etc/resolv.conf /etc/resolv.conf --die-with-parent --chdir "$PWD")
    [ -S /run/docker.sock ] && args+=(--bind /run/docker.sock /run/docker.sock)
    [ -d /tmp/.X11-unix ] || mkdir -p /tmp/.X11-unix
    bwrap "${args[@]}" "$@"
}

ensure_build_environment() {
    case "$(host_kind)" in
        buildroot) ensure_buildroot ;;
        native) ensure_native_packages ;;
        *) say "unknown distribution: install the packages listed in README.md; building as is" ;;
    esac
}

# --- Docker ----------------------------------------------------------------------------

docker_answers() { timeout 20 docker info >/dev/null 2>&1; }

ensure_docker() {
    docker_answers && return 0
    if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
        say "Docker is not reachable; tests that need it will skip (install and start Docker, see README.md)"
        return 0
    fi
    command -v dockerd >/dev/null || apt_install docker.io
    command -v docker >/dev/null || apt_install docker.io
    mkdir -p "$SANDPIPER_CACHE"
    say "starting dockerd (log: $SANDPIPER_CACHE/dockerd.log)"
    setsid nohup dockerd >"$SANDPIPER_CACHE/dockerd.log" 2>&1 </dev/null &
    for _ in $(seq 60); do
        docker_answers && return 0
        sleep 1
    done
    die "dockerd did not come up; see $SANDPIPER_CACHE/dockerd.log"
}

# The image tag carries a hash of its definition, the same one CMake compiles into the app.
sandbox_image_tag() {
    local h
    h=$(for f in "$SANDPIPER_ROOT"/sandbox/image/packages.txt "$SANDPIPER_ROOT"/sandbox/image/build-offline.sh; do
            sha256sum <"$f" | cut -c1-64
        done | tr -d '\n' | sha256sum | cut -c1-12)
    echo "sandpiper-sandbox:$h"
}

ensure_sandbox_image() {
    docker_answers || return 0
    local tag
    tag=$(sandbox_image_tag)
    docker image inspect "$tag" >/dev/null 2>&1 && return 0
    say "building the sandbox image $tag from Debian packages (about a minute)"
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then apt_install mmdebstrap; fi
    command -v mmdebstrap >/dev/null ||
        die "mmdebstrap is needed to build the sandbox image offline; or run: docker build -t $tag sandbox/"
    SANDPIPER_DEBIAN_MIRROR=$(debian_mirror) "$SANDPIPER_ROOT/sandbox/image/build-offline.sh" "$tag"
}

# --- llama.cpp's server in a container (issue 26) ------------------------------------------

# The image that runs llama-server when the machine has none of its own: Debian sid's
# llama.cpp-tools in a root imported with `docker import` (no registry). The recipe is
# sandbox/llama/build-image.sh, which the app runs too (Settings › Models); the app uses the
# newest sandpiper-llama image it finds. The tag carries a hash of the recipe's image settings
# and of the root's package list, so an image is made again only when either changes.
LLAMA_IMAGE_REPOSITORY=sandpiper-llama
LLAMA_IMAGE_RECIPE="$SANDPIPER_ROOT/sandbox/llama/build-image.sh"

llama_image_tag() { "$LLAMA_IMAGE_RECIPE" --tag "$1"; }

# import_llama_image ROOT TAG: the image from a sid root that has llama.cpp-tools (the one
# tests/llama/setup.sh keeps, so CI makes no second root).
import_llama_image() {
    local root=$1 tag=$2
    say "importing $root as the llama.cpp runner image $tag"
    "$LLAMA_IMAGE_RECIPE" "$tag" --root "$root" >/dev/null
}

# build_llama_image: the runner image for users, from Debian's archive (the host's mirror or
# SANDPIPER_DEBIAN_MIRROR): llama.cpp-tools alone. Prints the tag.
build_llama_image() {
    local tag
    tag=$(llama_image_tag llama.cpp-tools)
    if docker image inspect "$tag" >/dev/null 2>&1; then echo "$tag"; return 0; fi
    command -v mmdebstrap >/dev/null || apt_install mmdebstrap
    say "building the llama.cpp runner image $tag from Debian sid (about a minute)"
    SANDPIPER_DEBIAN_MIRROR=$(debian_mirror) "$LLAMA_IMAGE_RECIPE" "$tag" >&2
    echo "$tag"
}

# ensure_llama_runner: on a machine without llama-server (on PATH here or in the build root),
# the runner's image, so that the welcome page's local model runs at the first click (once,
# cached; a failure only means that the local model needs a llama-server of its own).
ensure_llama_runner() {
    docker_answers || return 0
    command -v llama-server >/dev/null && return 0
    in_env sh -c 'command -v llama-server' >/dev/null 2>&1 && return 0
    [ -n "$(docker image ls -q "$LLAMA_IMAGE_REPOSITORY" 2>/dev/null)" ] && return 0
    say "no llama-server here: building the image that runs a local model in Docker (once)"
    build_llama_image >/dev/null || say "the runner's image could not be built; see Settings › Models"
}

# --- MCP reference servers --------------------------------------------------------------

# The MCP servers the tests start (tests/core/tst_mcp*), from npm, pinned: installed once into
# the cache, then used as they are, without the network.
MCP_SERVERS_DIR="$SANDPIPER_CACHE/npm"
MCP_SERVER_PACKAGES="@modelcontextprotocol/server-everything@2026.8.31 @modelcontextprotocol/server-filesystem@2026.8.31"

ensure_mcp_servers() {
    local stamp
    stamp="$MCP_SERVERS_DIR/.installed-$(echo "$MCP_SERVER_PACKAGES" | sha256sum | cut -c1-12)"
    [ -f "$stamp" ] && return 0
    say "installing the MCP reference servers with npm into $MCP_SERVERS_DIR"
    mkdir -p "$MCP_SERVERS_DIR"
    # The host's npm where there is one: it trusts what the host trusts (a company's proxy CA).
    # The packages are plain JavaScript, so the build root's node runs them all the same.
    local npm=(in_env npm)
    command -v npm >/dev/null && npm=(npm)
    # shellcheck disable=SC2086
    if "${npm[@]}" install --prefix "$MCP_SERVERS_DIR" --no-audit --no-fund --loglevel=error \
        $MCP_SERVER_PACKAGES >&2; then
        touch "$stamp"
    else
        say "npm could not install the MCP reference servers; the MCP tests will fail in CI and skip elsewhere"
    fi
}

# --- Building ---------------------------------------------------------------------------

# configure_and_build BUILD_DIR BUILD_TYPE [TARGET...]
configure_and_build() {
    local dir=$1 type=$2
    shift 2
    local cmake_args=(-S "$SANDPIPER_ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="$type"
                      -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    [ "${CI:-}" = true ] && cmake_args+=(-DSANDPIPER_WERROR=ON)
    # The Debug build (scripts/test, run and cli) carries the sanitizers: tests find memory
    # errors before users do.
    [ "$type" = Debug ] && cmake_args+=(-DSANDPIPER_SANITIZE=ON)
    if [ ! -f "$dir/build.ninja" ] || [ "${CI:-}" = true ]; then
        in_env cmake "${cmake_args[@]}" >/dev/null
    fi
    if [ $# -gt 0 ]; then
        in_env cmake --build "$dir" --target "$@"
    else
        in_env cmake --build "$dir"
    fi
}
