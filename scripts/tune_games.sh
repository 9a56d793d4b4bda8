# Sourced by tune_samples.sh and tune_samples_sf.sh from the workspace's root: builds the tune example and
# defines `run START GAMES SEED FILE`, which plays GAMES seeded engine games from START at 3,000 nodes a
# move after 6 random plies on $threads threads (2 when unset) and writes every quiet position from ply 10
# on to FILE, printing the games' line.
cargo build --release -p tesseract-search --example tune
tune=target/release/examples/tune
run() { # start, games, seed, file
    "$tune" --start "$1" --games "$2" --nodes 3000 --seed "$3" --random-plies 6 --skip 10 --every 1 \
        --threads "${threads:-2}" --passes 0 --only value --write-samples "$4" | grep "^games"
}
