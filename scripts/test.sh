#!/usr/bin/env bash
# Every test of the workspace, as CI runs it. Idempotent: installs what the tests need from outside cargo
# (python-chess for the perft oracle and the UCI client of tesseract-uci's games, redis-server for the online match over a real relay and
# for the browser tests of two relays sharing Redis, started on loopback and stopped again if this script
# started it), then runs formatting and lint checks, checks that every crate packages, runs the debug-build
# tests (debug assertions on: a validity check after every make and unmake) and, in an optimised build, the
# ignored ones (deep perft counts, the naive generator's perft(3), the python-chess oracle, python-chess
# playing whole games against tesseract-uci) and the test files that go deeper there, then builds the
# browser crates for wasm32 and runs the JavaScript API in node (scripts/wasm.sh: the wasm32 target and
# wasm-bindgen-cli are installed if missing; node 20 or later must be on the PATH), the page's tests in
# headless chromium (scripts/web.sh --test: npm ci, and Debian's chromium if missing; the online ones with
# the optimised build's relay), the C ABI and the Bevy plugin, then the Python bindings' pytest suite in a
# virtual environment (scripts/python.sh: target/py-venv, the package built by pip and maturin in the ci
# profile, with Dask's distributed for tesseract.distributed's clusters), and last the 4D match script that
# the bindings referee (scripts/selfplay_uci_4d.py).
#
# Usage: scripts/test.sh            everything
#        scripts/test.sh --quick    debug-build tests only, no installs
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" == "--quick" ]]; then
    exec cargo test --workspace --all-features
fi

# Each step says how long the one before it took, and the last line the whole run's time.
step_start=$SECONDS
step() {
    printf '\n(%d s)\n== %s\n' "$((SECONDS - step_start))" "$*"
    step_start=$SECONDS
}
stop_redis=
on_exit() {
    printf '\n(%d s)\ntest.sh: %d s in all\n' "$((SECONDS - step_start))" "$SECONDS"
    if [[ -n "$stop_redis" ]]; then redis-cli -h 127.0.0.1 -p 6379 shutdown nosave >/dev/null 2>&1 || true; fi
}
trap on_exit EXIT

# The property tests (proptest) draw fresh cases on every plain `cargo test`, which is how they explore;
# here they draw the same cases every run, so a CI result depends on the commit alone. A failure found
# locally is written to the test's proptest-regressions file, which every later run replays first.
export PROPTEST_RNG_SEED="${PROPTEST_RNG_SEED:-20261201}"

step "installing test dependencies"
if ! python3 -c 'import chess' 2>/dev/null; then
    python3 -m pip install --quiet --disable-pip-version-check chess
fi
python3 -c 'import chess; print("python-chess", chess.__version__)'
# The SAN and PGN oracle tests skip themselves without python-chess; here its absence is a failure.
export TESSERACT_REQUIRE_ORACLE=1
# The C ABI's programs (scripts/ffi.sh) are built with the system's C and C++ compilers, and the `zstd`
# feature (the pgn example's compressed files) builds the zstd C library with its C compiler.
if ! command -v cc >/dev/null || ! command -v c++ >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc g++ >/dev/null
fi
if ! command -v redis-server >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save '' --appendonly no >/dev/null
    stop_redis=1
    for _ in $(seq 50); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.1; done
fi
redis-cli -h 127.0.0.1 -p 6379 ping

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy"
cargo clippy --workspace --all-targets --all-features -- -D warnings

