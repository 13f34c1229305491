/*
 * trike_engine.c - a small, fast Trike engine speaking protocol "rgp" version 1.
 *
 * Build: cc -O2 -std=c99 -Wall -Wextra -Werror -o trike_engine trike_engine.c
 *
 * Rules as in referee/games/trike (sizes 7..19, modes zero/even/odd, pie yes/no).
 * The engine keeps no state between games beyond the rule options of the last
 * accepted `newgame`: every `position` is replayed from scratch and every `go`
 * answers at once. Moves are ranked: ends the game with a win > safe > lets the
 * opponent end the game with a win next move > ends the game with a loss. One of
 * the best rank is drawn from a xorshift64 generator seeded with the game seed and
 * the position, so the reply is deterministic given both.
 * The engine never plays the pie swap but understands it from the opponent.
 *
 * Commands: rgp, ping, newgame, position (start or state, with moves), go,
 * setoption and gameover (ignored), quit. Unknown commands are answered with
 * "error unknown command ..." and otherwise ignored (SPEC section 5). EOF or quit
 * ends the program with status 0.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIZE 19
#define MIN_SIZE 7
#define MAX_CELLS (MAX_SIZE * (MAX_SIZE + 1) / 2)
#define SWAP (-1)
#define MAX_MOVES (MAX_CELLS + 1)
#define MAX_WORDS 1024

enum { ZERO = 0, EVEN = 1, ODD = 2 };
static const char *const MODE_NAMES[3] = {"zero", "even", "odd"};
static const int DR[6] = {0, 0, -1, -1, 1, 1};
static const int DC[6] = {-1, 1, -1, 0, 0, 1};

/* Rule options of the current game and the geometry of its board. */
static int g_size = 9, g_mode = ZERO, g_pie = 1, g_cells = 45, g_have_game = 0;
static unsigned long long g_seed = 0;
static int g_row[MAX_CELLS], g_col[MAX_CELLS];
static int g_nbr[MAX_CELLS][6], g_nnbr[MAX_CELLS];
static int g_ray[MAX_CELLS][6][MAX_SIZE], g_raylen[MAX_CELLS][6];

typedef struct {
    unsigned char cell[MAX_CELLS]; /* 0 empty, 1 seat 1, 2 seat 2 */
    int pawn;                      /* -1 before the first move */
    int ply;
    int turn; /* seat to move, 0 or 1; -1 when the game is over */
    int free; /* the seat to move may place on any empty cell */
} Pos;

static Pos g_pos;
static char g_pos_error[256];

static int cell_index(int r, int c) { return r * (r + 1) / 2 + c; }

static void setup_board(int size) {
    int r, c, d, i = 0;
    g_size = size;
    g_cells = size * (size + 1) / 2;
    for (r = 0; r < size; r++)
        for (c = 0; c <= r; c++, i++) {
            g_row[i] = r;
            g_col[i] = c;
        }
    for (i = 0; i < g_cells; i++) {
        g_nnbr[i] = 0;
        for (d = 0; d < 6; d++) {
            int n = 0, rr = g_row[i] + DR[d], cc = g_col[i] + DC[d];
            while (cc >= 0 && cc <= rr && rr < size) {
                g_ray[i][d][n++] = cell_index(rr, cc);
                rr += DR[d];
                cc += DC[d];
            }
            g_raylen[i][d] = n;
            if (n > 0) g_nbr[i][g_nnbr[i]++] = g_ray[i][d][0];
        }
    }
}

/* Cell index of a canonical cell name, or -1. */
static int parse_cell(const char *text) {
    int r, k = 0;
    const char *p = text + 1;
    if (text[0] < 'a' || text[0] >= 'a' + g_size) return -1;
    r = text[0] - 'a';
    if (*p < '1' || *p > '9') return -1;
    while (*p >= '0' && *p <= '9' && k <= 100) k = k * 10 + (*p++ - '0');
    if (*p != '\0' || k < 1 || k > r + 1) return -1;
    return cell_index(r, k - 1);
}

static void format_move(int move, char *out) {
    if (move == SWAP)
        strcpy(out, "swap");
    else
        sprintf(out, "%c%d", 'a' + g_row[move], g_col[move] + 1);
}

static int has_empty(const Pos *p) {
    int i;
    for (i = 0; i < g_cells; i++)
        if (!p->cell[i]) return 1;
    return 0;
}

