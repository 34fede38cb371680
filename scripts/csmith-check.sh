#!/usr/bin/env bash
# Differential test of cairn's C semantics against native execution.
#
#   scripts/csmith-check.sh N
#
# Takes csmith programs (fixed seeds from $CSMITH_FIRST_SEED, default 1, small
# settings) until N of them terminate natively within 5 s, runs
#   cairn gen prog.c -f main --globals init --check-all-globals
# on each, builds the generated driver with the system compiler and runs it: the
# driver asserts that the final value of every global after `main` equals what
# cairn's engine predicted. Each program is classified:
#
#   pass         the driver reports "K passed, 0 failed" with K >= 1
#   unsupported  cairn reported unsupported constructs and skipped main
#   rejected     cairn refused the file for another reason (exit 2)
#   budget       cairn finished but the engine produced no test for main
#                within its budget (--max-time)
#   panic        cairn crashed (must never happen)
#   hang         cairn ignored its own budget and was killed by timeout
#   bad-driver   the generated driver does not compile
#   mismatch     the driver fails: a real semantics bug. Kept for inspection
#                under $CSMITH_KEEP_DIR (default /tmp/csmith-mismatch)
#
# Prints one line per program, a summary table and the supported fraction
# (pass / N). Exits 1 when any program is panic, hang, bad-driver or mismatch.
#
# Environment: CSMITH_CHECKSUM (1: keep csmith's checksum code in main; default
# 0), CSMITH_FIRST_SEED (1), CSMITH_MAX_TIME (20, engine seconds for
# main), CSMITH_PROFILE (small or medium program settings, default small;
# default: small sizes with csmith's default constructs: bit-fields, packed
# structs, unions, floats, volatiles), CAIRN (path of the binary; default:
# build target/release/cairn).
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ $# -ne 1 || ! $1 =~ ^[0-9]+$ || $1 -eq 0 ]]; then
    echo "usage: $0 N   (N > 0 programs)" >&2
    exit 2
fi
wanted=$1
first_seed=${CSMITH_FIRST_SEED:-1}
max_time=${CSMITH_MAX_TIME:-20}
keep_dir=${CSMITH_KEEP_DIR:-/tmp/csmith-mismatch}
csmith_include=/usr/include/csmith

source scripts/use-cairn.sh

# main takes no arguments and, with NOT_PRINT_CHECKSUM, prints nothing. The
# "small" profile (the default) keeps programs to a few functions, shallow
# blocks and simple expressions, "medium" allows larger ones; both leave out
# floats, bit-fields, unions, packed structs and volatiles. "default" has the
# sizes of "small" and csmith's default constructs.
csmith_options=(--no-argc --concise)
# With CSMITH_CHECKSUM=1, main also computes csmith's CRC of every global
# (a 256-entry table built by a loop, then 8 steps per byte): concrete work.
if [[ ${CSMITH_CHECKSUM:-0} != 1 ]]; then
    csmith_options+=(--no-checksum)
fi
small_sizes=(--max-funcs 3 --max-block-depth 2 --max-block-size 3
    --max-expr-complexity 4 --max-array-dim 1 --max-array-len-per-dim 4
    --max-struct-fields 3 --max-pointer-depth 1)
plain_constructs=(--no-bitfields --no-packed-struct --no-unions --no-float
    --no-volatiles --no-volatile-pointers)
case ${CSMITH_PROFILE:-small} in
small)
    csmith_options+=("${plain_constructs[@]}" "${small_sizes[@]}")
    ;;
medium)
    csmith_options+=("${plain_constructs[@]}" --max-funcs 6 --max-block-depth 3
        --max-block-size 4 --max-expr-complexity 8 --max-array-dim 2
        --max-array-len-per-dim 5 --max-struct-fields 5 --max-pointer-depth 2)
    ;;
default)
    csmith_options+=("${small_sizes[@]}")
    ;;
*)
    echo "CSMITH_PROFILE must be small, medium or default" >&2
    exit 2
    ;;
esac
compile_flags=(-w -DNOT_PRINT_CHECKSUM -I"$csmith_include")

work=$(mktemp -d /tmp/csmith-check.XXXXXX)
trap 'rm -rf "$work"' EXIT

declare -A count=()
declare -A seeds_of=()
categories=(pass unsupported rejected budget panic hang bad-driver mismatch)
for c in "${categories[@]}"; do count[$c]=0; seeds_of[$c]=""; done
skipped_seeds=()
largest_lines=0 largest_seed="" largest_seconds=""
slowest_seconds=0 slowest_seed=""

