# Sourced by the set-up scripts: apt_install WHO PACKAGE... installs the
# Debian packages given (none: nothing to do) as root, through sudo when
# not root, and says so on stderr prefixed with WHO.
apt_install() {
    local who=$1
    shift
    (($# > 0)) || return 0
    local as_root=()
    if [[ $(id -u) -ne 0 ]]; then
        if ! command -v sudo >/dev/null 2>&1; then
            echo "$who: need root or sudo to install: $*" >&2
            return 1
        fi
        as_root=(sudo)
    fi
    echo "$who: installing $*"
    "${as_root[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends \
        "$@" >/dev/null
}
