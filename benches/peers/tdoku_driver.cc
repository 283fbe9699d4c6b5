// Small timing driver for tdoku (t-dillon/tdoku, BSD-2) used to compare against xlsudoku.
// Usage: bench FILE...   One 81-char puzzle per line ('.' or '0' blank); lines starting with
// '#' are skipped, text after the first whitespace is ignored. Each puzzle is solved with
// limit 2 (uniqueness check); only the solving loop is timed, in thread CPU time.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include "include/tdoku.h"

static double thread_cpu_secs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct Puzzle {
    char cells[96];  // 81 cells, then NUL padding (input[81] < '.' selects vanilla mode)
};

int main(int argc, char **argv) {
    printf("%-36s %8s %8s %8s %8s %9s %12s\n", "file", "puzzles", "unique", "multiple", "none",
           "seconds", "per_second");
    int status = 0;
    for (int a = 1; a < argc; a++) {
        std::ifstream in(argv[a]);
        if (!in) {
            fprintf(stderr, "cannot open %s\n", argv[a]);
            status = 1;
            continue;
        }
        std::vector<Puzzle> puzzles;
        std::string line;
        size_t lineno = 0;
        while (std::getline(in, line)) {
            lineno++;
            size_t b = line.find_first_not_of(" \t\r");
            if (b == std::string::npos || line[b] == '#') continue;
            size_t e = line.find_first_of(" \t\r", b);
            std::string tok = line.substr(b, e == std::string::npos ? std::string::npos : e - b);
            if (tok.size() != 81) {
                fprintf(stderr, "%s:%zu: skipped (token of %zu chars, not 81)\n", argv[a], lineno,
                        tok.size());
                continue;
            }
            Puzzle p{};
            bool ok = true;
            for (int i = 0; i < 81; i++) {
                char c = tok[i];
                if (c == '0' || c == '.') c = '.';
                else if (c < '1' || c > '9') ok = false;
                p.cells[i] = c;
            }
            if (!ok) {
                fprintf(stderr, "%s:%zu: skipped (bad character)\n", argv[a], lineno);
                continue;
            }
            puzzles.push_back(p);
        }
        std::vector<size_t> counts(puzzles.size());
        size_t total_guesses = 0;
        char solution[96];
        double start = thread_cpu_secs();
        for (size_t i = 0; i < puzzles.size(); i++) {
            size_t guesses = 0;
            counts[i] = SolveSudoku(puzzles[i].cells, 2, 0, solution, &guesses);
            total_guesses += guesses;
        }
        double secs = thread_cpu_secs() - start;
        int unique = 0, multiple = 0, none = 0;
        for (size_t c : counts) {
            if (c == 1) unique++;
            else if (c >= 2) multiple++;
            else none++;
        }
        const char *base = strrchr(argv[a], '/');
        base = base ? base + 1 : argv[a];
        int n = (int)puzzles.size();
        printf("%-36s %8d %8d %8d %8d %9.3f %12.0f\n", base, n, unique, multiple, none, secs,
               n / secs);
        printf("# %s guesses_per_puzzle %.3f\n", base, n ? (double)total_guesses / n : 0.0);
    }
    return status;
}
