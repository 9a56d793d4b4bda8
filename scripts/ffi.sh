#!/usr/bin/env bash
# The C ABI as C and C++ programs use it: builds tesseract-ffi (profile ci), checks that the programs in
# tesseract-ffi/examples compile without a warning against the checked-in header, links the C program
# to the static library and the C++ one to the shared library, and runs them under AddressSanitizer
# (leak detection on) and UndefinedBehaviorSanitizer (any report fails): whole games engine against
# engine in chess, 4D Tesseract and Chess960, each ending with a "result: ... after N plies" line.
#
# Usage: scripts/ffi.sh   (needs cc and c++: gcc or clang)
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
cargo build --quiet --profile ci -p tesseract-ffi
lib="$target/ci"
out="$target/ffi"
mkdir -p "$out"
sanitize=(-g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
cc -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wpedantic -Werror "${sanitize[@]}" -I tesseract-ffi/include \
    tesseract-ffi/examples/c/engine_game.c "$lib/libtesseract_ffi.a" -lpthread -ldl -lm -o "$out/engine_game_c"
c++ -std=c++17 -Wall -Wextra -Wpedantic -Werror "${sanitize[@]}" -I tesseract-ffi/include \
    tesseract-ffi/examples/cpp/engine_game.cpp -L "$lib" -ltesseract_ffi -Wl,-rpath,"$(cd "$lib" && pwd)" \
    -o "$out/engine_game_cpp"
# The README's whole program (the first C block of tesseract-ffi/README.md), which the root README shows too.
awk '/^```c$/ {inside = 1; next} inside && /^```$/ {exit} inside' tesseract-ffi/README.md > "$out/readme_game.c"
grep -q 'int main' "$out/readme_game.c" || { echo "no program in tesseract-ffi/README.md"; exit 1; }
python3 -c 'import sys; sys.exit(open(sys.argv[1]).read() not in open("README.md").read())' "$out/readme_game.c" \
    || { echo "README.md's C program differs from tesseract-ffi/README.md's"; exit 1; }
cc -std=c99 -Wall -Wextra -Wpedantic -Werror "${sanitize[@]}" -I tesseract-ffi/include "$out/readme_game.c" \
    "$lib/libtesseract_ffi.a" -lpthread -ldl -lm -o "$out/readme_game"
# The header compiles on its own as C99 and as C++11.
echo '#include "tesseract.h"' | cc -std=c99 -Wall -Wextra -Wpedantic -Werror -I tesseract-ffi/include -x c -fsyntax-only -
echo '#include "tesseract.h"' | c++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -I tesseract-ffi/include -x c++ -fsyntax-only -

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
run() {
    echo "\$ $*"
    local output
    output=$("$@")
    echo "$output" | awk 'length($0) < 200'   # all but the game's moves
    echo "$output" | tail -n 1 | grep -Eq '^result: (checkmate, (white|black) wins|.+, a draw) after [0-9]+ plies$' \
        || { echo "no result line"; exit 1; }
}
echo "\$ $out/readme_game"
"$out/readme_game" | grep -Eq '^(checkmate, (white|black) wins|.+, a draw) after [0-9]+ plies$' || { echo "the README's program"; exit 1; }
run "$out/engine_game_c" classic 2000
run "$out/engine_game_c" light 1000
run "$out/engine_game_cpp" chess960:0 1500