# Sets `category` and `detail` for one program.
classify() {
    local seed=$1 dir=$2
    local prog=$dir/csmith_$seed.c out=$dir/out
    local rc=0

    local start=$EPOCHREALTIME
    timeout $((max_time * 2 + 60)) "$CAIRN" gen "$prog" -f main --globals init --check-all-globals \
        -I "$csmith_include" -D NOT_PRINT_CHECKSUM --max-time "$max_time" -o "$out" \
        >"$dir/gen.stdout" 2>"$dir/gen.stderr" || rc=$?
    gen_seconds=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')

    if ((rc == 124)); then
        category=hang detail="killed after $((max_time * 2 + 60)) s"
        return
    fi
    if ((rc == 101)) || grep -q 'panicked at' "$dir/gen.stderr"; then
        category=panic detail=$(grep -m1 'panicked at' -A1 "$dir/gen.stderr" | tr '\n' ' ')
        return
    fi
    if ((rc != 0)); then
        if grep -q 'unsupported' "$dir/gen.stderr"; then
            category=unsupported detail=$(grep -m1 'unsupported' "$dir/gen.stderr")
        else
            category=rejected detail=$(head -n1 "$dir/gen.stderr")
        fi
        return
    fi

    local driver=$out/csmith_${seed}_test.c
    if [[ ! -f $driver ]]; then
        category=budget detail="no driver written"
        return
    fi
    if ! cc "${compile_flags[@]}" "$driver" -o "$dir/driver" -lm 2>"$dir/driver.cc.stderr"; then
        category=bad-driver detail=$(grep -m1 'error' "$dir/driver.cc.stderr" || true)
        return
    fi
    local result
    result=$(timeout 10 "$dir/driver" 2>&1 | tail -n 1) || true
    if [[ $result =~ ^([0-9]+)\ passed,\ 0\ failed$ ]]; then
        if ((BASH_REMATCH[1] == 0)); then
            category=budget detail="driver has no test for main"
        else
            category=pass detail=$result
        fi
    else
        category=mismatch detail=${result:-driver printed nothing}
    fi
}

seed=$first_seed
tried=0
printf '%-8s %-12s %6s %8s  %s\n' seed result lines seconds detail
while ((tried < wanted)); do
    dir=$work/$seed
    mkdir -p "$dir"
    prog=$dir/csmith_$seed.c
    # Only programs that build and terminate quickly natively are usable.
    if ! timeout 30 csmith --seed "$seed" "${csmith_options[@]}" -o "$prog" >/dev/null ||
        ! cc "${compile_flags[@]}" "$prog" -o "$dir/native" -lm 2>/dev/null ||
        ! timeout 5 "$dir/native" >/dev/null 2>&1; then
        skipped_seeds+=("$seed")
        rm -rf "$dir"
        seed=$((seed + 1))
        continue
    fi
    tried=$((tried + 1))

    category="" detail="" gen_seconds=0
    classify "$seed" "$dir"
    detail=${detail//"$dir/"/}
    lines=$(wc -l <"$prog")
    count[$category]=$((${count[$category]} + 1))
    seeds_of[$category]+=" $seed"
    printf '%-8s %-12s %6s %8s  %s\n' "$seed" "$category" "$lines" "$gen_seconds" "${detail:0:100}"

    if [[ $category == pass ]]; then
        if ((lines > largest_lines)); then
            largest_lines=$lines largest_seed=$seed largest_seconds=$gen_seconds
        fi
        if awk -v a="$gen_seconds" -v b="$slowest_seconds" 'BEGIN { exit !(a > b) }'; then
            slowest_seconds=$gen_seconds slowest_seed=$seed
        fi
    fi
    case $category in
    mismatch | bad-driver | panic | hang)
        mkdir -p "$keep_dir"
        rm -rf "${keep_dir:?}/$seed"
        cp -r "$dir" "$keep_dir/$seed"
        ;;
    esac
    rm -rf "$dir"
    seed=$((seed + 1))
done

echo
echo "csmith programs: $wanted (seeds $first_seed..$((seed - 1)); ${#skipped_seeds[@]} skipped: no native termination within 5 s)"
echo
echo "| result      | programs | seeds (first 10) |"
echo "|-------------|----------|------------------|"
for c in "${categories[@]}"; do
    first_seeds=$(echo "${seeds_of[$c]}" | awk '{ for (i = 1; i <= NF && i <= 10; i++) printf "%s ", $i }')
    printf '| %-11s | %8d | %s|\n' "$c" "${count[$c]}" "$first_seeds"
done
echo
awk -v p="${count[pass]}" -v n="$wanted" 'BEGIN { printf "supported fraction: %d/%d = %.1f%%\n", p, n, 100 * p / n }'
if [[ -n $largest_seed ]]; then
    echo "largest program handled: seed $largest_seed, $largest_lines lines, cairn gen ${largest_seconds} s"
    echo "slowest program handled: seed $slowest_seed, cairn gen ${slowest_seconds} s"
fi
bad=$((${count[panic]} + ${count[hang]} + ${count[bad-driver]} + ${count[mismatch]}))
if ((bad > 0)); then
    echo "FAILED: $bad programs need attention (kept under $keep_dir)"
    exit 1
fi