/* Set turn and free from the content (the same rule as the Python derive_turn). */
static void derive(Pos *p) {
    int i, owner;
    p->free = 0;
    if (p->pawn < 0) {
        p->turn = 0;
        return;
    }
    owner = p->cell[p->pawn] - 1;
    for (i = 0; i < g_nnbr[p->pawn]; i++)
        if (!p->cell[g_nbr[p->pawn][i]]) {
            p->turn = 1 - owner;
            return;
        }
    if (g_mode == ZERO || !has_empty(p)) {
        p->turn = -1;
        return;
    }
    p->free = 1;
    p->turn = g_mode == EVEN ? 1 - owner : owner;
}

static void start_position(Pos *p) {
    memset(p, 0, sizeof *p);
    p->pawn = -1;
    p->turn = 0;
}

static int gen_moves(const Pos *p, int *moves) {
    int n = 0, i, d, k;
    if (p->turn < 0) return 0;
    if (p->pawn < 0 || p->free) {
        for (i = 0; i < g_cells; i++)
            if (!p->cell[i]) moves[n++] = i;
        return n;
    }
    for (d = 0; d < 6; d++)
        for (k = 0; k < g_raylen[p->pawn][d]; k++) {
            int c = g_ray[p->pawn][d][k];
            if (p->cell[c]) break;
            moves[n++] = c;
        }
    if (g_pie && p->ply == 1) moves[n++] = SWAP;
    return n;
}

static int is_legal(const Pos *p, int move) {
    int moves[MAX_MOVES], n = gen_moves(p, moves), i;
    for (i = 0; i < n; i++)
        if (moves[i] == move) return 1;
    return 0;
}

static void apply_move(Pos *p, int move) {
    if (move == SWAP) {
        p->cell[p->pawn] = 2;
    } else {
        p->cell[move] = (unsigned char)(p->turn + 1);
        p->pawn = move;
    }
    p->ply++;
    derive(p);
}

/* The score of each seat: its checkers on the pawn's cell and its neighbours. */
static void scores(const Pos *p, int *s) {
    int i;
    s[0] = s[1] = 0;
    if (p->pawn < 0) return;
    if (p->cell[p->pawn]) s[p->cell[p->pawn] - 1]++;
    for (i = 0; i < g_nnbr[p->pawn]; i++) {
        int v = p->cell[g_nbr[p->pawn][i]];
        if (v) s[v - 1]++;
    }
}

static int wins(const Pos *p, int seat) {
    int s[2];
    scores(p, s);
    return s[seat] > s[1 - seat];
}

/* --- move choice ------------------------------------------------------------------- */

static unsigned long long g_rng;

static unsigned long long next_random(void) {
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return g_rng;
}

static void seed_random(const Pos *p) {
    unsigned long long h = g_seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
    int i;
    for (i = 0; i < g_cells; i++) h = (h ^ p->cell[i]) * 0x100000001B3ULL;
    h ^= (unsigned long long)(p->pawn + 2) * 0xD6E8FEB86659FD93ULL;
    h ^= (unsigned long long)p->ply << 32;
    g_rng = h ? h : 0x2545F4914F6CDD1DULL;
    next_random();
}

/* 3: ends the game with a win; 2: safe; 1: the opponent can then win at once; 0: loses. */
static int rank_move(const Pos *p, int move) {
    int me = p->turn, replies[MAX_MOVES], n, i;
    Pos child = *p;
    apply_move(&child, move);
    if (child.turn < 0) return wins(&child, me) ? 3 : 0;
    if (child.turn == me) return 2;
    n = gen_moves(&child, replies);
    for (i = 0; i < n; i++) {
        Pos grand;
        if (replies[i] == SWAP) continue;
        grand = child;
        apply_move(&grand, replies[i]);
        if (grand.turn < 0 && wins(&grand, 1 - me)) return 1;
    }
    return 2;
}

/* A legal move, or -2 if there is none. */
static int choose_move(const Pos *p) {
    int moves[MAX_MOVES], best[MAX_MOVES], n = gen_moves(p, moves), nbest = 0, top = -1, i;
    seed_random(p);
    for (i = 0; i < n; i++) {
        int r;
        if (moves[i] == SWAP) continue;
        r = rank_move(p, moves[i]);
        if (r > top) {
            top = r;
            nbest = 0;
        }
        if (r == top) best[nbest++] = moves[i];
    }
    if (nbest == 0) return -2;
    return best[next_random() % (unsigned long long)nbest];
}

/* --- protocol ---------------------------------------------------------------------- */

