/* A whole game, engine against engine, through the C ABI of tesseract-ffi.
 *
 *   engine_game [START [NODES]]     START: classic (default), chess960:N, light, standard, dense, a FEN
 *
 * The first move is thought on the engine's own thread (tess_search_start/poll) while this program goes
 * on with its "frames"; every other move comes from tess_best_move at NODES nodes (default 2000). The
 * last line is "result: <how the game ended> after <plies> plies". Exit status 0 when the game reached
 * its end and every check along the way held, 1 otherwise. scripts/ffi.sh builds and runs it under
 * AddressSanitizer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tesseract.h"

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

static void sleep_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* The legal moves as one malloc'd string: ask for the size first, then fill. */
static char *legal_moves(const tess_game *g, int *count) {
    int32_t r = tess_legal_moves(g, NULL, 0);
    CHECK(r < 0 && r != TESS_E_INVALID);
    size_t size = (size_t)(-r);
    char *buf = malloc(size);
    CHECK(buf != NULL);
    *count = tess_legal_moves(g, buf, size);
    CHECK(*count >= 0 && strlen(buf) + 1 == size);
    return buf;
}

/* Whether `move` is one of the space-separated texts in `list`. */
static int listed(const char *list, const char *move) {
    size_t n = strlen(move);
    for (const char *p = list; (p = strstr(p, move)) != NULL; p += n) {
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    const char *start = argc > 1 ? argv[1] : "classic";
    uint64_t nodes = argc > 2 ? strtoull(argv[2], NULL, 10) : 2000;
    char err[256];
    char move[TESS_MOVE_TEXT_MAX];

    printf("tesseract-ffi %s\n", tess_version());
    CHECK(tess_game_new("medium", err, sizeof err) == NULL && strlen(err) > 0);
    printf("refused start: %s\n", err);

    tess_game *game = tess_game_new(start, err, sizeof err);
    if (game == NULL) {
        fprintf(stderr, "cannot start %s: %s\n", start, err);
        return 1;
    }
    printf("start %s, perft(1) %llu, perft(2) %llu\n", start, (unsigned long long)tess_perft(game, 1),
           (unsigned long long)tess_perft(game, 2));

    /* An illegal move is refused and changes nothing. */
    char before[2048], after[2048];
    CHECK(tess_fen(game, before, sizeof before) > 0);
    CHECK(tess_play(game, "a1a1", err, sizeof err) == TESS_E_MOVE);
    printf("refused move: %s\n", err);
    CHECK(tess_fen(game, after, sizeof after) > 0 && strcmp(before, after) == 0);

    /* The first move: think on the engine's thread while the "game loop" goes on. */
    tess_search *search = tess_search_start(game, nodes, 0, err, sizeof err);
    CHECK(search != NULL);
    tess_search_info info;
    char line[512];
    int frames = 0, status;
    while ((status = tess_search_poll(search, &info, line, sizeof line)) == TESS_THINKING) {
        frames++; /* a frame would be drawn here */
        sleep_ms(1);
    }
    CHECK(status == TESS_OK && info.is_final == 1);
    printf("thought for %d frames: depth %u, %llu nodes, line %s\n", frames, info.depth,
           (unsigned long long)info.nodes, line);
    /* A node budget alone: the same move as tess_best_move. */
    CHECK(tess_best_move(game, nodes, move, sizeof move) == TESS_OK);
    CHECK(strncmp(line, move, strlen(move)) == 0 && (line[strlen(move)] == ' ' || line[strlen(move)] == '\0'));
    tess_search_free(search);

    /* A search without limits, stopped by the caller. */
    search = tess_search_start(game, 0, 0, err, sizeof err);
    CHECK(search != NULL);
    sleep_ms(20);
    CHECK(tess_search_stop(search, &info, move, sizeof move) == TESS_OK && info.is_final == 1);
    CHECK(tess_search_poll(search, NULL, NULL, 0) == TESS_OK);
    tess_search_free(search);
    /* Freed while thinking: stopped and joined. */
    tess_search_free(tess_search_start(game, 0, 0, NULL, 0));

    /* The game, to its end. */
    while ((status = tess_status(game)) == TESS_ONGOING) {
        int count;
        char *moves = legal_moves(game, &count);
        CHECK(count > 0);
        CHECK(tess_best_move(game, nodes, move, sizeof move) == TESS_OK);
        CHECK(listed(moves, move));
        free(moves);
        if (tess_play(game, move, err, sizeof err) != TESS_OK) {
            fprintf(stderr, "the engine's move %s was refused: %s\n", move, err);
            return 1;
        }
        printf("%s%s", tess_ply(game) > 1 ? " " : "", move);
    }
    printf("\n");
    CHECK(status == TESS_CHECKMATE || status == TESS_STALEMATE || status == TESS_DRAW);
    /* Mate and stalemate leave no legal move; a draw by rule may leave some, but the game is over. */
    int count;
    char *left = legal_moves(game, &count);
    if (status != TESS_DRAW) CHECK(count == 0);
    CHECK(tess_best_move(game, nodes, move, sizeof move) == TESS_E_GAME_OVER);
    if (count > 0) {
        char first[TESS_MOVE_TEXT_MAX] = {0};
        strncpy(first, left, strcspn(left, " ") < sizeof first ? strcspn(left, " ") : sizeof first - 1);
        CHECK(tess_play(game, first, err, sizeof err) == TESS_E_GAME_OVER);
        printf("refused after the end: %s\n", err);
    }
    free(left);

    /* A copy lives on after the original is freed, and undo takes a move back. */
    tess_game *copy = tess_game_clone(game);
    uint32_t plies = tess_ply(game);
    tess_game_free(game);
    CHECK(copy != NULL && tess_ply(copy) == plies);
    CHECK(tess_undo(copy) == TESS_OK && tess_ply(copy) == plies - 1);
    char end[128];
    tess_undo(copy);
    CHECK(tess_status_text(copy, end, sizeof end) >= 0);
    tess_game_free(copy);

    game = tess_game_new(start, NULL, 0);
    for (uint32_t i = 0; i < plies; i++) {
        /* Replays the same game: tess_best_move is deterministic. */
        CHECK(tess_best_move(game, nodes, move, sizeof move) == TESS_OK);
        CHECK(tess_play(game, move, NULL, 0) == TESS_OK);
    }
    CHECK(tess_status(game) == status);
    CHECK(tess_status_text(game, end, sizeof end) > 0);
    printf("result: %s after %u plies\n", end, plies);
    tess_game_free(game);
    return 0;
}
