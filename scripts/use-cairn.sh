# Sourced (not run) by the scripts that drive cairn, from the repository root:
# installs what is missing, then sets CAIRN to the release binary, building it
# unless CAIRN already names one.
scripts/setup.sh
if [[ -z ${CAIRN:-} ]]; then
    cargo build --release --quiet -p cairn
    CAIRN=$(realpath "${CARGO_TARGET_DIR:-target}")/release/cairn
fi