static void reply(const char *line) {
    fputs(line, stdout);
    fputc('\n', stdout);
    fflush(stdout);
}

static char *read_line(FILE *in) {
    static char *buf = NULL;
    static size_t cap = 0;
    size_t len = 0;
    int ch;
    while ((ch = fgetc(in)) != EOF && ch != '\n') {
        if (len + 2 > cap) {
            size_t ncap = cap ? cap * 2 : 4096;
            char *nbuf = realloc(buf, ncap);
            if (!nbuf) exit(1);
            buf = nbuf;
            cap = ncap;
        }
        buf[len++] = (char)ch;
    }
    if (ch == EOF && len == 0) return NULL;
    if (!buf) {
        buf = malloc(4096);
        if (!buf) exit(1);
        cap = 4096;
    }
    if (len > 0 && buf[len - 1] == '\r') len--;
    buf[len] = '\0';
    return buf;
}

static int split_words(char *line, char **words) {
    int n = 0;
    char *p = line;
    while (*p && n < MAX_WORDS) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        words[n++] = p;
        while (*p && *p != ' ' && *p != '\t') p++;
        if (*p) *p++ = '\0';
    }
    return n;
}

static int parse_uint(const char *text, unsigned long long *out) {
    char *end;
    if (!(*text >= '0' && *text <= '9')) return 0;
    *out = strtoull(text, &end, 10);
    return *end == '\0';
}

/* Parse "k=v,k=v"; on failure write a message to err and return 0. */
static int parse_options(char *text, int *size, int *mode, int *pie, char *err) {
    char *item = text;
    while (item && *item) {
        char *comma = strchr(item, ',');
        char *eq;
        if (comma) *comma = '\0';
        eq = strchr(item, '=');
        if (!eq) {
            sprintf(err, "malformed option %.40s", item);
            return 0;
        }
        *eq = '\0';
        if (strcmp(item, "size") == 0) {
            unsigned long long v;
            if (!parse_uint(eq + 1, &v) || v < MIN_SIZE || v > MAX_SIZE) {
                sprintf(err, "unsupported size %.40s (7..19)", eq + 1);
                return 0;
            }
            *size = (int)v;
        } else if (strcmp(item, "mode") == 0) {
            int m;
            for (m = 0; m < 3 && strcmp(eq + 1, MODE_NAMES[m]) != 0; m++) {
            }
            if (m == 3) {
                sprintf(err, "unsupported mode %.40s", eq + 1);
                return 0;
            }
            *mode = m;
        } else if (strcmp(item, "pie") == 0) {
            if (strcmp(eq + 1, "yes") != 0 && strcmp(eq + 1, "no") != 0) {
                sprintf(err, "unsupported pie %.40s", eq + 1);
                return 0;
            }
            *pie = strcmp(eq + 1, "yes") == 0;
        } else {
            sprintf(err, "unknown option %.40s", item);
            return 0;
        }
        item = comma ? comma + 1 : NULL;
    }
    return 1;
}

static void cmd_newgame(char **w, int n) {
    int size = 9, mode = ZERO, pie = 1;
    unsigned long long players, seat, seed;
    char err[160];
    g_have_game = 0;
    if ((n != 9 && n != 11) || strcmp(w[1], "game") || strcmp(w[3], "players") ||
        strcmp(w[5], "seat") || strcmp(w[7], "seed") || (n == 11 && strcmp(w[9], "options"))) {
        reply("error malformed newgame");
        return;
    }
    if (strcmp(w[2], "trike") != 0 && strcmp(w[2], "pure-trike") != 0) {
        printf("error unsupported game %.60s: this engine plays trike only\n", w[2]);
        fflush(stdout);
        return;
    }
    if (!parse_uint(w[4], &players) || players != 2 || !parse_uint(w[6], &seat) || seat < 1 ||
        seat > 2 || !parse_uint(w[8], &seed)) {
        reply("error trike needs players 2, seat 1 or 2 and a numeric seed");
        return;
    }
    if (n == 11 && !parse_options(w[10], &size, &mode, &pie, err)) {
        printf("error %s\n", err);
        fflush(stdout);
        return;
    }
    g_mode = mode;
    g_pie = pie;
    g_seed = seed;
    setup_board(size);
    start_position(&g_pos);
    g_pos_error[0] = '\0';
    g_have_game = 1;
    reply("ok");
}

