// A whole game, engine against engine, from C++ through tesseract-ffi's C ABI, with the objects owned
// by std::unique_ptr (their deleters are the library's _free functions) and errors as exceptions.
//
//   engine_game_cpp [START [NODES]]    START as in tess_game_new (default chess960:0), NODES per move
//
// Each engine move is thought on the engine's own thread (tess_search_start) while the loop keeps
// "drawing frames"; its node budget makes it the move tess_best_move gives, which the program checks.
// The last line is "result: <how the game ended> after <plies> plies". scripts/ffi.sh builds it against
// the shared library and runs it under AddressSanitizer.
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tesseract.h"

namespace {

struct GameDeleter {
    void operator()(tess_game *g) const { tess_game_free(g); }
};
struct SearchDeleter {
    void operator()(tess_search *s) const { tess_search_free(s); }
};
using Game = std::unique_ptr<tess_game, GameDeleter>;
using Search = std::unique_ptr<tess_search, SearchDeleter>;

Game new_game(const std::string &start) {
    char err[256];
    Game g(tess_game_new(start.c_str(), err, sizeof err));
    if (!g) throw std::runtime_error("cannot start " + start + ": " + err);
    return g;
}

std::vector<std::string> legal_moves(const tess_game *g) {
    int32_t needed = tess_legal_moves(g, nullptr, 0);
    if (needed >= 0 || needed == TESS_E_INVALID) throw std::logic_error("tess_legal_moves without a buffer");
    std::string buf(static_cast<size_t>(-needed), '\0');
    int32_t count = tess_legal_moves(g, buf.data(), buf.size());
    if (count < 0) throw std::logic_error("tess_legal_moves with the size it asked for");
    std::vector<std::string> moves;
    std::istringstream words(buf.c_str());
    for (std::string w; words >> w;) moves.push_back(w);
    if (moves.size() != static_cast<size_t>(count)) throw std::logic_error("count and list differ");
    return moves;
}

std::string think(const tess_game *g, uint64_t nodes, int &frames) {
    char err[256];
    Search s(tess_search_start(g, nodes, 0, err, sizeof err));
    if (!s) throw std::runtime_error(std::string("tess_search_start: ") + err);
    tess_search_info info{};
    char line[1024];
    int status;
    while ((status = tess_search_poll(s.get(), &info, line, sizeof line)) == TESS_THINKING) {
        ++frames;  // a frame would be drawn here
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    if (status != TESS_OK || info.is_final != 1) throw std::runtime_error("tess_search_poll failed");
    std::string best(line);
    return best.substr(0, best.find(' '));
}

}  // namespace

int main(int argc, char **argv) try {
    std::string start = argc > 1 ? argv[1] : "chess960:0";
    uint64_t nodes = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1500;
    Game game = new_game(start);
    int frames = 0;
    while (tess_status(game.get()) == TESS_ONGOING) {
        std::string mv = think(game.get(), nodes, frames);
        char direct[TESS_MOVE_TEXT_MAX];
        if (tess_best_move(game.get(), nodes, direct, sizeof direct) != TESS_OK || mv != direct)
            throw std::logic_error("the thread's move " + mv + " is not tess_best_move's " + direct);
        auto moves = legal_moves(game.get());
        bool legal = false;
        for (const auto &m : moves) legal = legal || m == mv;
        if (!legal) throw std::logic_error(mv + " is not in the legal move list");
        char err[256];
        if (tess_play(game.get(), mv.c_str(), err, sizeof err) != TESS_OK)
            throw std::runtime_error("refused " + mv + ": " + err);
        std::cout << (tess_ply(game.get()) > 1 ? " " : "") << mv;
    }
    char end[128];
    if (tess_status_text(game.get(), end, sizeof end) <= 0) throw std::logic_error("an ended game has a status text");
    std::cout << "\npolled " << frames << " frames while the engine thought\n";
    std::cout << "result: " << end << " after " << tess_ply(game.get()) << " plies\n";
    return 0;
} catch (const std::exception &e) {
    std::cerr << "engine_game_cpp: " << e.what() << "\n";
    return 1;
}