step "publishable: the declared minimum Rust versions hold (scripts/msrv.py), every crate packages and its package builds"
python3 scripts/msrv.py
# `cargo package --workspace` verifies each package against the others through a local registry whose
# sources cargo extracts under registry/src/-<hash>/ and never refreshes while the version (0.1.0) stays:
# a stale copy from an earlier run would be built instead of this checkout's. Only our crates live there.
# The same holds for the packages of an earlier run left in target/package, and for what an earlier run
# compiled from them (cargo never rebuilds a registry crate of the same version).
find "${CARGO_HOME:-$HOME/.cargo}/registry/src" -mindepth 2 -maxdepth 2 -path '*/src/-*/tesseract-*' -exec rm -rf {} + 2>/dev/null || true
rm -rf target/package
for dep in $(grep -l '/registry/src/-[0-9a-f]*/tesseract-' target/debug/deps/*.d 2>/dev/null); do
    stem=$(basename "$dep" .d)
    rm -rf target/debug/deps/"$stem".* target/debug/deps/lib"$stem".* target/debug/.fingerprint/"${stem//_/-}"
done
# Measured here and not kept: the packages built with the test profile's settings (CARGO_PROFILE_DEV_OPT_LEVEL=1,
# line tables), so that the debug tests reuse their dependencies, took 381 s against 236 s, for a test build
# of 473 s against 499 s; without debug information (CARGO_PROFILE_DEV_DEBUG=false), 222 s against 236 s.
cargo package --workspace --quiet --allow-dirty
# The crates whose dependencies are all on crates.io already publish as they are (the others wait for them).
cargo publish --dry-run --quiet --allow-dirty -p tesseract-board

step "the fuzz targets build (fuzz/ is a workspace of its own; running them needs nightly, see fuzz/README.md)"
# A check links nothing, so libfuzzer-sys's build script need not compile libFuzzer's C++ (it does unless
# CUSTOM_LIBFUZZER_PATH names a library to link instead); in the main target directory, the registry
# crates that clippy has just checked are not checked again.
CUSTOM_LIBFUZZER_PATH=/nonexistent/libfuzzer.a CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}" cargo check --quiet --manifest-path fuzz/Cargo.toml

step "tests, debug build"
cargo test --workspace --all-features

# The optimised pass runs the tests the debug pass leaves out (#[ignore]: the deep counts, the oracles, the
# whole games), then again the test files that go deeper in an optimised build (`cfg!(debug_assertions)`
# picks their sizes); every other test has just run, with debug assertions, and would only run again faster.
step "tests, optimised build (profile ci: release without LTO): the ignored deep ones, and the files that go deeper"
# The examples and binaries are built as a plain `cargo test` builds them, for the tests and the steps below
# that run them. Of the test targets, only those that hold an ignored test are compiled again optimised
# (the others would run nothing; compiling every test target took 3.5 minutes more here): the debug build's
# own list of its ignored tests names them, so none is left out, and an ignored test anywhere but in a test
# file of tests/ (a unit test, a binary's) stops the run until this step names its target. The doctests are
# not listed: the one ignored, README.md's Bevy program, cannot compile outside tesseract-bevy
# (scripts/bevy.sh builds the plugin).
cargo build --workspace --all-features --profile ci --examples --bins
listed=$(cargo test --workspace --all-features --lib --bins --tests -- --ignored --list 2>&1) || {
    echo "$listed"
    exit 1
}
ignored_targets=()
while read -r kind name; do
    case $kind in
        test) ignored_targets+=(--test "$name") ;;
        *) echo "test.sh: ignored tests in $name, not a file of tests/: name its target in this step"; exit 1 ;;
    esac
done < <(echo "$listed" | awk '
    /^ *Running / {
        if ($2 ~ /^tests\//) { name = substr($2, 7); sub(/\/main\.rs$/, "", name); sub(/\.rs$/, "", name); target = "test " name }
        else { target = "other " $0 }
        next
    }
    /: test$/ && target != "" { print target }' | sort -u)
[ ${#ignored_targets[@]} -gt 0 ] || { echo "test.sh: the debug build lists no ignored test"; exit 1; }
cargo test --workspace --all-features --profile ci "${ignored_targets[@]}" -- --ignored
cargo test --workspace --all-features --profile ci --test suites --test shapes --test crosscheck --test bitboard \
    --test mate --test tutor --test selfcheck
# The one unit test that picks its size by the build: a stop during tesseract-movegen's perft(6) of chess.
cargo test --all-features --profile ci -p tesseract-movegen --lib -- parallel::tests::a_stopped_count

# The crates compile for wasm32: scripts/wasm.sh builds tesseract-wasm for wasm32-unknown-unknown, and with
# it board, movegen (without its default `parallel` feature), search, tactoe, verify and wire (getrandom's
# browser backend, wasm_js, enabled for that target only), so no separate check is needed.
step "tesseract-wasm in node (scripts/wasm.sh builds web/pkg; the tests run the API in WebAssembly)"
bash scripts/wasm.sh
node --test tesseract-wasm/tests/node/

# After the optimised build: its target/ci/tesseract-relay serves the online tests (built by them otherwise,
# with the relay's own features, which took 2 min 10 s more in CI).
step "the page in a real browser (scripts/web.sh --test: npm ci, Debian's chromium headless, web/tests/; the online tests run the optimised build's tesseract-relay and use Redis)"
TESSERACT_RELAY="${CARGO_TARGET_DIR:-$PWD/target}/ci/tesseract-relay" bash scripts/web.sh --test

step "the C ABI from C and C++ (scripts/ffi.sh: whole engine games under AddressSanitizer and UBSan)"
bash scripts/ffi.sh

step "the Bevy plugin, a package of its own (scripts/bevy.sh: rustfmt, clippy, the headless tests in target/bevy)"
bash scripts/bevy.sh

step "scripts/test_selfplay_uci.py: selfplay_uci.py's summary line (a one-sided bound for all wins or all losses, the exact interval for all draws)"
python3 scripts/test_selfplay_uci.py

step "scripts/selfplay_uci.py (the equal-nodes match of tesseract-search's README) plays four short games (chess and Chess960); rate_uci.py and where_lost.py read committed games; label_samples.py labels tuning samples"
selfplay=$(python3 scripts/selfplay_uci.py --a target/ci/tesseract-uci --b target/ci/tesseract-uci --games 4 --nodes 2000)
echo "$selfplay" | tail -n 1
echo "$selfplay" | grep -Eq '^A vs B: \+[0-9]+ =[0-9]+ -[0-9]+ score [0-9.]+% Elo'
# Two games at a time give the same games and result as one at a time (node budgets).
selfplay_jobs=$(python3 scripts/selfplay_uci.py --a target/ci/tesseract-uci --b target/ci/tesseract-uci --games 4 --nodes 2000 --jobs 2)
[ "$(echo "$selfplay" | sort)" = "$(echo "$selfplay_jobs" | sort)" ] || { echo "--jobs 2 played other games"; exit 1; }
# On a clock, with an option for one side: two games of chess to their end.
clocked=$(python3 scripts/selfplay_uci.py --a target/ci/tesseract-uci --a-option Tier=club --b target/ci/tesseract-uci \
    --games 2 --clock 2+0.05 --classic --pgn target/selfplay_clocked.pgn)
echo "$clocked" | tail -n 2
echo "$clocked" | grep -Eq '^A vs B: \+[0-9]+ =[0-9]+ -[0-9]+ score [0-9.]+% Elo'
echo "$clocked" | grep -Eq '^per move: A [0-9.]+k nodes, depth [0-9.]+, B [0-9.]+k nodes, depth [0-9.]+; lowest clock: A [0-9.]+ s'
# A off the clock at a node budget (--a-nodes), B on the clock: A's nodes stay within the budget, its clock
# is not kept, and the PGN gives each side its own time control; --a-nodes without --clock is refused.
offclock=$(python3 scripts/selfplay_uci.py --a target/ci/tesseract-uci --a-nodes 3000 --b target/ci/tesseract-uci \
    --b-option Tier=beginner --games 2 --clock 2+0.05 --classic --pgn target/selfplay_offclock.pgn)
echo "$offclock" | tail -n 2
echo "$offclock" | grep -Eq '^per move: A ([0-2]\.[0-9]|3\.0)k nodes, depth [0-9.]+, B [0-9.]+k nodes, depth [0-9.]+; lowest clock: A off the clock, B [0-9.]+ s$'
grep -q '^\[WhiteTimeControl "-"\]$' target/selfplay_offclock.pgn
grep -q '^\[BlackTimeControl "2+0.05"\]$' target/selfplay_offclock.pgn
if python3 scripts/selfplay_uci.py --a target/ci/tesseract-uci --a-nodes 3000 --b target/ci/tesseract-uci --games 2 \
    2>target/offclock.err; then echo "--a-nodes without --clock was accepted"; exit 1
elif [ $? -ne 2 ]; then echo "--a-nodes without --clock did not exit with status 2"; exit 1; fi
grep -q 'it needs --clock' target/offclock.err
# The PGN holds both games, which python-chess reads back whole.
python3 -c 'import chess.pgn, sys; f = open(sys.argv[1]); games = [chess.pgn.read_game(f) for _ in range(3)]
assert games[2] is None and all(g.end().board().ply() > 4 and not g.errors for g in games[:2]), games' \
    target/selfplay_clocked.pgn
# The first calibration of tesseract-uci's README, from its committed games (and rate_uci.py's doctests).
python3 -m doctest scripts/rate_uci.py
python3 scripts/rate_uci.py tesseract-uci/data/calibration/*.txt
# The tiers' UCI_Elo labels (engine.rs, TIER_ELO) are the ratings of their games with the engine of 2fb64cb,
# rounded to 5: the three lower tiers' in calibration-2fb64cb/, the master's against 2150 and 2300 in
# after-issue-34/ (441e5f1 searched the same tree).
rated=$(python3 scripts/rate_uci.py tesseract-uci/data/calibration-2fb64cb/*.txt \
    tesseract-uci/data/after-issue-34/master_sf*_10+0.1_{441e5f1,2fb64cb}*.txt)
echo "$rated"
measured=$(echo "$rated" | sed -n 's/^Tier=\([a-z]*\) 10+0.1: .*: Elo \([0-9]*\) \[.*/\1 \2/p' \
    | awk '{ printf "%s %d\n", $1, int(($2 + 2.5) / 5) * 5 }')
labels=$(grep -o 'Tier::[A-Za-z]*, [0-9]*)' tesseract-uci/src/engine.rs | head -n 4 \
    | sed 's/Tier::\([A-Za-z]*\), \([0-9]*\))/\1 \2/' | tr 'A-Z' 'a-z')
[ "$measured" = "$labels" ] && [ "$(echo "$labels" | wc -l)" = 4 ] \
    || { echo "UCI_Elo labels ($labels) are not the measured ratings ($measured)"; exit 1; }
# The master at its own node budget against Stockfish at 2300 (tesseract-uci's README, "At the tier's own
# budget"): rate_uci.py names the match apart from the clocked ones and gives the README's figure.
python3 scripts/rate_uci.py tesseract-uci/data/after-issue-34/master-budget_sf2300_10+0.1_seed*.txt \
    | grep -qx 'Tier=master A at 100000000 nodes, B on 10+0.1: 80 games +16 =41 -23 (45.6% of 80 vs 2300): Elo 2270 \[2215, 2323\]' \
    || { echo "the master's games at its node budget do not rate as the README says"; exit 1; }
# With the 160 games of 28628eb (the same tree; seeds 3 to 6, other openings): 240 games.
python3 scripts/rate_uci.py tesseract-uci/data/after-issue-34/master-budget_sf2300_10+0.1_*seed*.txt \
    | grep -qx 'Tier=master A at 100000000 nodes, B on 10+0.1: 240 games +61 =105 -74 (47.3% of 240 vs 2300): Elo 2281 \[2248, 2314\]' \
    || { echo "the master's 240 games at its node budget do not rate as the README says"; exit 1; }
# With the opposite-colored bishops of 6bd0065 (built at 708b3d4), seeds 7 and 8: 80 games.
python3 scripts/rate_uci.py tesseract-uci/data/after-issue-34/master-budget-708b3d4_*seed*.txt \
    | grep -qx 'Tier=master A at 100000000 nodes, B on 10+0.1: 80 games +21 =34 -25 (47.5% of 80 vs 2300): Elo 2283 \[2223, 2341\]' \
    || { echo "708b3d4's games at the master's node budget do not rate as the README says"; exit 1; }
# Singular extensions (a patch of dd63838, not adopted), the same openings: 80 games.
python3 scripts/rate_uci.py tesseract-uci/data/after-issue-34/master-budget-singular-dd63838_*seed*.txt \
    | grep -qx 'Tier=master A at 100000000 nodes, B on 10+0.1: 80 games +24 =27 -29 (46.9% of 80 vs 2300): Elo 2278 \[2214, 2341\]' \
    || { echo "the singular extensions' games at the master's node budget do not rate as the README says"; exit 1; }
# The soft limit paced by the iterations (db191c2 with the chess master paced by the patch beside the games, not
# adopted), the same openings: 80 games.
python3 scripts/rate_uci.py tesseract-uci/data/after-issue-34/master-budget-paced-db191c2_*seed*.txt \
    | grep -qx 'Tier=master A at 100000000 nodes, B on 10+0.1: 80 games +17 =36 -27 (43.8% of 80 vs 2300): Elo 2256 \[2198, 2313\]' \
    || { echo "the paced master's games at its node budget do not rate as the README says"; exit 1; }
# scripts/where_lost.py judges the expert's moves of the master-expert games (+17 =3 -0) with tesseract-uci
# as the judge (Stockfish is not installed here): all 20 games not won by the expert, the 17 lost ones
# (each ends in mate) mostly found at -150 or below for good (how many depends on the judge's evaluation
# at 500 nodes: 17 by a9b5960's, 16 by f63b396's and by the king's cover's), and the three phases.
judged=$(python3 scripts/where_lost.py --stockfish target/ci/tesseract-uci --engine Tier=expert --nodes 500 \
    --list 2 --jobs 2 tesseract-uci/data/calibration-2d-search/master_expert_10+0.1.pgn)
echo "$judged" | tail -n 8
[ "$(echo "$judged" | grep -c ' round [0-9]*: scored ')" = 20 ] || { echo "where_lost.py: a line a game expected"; exit 1; }
echo "$judged" | grep -q '^games judged: 20 of 20 (those the engine did not win), by target/ci/tesseract-uci at 500 nodes a position, from ply 5$' \
    || { echo "where_lost.py: the count of games judged"; exit 1; }
for phase in opening middlegame endgame; do
    echo "$judged" | grep -Eq "^$phase: [0-9]+ moves, [0-9]+ cp lost, [0-9.]+ a move$" \
        || { echo "where_lost.py: the $phase line"; exit 1; }
done
echo "$judged" | grep -Eq '^lost games: 1[5-7], at -150 or below for good from ply [0-9.]+ \(median\), [0-9.]+ pieces; by ply 30: [0-9]+; with 24 pieces or more: [0-9]+$' \
    || { echo "where_lost.py: the lost games' line"; exit 1; }
# A reader that has gone away (`true` reads nothing and ends at once, long before the judging ends): quiet,
# exit code 141, as after `| head -1`.
set +o pipefail
python3 scripts/where_lost.py --stockfish target/ci/tesseract-uci --engine Tier=expert --nodes 200 \
    tesseract-uci/data/calibration-2d-search/master_expert_10+0.1.pgn 2>target/where_lost.err | true
status=${PIPESTATUS[0]}
set -o pipefail
[ "$status" = 141 ] && [ ! -s target/where_lost.err ] \
    || { echo "where_lost.py | head -1: exit $status"; cat target/where_lost.err; exit 1; }
# Both players' names holding --engine is refused (exit 2), as is a file that is not there.
for bad in "--engine tesseract tesseract-uci/data/calibration-2d-search/master_expert_10+0.1.pgn" "no-such.pgn"; do
    if python3 scripts/where_lost.py --stockfish target/ci/tesseract-uci $bad 2>/dev/null; then
        echo "where_lost.py accepted $bad"; exit 1
    elif [ $? -ne 2 ]; then echo "where_lost.py: $bad did not exit with status 2"; exit 1; fi
done
# scripts/label_samples.py labels tuning samples by a judge (tesseract-uci here, Stockfish for the fit of
# tesseract-search's README): the same lines whatever --jobs, every result a fraction from 0 to 1 beside its
# position, a weight of 0 leaving the results as they were, and the tuner reads the labels.
target/ci/examples/tune --start classic --games 4 --nodes 300 --random-plies 6 --skip 10 --every 4 --passes 0 \
    --only value --write-samples target/label-in.txt >/dev/null
label() { python3 scripts/label_samples.py --engine target/ci/tesseract-uci --nodes 2000 "$@" 2>target/label.err \
    || { echo "label_samples.py $*: exit $?"; cat target/label.err; exit 1; }; }
label target/label-in.txt target/label-1.txt
label --jobs 2 target/label-in.txt target/label-2.txt
cmp target/label-1.txt target/label-2.txt || { echo "label_samples.py: --jobs 2 labelled otherwise"; exit 1; }
[ "$(cut -d' ' -f2- target/label-1.txt)" = "$(cut -d' ' -f2- target/label-in.txt)" ] \
    && [ "$(wc -l < target/label-1.txt)" -ge 10 ] \
    && ! grep -Evq '^(0\.[0-9]{4}|1\.0000) ' target/label-1.txt \
    && [ "$(cut -d' ' -f1 target/label-1.txt | sort -u | wc -l)" -ge 5 ] \
    || { echo "label_samples.py: the labels"; head -n 3 target/label-1.txt; exit 1; }
label --weight 0 target/label-in.txt target/label-0.txt
[ "$(awk '{ printf "%g\n", $1 }' target/label-0.txt)" = "$(cut -d' ' -f1 target/label-in.txt)" ] \
    || { echo "label_samples.py: --weight 0 changed a result"; exit 1; }
fitted=$(target/ci/examples/tune --start classic --passes 1 --only value --samples target/label-1.txt)
echo "$fitted" | grep '^samples ' >/dev/null || { echo "tune: the labelled samples were not read"; exit 1; }
# An output that is a symlink, a FIFO or in a missing folder is refused before any work; nothing is replaced.
rm -rf target/label-paths && mkdir target/label-paths && echo kept > target/label-paths/target.txt
ln -s target.txt target/label-paths/link.txt && mkfifo target/label-paths/fifo
for out in link.txt fifo no-folder/x.txt; do
    if python3 scripts/label_samples.py --engine target/ci/tesseract-uci target/label-in.txt "target/label-paths/$out" 2>/dev/null; then
        echo "label_samples.py wrote $out"; exit 1
    elif [ $? -ne 2 ]; then echo "label_samples.py: $out did not exit with status 2"; exit 1; fi
done
[ "$(cat target/label-paths/target.txt)" = kept ] && [ -L target/label-paths/link.txt ] && [ -p target/label-paths/fifo ] \
    || { echo "label_samples.py changed a path it refused"; exit 1; }
for bad in "--engine no-such-engine target/label-in.txt target/label-x.txt" "--engine target/ci/tesseract-uci scripts/test.sh target/label-x.txt"; do
    if python3 scripts/label_samples.py $bad 2>/dev/null; then
        echo "label_samples.py accepted $bad"; exit 1
    elif [ $? -ne 2 ]; then echo "label_samples.py: $bad did not exit with status 2"; exit 1; fi
done
# scripts/opposite_bishops.py (tesseract-search's README, "Opposite-colored bishops"): the samples each
# selection keeps (a bishop and pawns a side, the bishops' squares of opposite colors or of one), and the
# comparison of label files with a reference's.
printf '%s\n' '1 4k3/pp6/3b4/8/8/8/PPP5/4KB2 w - - 0 1' '0.5 2b1k3/pp6/8/8/8/8/PPP5/4KB2 w - - 0 1' \
    '0 4k3/pp6/3b4/8/8/8/PPP5/3RKB2 w - - 0 1' '1 4k3/8/3b4/8/8/8/PP6/4KB2 b - - 0 1' \
    '0.5 4k3/pp6/3b4/8/8/8/PPP5/3QKB2 w - - 0 1' '0.5 4k3/pp6/3b4/8/8/8/PPP5/RN1NKB2 w - - 0 1' \
    '0.5 4k3/pp6/3b4/8/8/8/PPP5/3NKB2 w - - 0 1' > target/ocb-in.txt
python3 scripts/opposite_bishops.py select target/ocb-in.txt target/ocb-out.txt \
    | grep -qx 'kept 2 samples of opposite-colored bishops' || { echo "opposite_bishops.py select: the count"; exit 1; }
[ "$(cat target/ocb-out.txt)" = "$(sed -n '1p;4p' target/ocb-in.txt)" ] || { echo "opposite_bishops.py select: the samples"; exit 1; }
python3 scripts/opposite_bishops.py select --one-color target/ocb-in.txt target/one-out.txt >/dev/null
[ "$(cat target/one-out.txt)" = "$(sed -n '2p' target/ocb-in.txt)" ] || { echo "opposite_bishops.py select --one-color"; exit 1; }
# Endings (at most three pieces a side, no queen): all but the fifth (a queen) and the sixth (four pieces);
# --limit 3 keeps three of them, each once, the same three again with the same --seed.
python3 scripts/opposite_bishops.py select --endgame target/ocb-in.txt target/eg-all.txt >/dev/null
[ "$(cat target/eg-all.txt)" = "$(sed -n '1,4p;7p' target/ocb-in.txt)" ] || { echo "opposite_bishops.py select --endgame"; exit 1; }
python3 scripts/opposite_bishops.py select --endgame --limit 3 --seed 4 target/ocb-in.txt target/eg-out.txt \
    | grep -qx 'kept 3 samples of endgames' && [ "$(sort -u target/eg-out.txt | wc -l)" = 3 ] \
    && [ -z "$(sort target/eg-out.txt | comm -23 - <(sort target/eg-all.txt))" ] \
    || { echo "opposite_bishops.py select --endgame --limit 3"; exit 1; }
python3 scripts/opposite_bishops.py select --endgame --limit 3 --seed 4 target/ocb-in.txt target/eg-again.txt >/dev/null
cmp -s target/eg-out.txt target/eg-again.txt || { echo "opposite_bishops.py select: --seed 4 twice, two choices"; exit 1; }
fens=$(cut -d' ' -f2- target/ocb-out.txt)
paste -d' ' <(printf '0.5000\n0.9000\n') <(echo "$fens") > target/ocb-ref.txt
paste -d' ' <(printf '0.8000\n0.9000\n') <(echo "$fens") > target/ocb-labels.txt
compared=$(python3 scripts/opposite_bishops.py compare target/ocb-ref.txt target/ocb-ref.txt target/ocb-labels.txt)
echo "$compared" | grep -qx 'target/ocb-ref.txt: 2 samples, 1 level, 1 decided' \
    && echo "$compared" | grep -qx 'target/ocb-ref.txt: error 0.0000, at its best scale 0.0000 (x1.00); level called won or lost 0 of 1; decided given to the same side 1 of 1' \
    && echo "$compared" | grep -Eqx 'target/ocb-labels.txt: error 0.0450, at its best scale 0\.0[0-9]{3} \(x[0-9.]+\); level called won or lost 1 of 1; decided given to the same side 1 of 1' \
    || { echo "opposite_bishops.py compare:"; echo "$compared"; exit 1; }
# Labels of other positions, or a file that is not there: exit status 2; so is writing over the input.
for bad in "compare target/ocb-ref.txt target/ocb-in.txt" "compare target/ocb-ref.txt no-such.txt" \
    "select target/ocb-ref.txt target/ocb-ref.txt"; do
    if python3 scripts/opposite_bishops.py $bad >/dev/null 2>&1; then
        echo "opposite_bishops.py $bad was accepted"; exit 1
    elif [ $? -ne 2 ]; then echo "opposite_bishops.py $bad did not exit with status 2"; exit 1; fi
done
[ "$(wc -l < target/ocb-ref.txt)" = 2 ] || { echo "opposite_bishops.py select wrote over its input"; exit 1; }
# A UCI option the engine does not have is refused before any game, with exit status 2.
if python3 scripts/selfplay_uci.py --a target/ci/tesseract-uci --a-option NoSuchOption=1 --b target/ci/tesseract-uci \
    --games 2 --nodes 100 2>/dev/null; then echo "an unknown option was accepted"; exit 1
elif [ $? -ne 2 ]; then echo "an unknown option did not exit with status 2"; exit 1; fi

step "scripts/suites_uci.py (the test suites of tesseract-search's README) agrees with the epd example, position by position"
suite=tesseract-search/tests/data/suites/pet.epd
by_uci=$(python3 scripts/suites_uci.py --engine target/ci/tesseract-uci --nodes 20000 "$suite")
by_epd=$(target/ci/examples/epd --file "$suite" --nodes 20000)
echo "$by_uci" | tail -n 1
# "pet.epd ID solved|missed MOVE" against "ID solved|missed MOVE cp|mate N"; the totals "solved N of 48" alike.
uci_moves=$(echo "$by_uci" | sed -n 's/^pet\.epd \(.* \(solved\|missed\) [a-h1-8qrbn]*\)$/\1/p')
epd_moves=$(echo "$by_epd" | sed -n 's/^\(.* \(solved\|missed\) [a-h1-8qrbn]*\) \(cp\|mate\) -\?[0-9]*$/\1/p')
[ "$(echo "$uci_moves" | wc -l)" = 48 ] && [ "$(echo "$epd_moves" | wc -l)" = 48 ] \
    || { echo "a line a position was expected from each"; exit 1; }
[ "$uci_moves" = "$epd_moves" ] || { echo "suites_uci.py and the epd example disagree"; exit 1; }
[ "$(echo "$by_uci" | tail -n 1)" = "$(echo "$by_epd" | tail -n 1)" ] || { echo "the totals differ"; exit 1; }
echo "$by_uci" | tail -n 1 | grep -Eq '^solved [0-9]+ of 48$'

step "Python bindings in a virtual environment: pytest (scripts/python.sh builds tesseract-py with maturin, profile ci)"
bash scripts/python.sh

step "scripts/selfplay_uci_4d.py (the 4D match of two tesseract-uci builds, the README) plays four short games, refereed by tesseract-py"
py=target/py-venv/bin/python
selfplay_4d=$($py scripts/selfplay_uci_4d.py --a target/ci/tesseract-uci --b target/ci/tesseract-uci --games 4 --nodes 1000)
echo "$selfplay_4d" | tail -n 2
echo "$selfplay_4d" | grep -Eq '^A vs B: \+[0-9]+ =[0-9]+ -[0-9]+ score [0-9.]+% Elo'
# Games 1 to 4 of the 5⁴ board (a TFEN start: 4D ranks between slashes), each with moves played, searched.
for g in 1 2 3 4; do
    echo "$selfplay_4d" | grep -Eq "^game $g A=(white|black) (1-0|0-1|1/2-1/2) plies [1-9][0-9]* start [^ ]+//" \
        || { echo "no line for 4D game $g"; exit 1; }
done
echo "$selfplay_4d" | grep -Eq '^per move: A [0-9.]+k nodes, depth ([1-9]|0\.[1-9])[0-9.]*, B [0-9.]+k nodes, depth ([1-9]|0\.[1-9])' \
    || { echo "the engines did not search"; exit 1; }
selfplay_4d_jobs=$($py scripts/selfplay_uci_4d.py --a target/ci/tesseract-uci --b target/ci/tesseract-uci --games 4 --nodes 1000 --jobs 2)
[ "$(echo "$selfplay_4d" | sort)" = "$(echo "$selfplay_4d_jobs" | sort)" ] || { echo "--jobs 2 played other 4D games"; exit 1; }
# An option the engine lacks, and a value it refuses, stop the match before any game with status 2.
for case in "NoSuchOption=1|has no option 'NoSuchOption'" "Hash=abc|info string error .*setoption Hash"; do
    option=${case%%|*} message=${case#*|}
    if $py scripts/selfplay_uci_4d.py --a target/ci/tesseract-uci --a-option "$option" --b target/ci/tesseract-uci \
        --games 2 --nodes 100 >/dev/null 2>target/selfplay-4d.err; then echo "$option was accepted"; exit 1
    elif [ $? -ne 2 ]; then echo "$option did not exit with status 2"; exit 1; fi
    grep -Eq "^error: engine .*$message" target/selfplay-4d.err \
        || { echo "$option: not the expected error"; cat target/selfplay-4d.err; exit 1; }
done
# Engines that fail mid-game (one plays a move that is not legal, one goes away at its first search) stop
# the match with status 2, one game at a time and from a worker of --jobs 2.
for case in 'print("bestmove 11111111", flush=True)|played .11111111. after' 'sys.exit(3)|went away \(exit code 3\)'; do
    fault=${case%%|*} message=${case#*|}
    cat > target/fake-uci-4d <<FAKE
#!/usr/bin/env python3
import sys
for line in sys.stdin:
    if line == "uci\n":
        print("option name UCI_Variant type combo default chess var chess var tesseract\nuciok", flush=True)
    elif line.startswith("isready"):
        print("readyok", flush=True)
    elif line.startswith("go"):
        $fault
    elif line.startswith("quit"):
        break
FAKE
    chmod +x target/fake-uci-4d
    for jobs in 1 2; do
        if $py scripts/selfplay_uci_4d.py --a target/fake-uci-4d --b target/ci/tesseract-uci --games 4 --nodes 100 \
            --jobs $jobs >/dev/null 2>target/fake-uci-4d.err; then echo "a failing engine ($fault) was not caught"; exit 1
        elif [ $? -ne 2 ]; then echo "a failing engine ($fault) did not give status 2"; cat target/fake-uci-4d.err; exit 1; fi
        grep -Eq "^error: engine 'target/fake-uci-4d' $message" target/fake-uci-4d.err \
            || { echo "not the expected error for the failing engine ($fault)"; cat target/fake-uci-4d.err; exit 1; }
    done
done