/* Decode "size:mode:pie:rows:pawn:seat:ply" (referee/games/trike/notation.py). */
static int decode_state(char *text, Pos *p) {
    char *field[7], *q = text, *rows;
    int i, r, c, k = 0;
    unsigned long long v;
    for (i = 0; i < 7; i++) {
        field[i] = q;
        q = strchr(q, ':');
        if ((q == NULL) != (i == 6)) return 0;
        if (q) *q++ = '\0';
    }
    if (!parse_uint(field[0], &v) || (int)v != g_size || strcmp(field[1], MODE_NAMES[g_mode]) ||
        strcmp(field[2], g_pie ? "pie" : "nopie"))
        return 0;
    start_position(p);
    rows = field[3];
    for (r = 0; r < g_size; r++) {
        for (c = 0; c <= r; c++, k++) {
            char ch = *rows++;
            if (ch == 'x')
                p->cell[k] = 1;
            else if (ch == 'o')
                p->cell[k] = 2;
            else if (ch != '.')
                return 0;
        }
        if (*rows != (r + 1 < g_size ? '/' : '\0')) return 0;
        rows++;
    }
    if (strcmp(field[4], "-") == 0)
        p->pawn = -1;
    else if ((p->pawn = parse_cell(field[4])) < 0 || !p->cell[p->pawn])
        return 0;
    if (!parse_uint(field[6], &v) || v > 1000) return 0;
    p->ply = (int)v;
    derive(p);
    return strcmp(field[5], p->turn < 0 ? "-" : p->turn == 0 ? "1" : "2") == 0;
}

static void cmd_position(char **w, int n) {
    int i = 2;
    g_pos_error[0] = '\0';
    start_position(&g_pos);
    if (n >= 2 && strcmp(w[1], "start") == 0) {
        i = 2;
    } else if (n >= 3 && strcmp(w[1], "state") == 0) {
        if (!decode_state(w[2], &g_pos)) {
            sprintf(g_pos_error, "cannot read position state");
            return;
        }
        i = 3;
    } else {
        sprintf(g_pos_error, "malformed position command");
        return;
    }
    if (i < n && strcmp(w[i], "moves") != 0) {
        sprintf(g_pos_error, "expected 'moves' after the start position");
        return;
    }
    for (i++; i < n; i++) {
        int move = strcmp(w[i], "swap") == 0 ? SWAP : parse_cell(w[i]);
        if ((move == -1 && strcmp(w[i], "swap") != 0) || !is_legal(&g_pos, move)) {
            sprintf(g_pos_error, "illegal move %.40s at ply %d", w[i], g_pos.ply);
            return;
        }
        apply_move(&g_pos, move);
    }
}

static void cmd_go(void) {
    char text[16];
    int move;
    if (!g_have_game) {
        reply("error no game: send newgame first");
        return;
    }
    if (g_pos_error[0]) {
        printf("error %s\n", g_pos_error);
        fflush(stdout);
        return;
    }
    move = choose_move(&g_pos);
    if (move == -2) {
        reply("resign");
        return;
    }
    format_move(move, text);
    printf("move %s\n", text);
    fflush(stdout);
}

int main(void) {
    char *line, *w[MAX_WORDS];
    setvbuf(stdout, NULL, _IOLBF, 0);
    setup_board(9);
    start_position(&g_pos);
    while ((line = read_line(stdin)) != NULL) {
        int n = split_words(line, w);
        if (n == 0) continue;
        if (strcmp(w[0], "rgp") == 0) {
            if (n == 2 && strcmp(w[1], "1") == 0) {
                reply("id name trike-c 1.0");
                reply("id author referee project");
                reply("rgpok");
            } else {
                reply("error unsupported protocol version: this engine speaks rgp 1");
            }
        } else if (strcmp(w[0], "ping") == 0) {
            printf("pong %s\n", n >= 2 ? w[1] : "-");
            fflush(stdout);
        } else if (strcmp(w[0], "newgame") == 0) {
            cmd_newgame(w, n);
        } else if (strcmp(w[0], "position") == 0) {
            cmd_position(w, n);
        } else if (strcmp(w[0], "go") == 0) {
            cmd_go();
        } else if (strcmp(w[0], "quit") == 0) {
            return 0;
        } else if (strcmp(w[0], "setoption") != 0 && strcmp(w[0], "gameover") != 0) {
            /* SPEC section 5: an unknown command is answered with error, and ignored. */
            printf("error unknown command %.60s\n", w[0]);
            fflush(stdout);
        }
    }
    return 0;
}
