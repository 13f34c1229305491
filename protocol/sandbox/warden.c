/*
 * The compiled warden: process 1 of an engine's sandbox, as warden.py is, in C.
 *
 * warden.py is the reference: this program takes the same orders (KEY=VALUE arguments,
 * then "--" and the engine's argv), applies the same limits, samples the sandbox the
 * same way, kills it for the same reasons and writes the same report ("ready", then
 * "exit STATUS LIMIT DETAIL") on the same pipe. Read warden.py's docstrings for the
 * why of each step; the comments here say only what differs in C.
 *
 * It exists because it starts in about a millisecond where Python takes 10 to 20: a
 * sandboxed engine starts once per game, so an instant engine's sandboxed games cost
 * several times the plain ones with the Python warden. protocol/sandbox/compiled.py
 * builds it on first use with the system's C compiler and falls back to warden.py
 * where there is none. Linux only; C99 with the GNU extensions of glibc.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/times.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <grp.h>
#include <time.h>
#include <unistd.h>

#define MIB (1024LL * 1024LL)
#define MAX_WATCH 16
#define MAX_RLIMITS 8
#define DETAIL_BYTES 512

struct rlimit_order {
    int resource;
    const char *name;
    long long value;
};

static const struct {
    const char *name;
    int resource;
} RLIMIT_NAMES[] = {
    {"AS", RLIMIT_AS},       {"CPU", RLIMIT_CPU},       {"NPROC", RLIMIT_NPROC},
    {"FSIZE", RLIMIT_FSIZE}, {"NOFILE", RLIMIT_NOFILE}, {"CORE", RLIMIT_CORE},
};

struct config {
    int report;
    long long max_processes;
    struct rlimit_order rlimits[MAX_RLIMITS];
    int n_rlimits;
    long long max_memory; /* -1: none */
    double max_cpu;       /* < 0: none */
    const char *watch[MAX_WATCH];
    int n_watch;
    long long max_files; /* -1: none */
    double poll;
    int drop;
    long long drop_uid, drop_gid;
    int hold; /* -1: start the engine at once */
    int keep; /* -1: one engine; else the kept sandbox's control socket (keep()) */
    const char *show[MAX_WATCH]; /* keep: shown directories inside a watched path */
    int n_show;
    long long scratch; /* keep: bytes of each game's tmpfs */
};

struct sample {
    long long tasks;
    long long resident;
    double cpu;
    const char *full[MAX_WATCH];
    int n_full;
};

struct breach {
    const char *limit; /* NULL: none */
    char detail[DETAIL_BYTES];
};

static void say(int fd, const char *text) {
    size_t left = strlen(text);
    while (left > 0) {
        ssize_t n = write(fd, text, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            return; /* the referee is gone: nobody to tell */
        }
        text += n;
        left -= (size_t)n;
    }
}

static int bad_arguments(const char *format, ...) {
    char text[DETAIL_BYTES], line[DETAIL_BYTES + 64];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    snprintf(line, sizeof line, "warden: bad arguments: %s\n", text);
    say(2, line);
    return 2;
}

static int parse_integer(const char *text, long long *out) {
    char *end;
    errno = 0;
    long long value = strtoll(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0') return -1;
    *out = value;
    return 0;
}

static int parse_real(const char *text, double *out) {
    char *end;
    errno = 0;
    double value = strtod(text, &end);
    if (errno != 0 || end == text || *end != '\0' || !isfinite(value)) return -1;
    *out = value;
    return 0;
}

/* The orders in args[0..count): 0, or 2 after saying what is wrong. */
static int parse_config(struct config *config, char **args, int count) {
    int have_report = 0, have_processes = 0;
    memset(config, 0, sizeof *config);
    config->max_memory = -1;
    config->max_cpu = -1.0;
    config->max_files = -1;
    config->poll = 0.05;
    config->hold = -1;
    config->keep = -1;
    config->scratch = -1;
    for (int i = 0; i < count; i++) {
        char *arg = args[i], *value = strchr(arg, '=');
        if (value == NULL) return bad_arguments("not key=value: '%s'", arg);
        size_t key_length = (size_t)(value - arg);
        value++;
        int bad = 0;
        if (strncmp(arg, "rlimit.", 7) == 0) {
            const char *name = arg + 7;
            size_t name_length = key_length - 7;
            int found = -1;
            for (size_t k = 0; k < sizeof RLIMIT_NAMES / sizeof RLIMIT_NAMES[0]; k++)
                if (strlen(RLIMIT_NAMES[k].name) == name_length &&
                    strncmp(RLIMIT_NAMES[k].name, name, name_length) == 0)
                    found = (int)k;
            if (found < 0) return bad_arguments("unknown resource limit '%.*s'", (int)key_length, arg);
            struct rlimit_order *order = NULL;
            for (int k = 0; k < config->n_rlimits; k++)
                if (config->rlimits[k].resource == RLIMIT_NAMES[found].resource)
                    order = &config->rlimits[k];
            if (order == NULL) {
                if (config->n_rlimits == MAX_RLIMITS) return bad_arguments("too many limits");
                order = &config->rlimits[config->n_rlimits++];
            }
            order->resource = RLIMIT_NAMES[found].resource;
            order->name = RLIMIT_NAMES[found].name;
            bad = parse_integer(value, &order->value);
        } else if (key_length == 5 && strncmp(arg, "watch", 5) == 0) {
            if (config->n_watch == MAX_WATCH) return bad_arguments("too many watched paths");
            config->watch[config->n_watch++] = value;
        } else if (key_length == 6 && strncmp(arg, "report", 6) == 0) {
            long long fd;
            bad = parse_integer(value, &fd) || fd < 0 || fd > 1 << 20;
            config->report = (int)fd;
            have_report = 1;
        } else if (key_length == 4 && strncmp(arg, "hold", 4) == 0) {
            long long fd;
            bad = parse_integer(value, &fd) || fd < 0 || fd > 1 << 20;
            config->hold = (int)fd;
        } else if (key_length == 4 && strncmp(arg, "keep", 4) == 0) {
            long long fd;
            bad = parse_integer(value, &fd) || fd < 0 || fd > 1 << 20;
            config->keep = (int)fd;
        } else if (key_length == 4 && strncmp(arg, "show", 4) == 0) {
            if (config->n_show == MAX_WATCH) return bad_arguments("too many shown paths");
            bad = value[0] != '/';
            config->show[config->n_show++] = value;
        } else if (key_length == 7 && strncmp(arg, "scratch", 7) == 0) {
            bad = parse_integer(value, &config->scratch) || config->scratch < 4096;
        } else if (key_length == 13 && strncmp(arg, "max_processes", 13) == 0) {
            bad = parse_integer(value, &config->max_processes);
            have_processes = 1;
        } else if (key_length == 4 && strncmp(arg, "poll", 4) == 0) {
            bad = parse_real(value, &config->poll) || config->poll <= 0;
        } else if (key_length == 10 && strncmp(arg, "max_memory", 10) == 0) {
            bad = parse_integer(value, &config->max_memory);
        } else if (key_length == 7 && strncmp(arg, "max_cpu", 7) == 0) {
            bad = parse_real(value, &config->max_cpu);
        } else if (key_length == 9 && strncmp(arg, "max_files", 9) == 0) {
            bad = parse_integer(value, &config->max_files);
        } else if (key_length == 4 && strncmp(arg, "drop", 4) == 0) {
            char *colon = strchr(value, ':');
            if (colon == NULL) return bad_arguments("drop is not uid:gid: '%s'", value);
            *colon = '\0';
            bad = parse_integer(value, &config->drop_uid) || parse_integer(colon + 1, &config->drop_gid);
            *colon = ':';
            config->drop = 1;
        } else {
            return bad_arguments("unknown key '%.*s'", (int)key_length, arg);
        }
        if (bad) return bad_arguments("bad value in '%s'", arg);
    }
    if (!have_report) return bad_arguments("no report");
    if (!have_processes) return bad_arguments("no max_processes");
    if (config->keep >= 0 && config->hold >= 0) return bad_arguments("both keep and hold");
    if (config->keep >= 0 && config->scratch < 0) return bad_arguments("keep without scratch");
    return 0;
}

/* ---- looking at the sandbox (warden.py: sample, memfd_bytes, _full) ---- */

static int is_number(const char *name) {
    if (*name == '\0') return 0;
    for (; *name; name++)
        if (*name < '0' || *name > '9') return 0;
    return 1;
}

/* Threads, CPU ticks and resident pages from a /proc/PID/stat line: 0, or -1. */
static int parse_stat(const char *text, long long *threads, long long *ticks, long long *pages) {
    const char *close = strrchr(text, ')'); /* the name may hold spaces and parentheses */
    if (close == NULL) return -1;
    long long fields[24];
    const char *p = close + 1;
    int n = 0;
    while (n < 22) { /* fields[0] is field 3 (state), read as 0 */
        while (*p == ' ') p++;
        if (*p == '\0' || *p == '\n') return -1;
        char *end;
        fields[n++] = strtoll(p, &end, 10);
        while (*end != ' ' && *end != '\0' && *end != '\n') end++;
        p = end;
    }
    *threads = fields[17];
    *ticks = fields[11] + fields[12];
    *pages = fields[21];
    return 0;
}

struct seen_files {
    dev_t *devices;
    ino_t *inodes;
    size_t count, room;
};

static int seen_before(struct seen_files *seen, dev_t device, ino_t inode) {
    for (size_t i = 0; i < seen->count; i++)
        if (seen->devices[i] == device && seen->inodes[i] == inode) return 1;
    if (seen->count == seen->room) {
        size_t room = seen->room ? seen->room * 2 : 16;
        dev_t *devices = realloc(seen->devices, room * sizeof *devices);
        if (devices == NULL) return 0; /* count it again rather than not at all */
        seen->devices = devices;
        ino_t *inodes = realloc(seen->inodes, room * sizeof *inodes);
        if (inodes == NULL) return 0;
        seen->inodes = inodes;
        seen->room = room;
    }
    seen->devices[seen->count] = device;
    seen->inodes[seen->count] = inode;
    seen->count++;
    return 0;
}

/* Bytes held in memfd files open in process `pid`, each file once (warden.memfd_bytes). */
static long long memfd_bytes_of(const char *pid, struct seen_files *seen) {
    char directory[300], path[600], target[64];
    snprintf(directory, sizeof directory, "/proc/%s/fd", pid);
    DIR *fds = opendir(directory);
    if (fds == NULL) return 0;
    long long total = 0;
    struct dirent *entry;
    while ((entry = readdir(fds)) != NULL) {
        if (!is_number(entry->d_name)) continue;
        snprintf(path, sizeof path, "%s/%s", directory, entry->d_name);
        ssize_t n = readlink(path, target, sizeof target - 1);
        if (n < 7) continue;
        target[n] = '\0';
        if (strncmp(target, "/memfd:", 7) != 0) continue;
        struct stat st;
        if (stat(path, &st) != 0) continue;
        if (!seen_before(seen, st.st_dev, st.st_ino)) total += (long long)st.st_blocks * 512;
    }
    closedir(fds);
    return total;
}

static void look(const struct config *config, struct sample *out) {
    long long tasks = 0, ticks = 0, pages = 0, memfds = 0;
    struct seen_files seen = {0};
    char self[32], path[300], text[1024];
    snprintf(self, sizeof self, "%d", (int)getpid());
    DIR *proc = opendir("/proc");
    struct dirent *entry;
    while (proc != NULL && (entry = readdir(proc)) != NULL) {
        if (!is_number(entry->d_name) || strcmp(entry->d_name, self) == 0) continue;
        snprintf(path, sizeof path, "/proc/%s/stat", entry->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue; /* it ended while we looked */
        ssize_t n = read(fd, text, sizeof text - 1);
        close(fd);
        long long threads, cpu, rss;
        if (n <= 0) continue;
        text[n] = '\0';
        if (parse_stat(text, &threads, &cpu, &rss) != 0) continue;
        tasks += threads;
        ticks += cpu;
        pages += rss;
        if (config->max_memory >= 0) memfds += memfd_bytes_of(entry->d_name, &seen);
    }
    if (proc != NULL) closedir(proc);
    free(seen.devices);
    free(seen.inodes);
    struct tms reaped;
    times(&reaped);
    double tick = (double)sysconf(_SC_CLK_TCK);
    out->tasks = tasks;
    out->resident = pages * sysconf(_SC_PAGESIZE) + memfds;
    out->cpu = (double)ticks / tick + (double)(reaped.tms_cutime + reaped.tms_cstime) / tick;
    out->n_full = 0;
    for (int i = 0; i < config->n_watch; i++) {
        struct statvfs st;
        if (statvfs(config->watch[i], &st) != 0) continue;
        if (st.f_bavail == 0 ||
            (config->max_files >= 0 && (long long)(st.f_files - st.f_ffree) >= config->max_files))
            out->full[out->n_full++] = config->watch[i];
    }
}

/* ---- the limits (warden.check, warden.diagnose_exit) ---- */

static void name_breach(struct breach *breach, const char *limit, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(breach->detail, sizeof breach->detail, format, args);
    va_end(args);
    breach->limit = limit;
}

static void process_limit(const struct config *config, struct breach *breach) {
    name_breach(breach, "process", "process limit (%lld processes and threads)",
                config->max_processes);
}

static void scratch_limit(const struct sample *sample, struct breach *breach) {
    char list[DETAIL_BYTES] = "";
    for (int i = 0; i < sample->n_full; i++) {
        if (i > 0) strncat(list, ", ", sizeof list - strlen(list) - 1);
        strncat(list, sample->full[i], sizeof list - strlen(list) - 1);
    }
    name_breach(breach, "scratch", "scratch limit (%s full)", list);
}

static void check(const struct config *config, const struct sample *sample, struct breach *breach) {
    breach->limit = NULL;
    if (sample->tasks >= config->max_processes)
        process_limit(config, breach);
    else if (config->max_memory >= 0 && sample->resident > config->max_memory)
        name_breach(breach, "memory", "memory limit (resident %lld MiB over %lld MiB)",
                    (sample->resident + MIB - 1) / MIB, config->max_memory / MIB);
    else if (config->max_cpu >= 0 && sample->cpu > config->max_cpu)
        name_breach(breach, "cpu", "CPU time limit (%.1f s over %g s)", sample->cpu, config->max_cpu);
    else if (sample->n_full > 0)
        scratch_limit(sample, breach);
}

static const struct rlimit_order *order_for(const struct config *config, int resource) {
    for (int i = 0; i < config->n_rlimits; i++)
        if (config->rlimits[i].resource == resource) return &config->rlimits[i];
    return NULL;
}

static void diagnose_exit(const struct config *config, int status, double engine_cpu,
                          const struct sample *after, struct breach *breach) {
    const struct rlimit_order *cpu = order_for(config, RLIMIT_CPU);
    const struct rlimit_order *file = order_for(config, RLIMIT_FSIZE);
    breach->limit = NULL;
    if (cpu != NULL && (status == -SIGXCPU || (status == -SIGKILL && engine_cpu >= 0.9 * (double)cpu->value)))
        name_breach(breach, "cpu", "CPU time limit (%lld s per process)", cpu->value);
    else if (file != NULL && status == -SIGXFSZ)
        name_breach(breach, "scratch", "scratch limit (a file over %lld MiB)", file->value / MIB);
    else if (after->tasks >= config->max_processes - 1)
        process_limit(config, breach);
    else if (after->n_full > 0)
        scratch_limit(after, breach);
}

/* ---- the engine and the end ---- */

static void close_from(int lowest) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)lowest, ~0U, 0) == 0) return;
#endif
    DIR *fds = opendir("/proc/self/fd"); /* kernels before 5.9 */
    if (fds == NULL) {
        for (int fd = lowest; fd < 1 << 16; fd++) close(fd);
        return;
    }
    int own = dirfd(fds);
    struct dirent *entry;
    while ((entry = readdir(fds)) != NULL) {
        int fd = atoi(entry->d_name);
        if (is_number(entry->d_name) && fd >= lowest && fd != own) close(fd);
    }
    closedir(fds);
}

static pid_t start(const struct config *config, char **argv) {
    pid_t pid = fork();
    if (pid != 0) return pid; /* the warden, or -1 */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    close_from(3); /* bwrap's pipes and ours: the engine gets its 0, 1, 2 */
    for (int i = 0; i < config->n_rlimits; i++) {
        const struct rlimit_order *order = &config->rlimits[i];
        struct rlimit current = {RLIM_INFINITY, RLIM_INFINITY};
        rlim_t value = (rlim_t)order->value;
        if (getrlimit(order->resource, &current) == 0 && current.rlim_max != RLIM_INFINITY &&
            value > current.rlim_max)
            value = current.rlim_max; /* only root may raise a hard limit */
        struct rlimit wanted = {value, value};
        if (order->resource == RLIMIT_CPU && value != current.rlim_max)
            wanted.rlim_max = value + 1; /* SIGXCPU at the limit, SIGKILL a second later */
        if (setrlimit(order->resource, &wanted) != 0) {
            char line[256];
            snprintf(line, sizeof line, "sandbox: cannot run %s: cannot set RLIMIT_%s: %s\n",
                     argv[0], order->name, strerror(errno));
            say(2, line);
            _exit(127);
        }
    }
    execvp(argv[0], argv);
    char line[DETAIL_BYTES];
    snprintf(line, sizeof line, "sandbox: cannot run %s: %s\n", argv[0], strerror(errno));
    say(2, line);
    _exit(127);
}

static int returncode(int wait_status) {
    if (WIFSIGNALED(wait_status)) return -WTERMSIG(wait_status);
    return WEXITSTATUS(wait_status);
}

/* Reap every dead child; 1 with the engine's returncode and CPU seconds if it was one. */
static int reap(pid_t engine, int *status, double *engine_cpu) {
    int found = 0;
    for (;;) {
        int wait_status;
        struct rusage usage;
        pid_t pid = wait4(-1, &wait_status, WNOHANG, &usage);
        if (pid <= 0) return found;
        if (pid == engine) {
            *status = returncode(wait_status);
            *engine_cpu = (double)usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 +
                          (double)usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
            found = 1;
        }
    }
}

static void kill_all(void) {
    /* kill(-1) from process 1 of a PID namespace reaches that namespace only; from any
     * other process, everything the caller may signal. main refuses to run elsewhere;
     * this checks again. */
    if (getpid() != 1) _exit(70);
    kill(-1, SIGKILL);
    while (wait(NULL) > 0 || errno == EINTR) {
    }
}

/* The engine's returncode and the limit that ended it (breach->limit NULL if none). */
static int watch(const struct config *config, pid_t engine, struct breach *breach) {
    sigset_t child;
    sigemptyset(&child);
    sigaddset(&child, SIGCHLD);
    struct timespec poll_time;
    poll_time.tv_sec = (time_t)config->poll;
    poll_time.tv_nsec = (long)((config->poll - (double)poll_time.tv_sec) * 1e9);
    /* The referee holds the report pipe's only read end: when it dies, however it dies,
     * our write end polls POLLERR (warden.Watchdog). */
    struct pollfd referee = {config->report, 0, 0};
    for (;;) {
        sigtimedwait(&child, NULL, &poll_time);
        if (poll(&referee, 1, 0) > 0) {
            kill_all();
            breach->limit = NULL;
            return -SIGKILL;
        }
        int status;
        double engine_cpu = 0;
        struct sample sample;
        if (reap(engine, &status, &engine_cpu)) {
            look(config, &sample);
            diagnose_exit(config, status, engine_cpu, &sample, breach);
            return status;
        }
        look(config, &sample);
        check(config, &sample, breach);
        if (breach->limit != NULL) {
            kill_all();
            return -SIGKILL;
        }
    }
}

/* 1 once the referee's go (a byte) arrives on `hold`; 0 when it closed that pipe or
 * died (warden.wait_for_go). */
static int wait_for_go(int hold, int report) {
    struct pollfd fds[2] = {{hold, POLLIN, 0}, {report, 0, 0}};
    for (;;) {
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            return 0;
        }
        if (fds[1].revents != 0) return 0;
        char byte;
        ssize_t n = read(hold, &byte, 1);
        if (n < 0 && errno == EINTR) continue;
        return n == 1;
    }
}

/* Root mode: no user namespace below this one, ever (the engine cannot undo it). */
static int forbid_user_namespaces(void) {
    int fd = open("/proc/sys/user/max_user_namespaces", O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, "0", 1) != 1) return -1;
    close(fd);
    return 0;
}

static int drop_privileges(long long uid, long long gid) {
    if (forbid_user_namespaces() != 0) return -1;
    if (setgroups(0, NULL) != 0) return -1;
    if (setresgid((gid_t)gid, (gid_t)gid, (gid_t)gid) != 0) return -1;
    return setresuid((uid_t)uid, (uid_t)uid, (uid_t)uid); /* every capability is gone */
}

/* Start the engine, watch it, report its end: the engine's status as an exit status. */
static int run_engine(struct config *config, char **argv) {
    /* Python ignores both at start-up, so under warden.py the engine inherits them
     * ignored (a write to a closed pipe fails with EPIPE, a file over RLIMIT_FSIZE with
     * EFBIG); the same here. And a report to a referee that is gone must not kill us. */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN);
    sigset_t child;
    sigemptyset(&child);
    sigaddset(&child, SIGCHLD);
    sigprocmask(SIG_BLOCK, &child, NULL);
    pid_t engine = start(config, argv);
    if (engine < 0) {
        char line[128];
        snprintf(line, sizeof line, "warden: cannot fork: %s\n", strerror(errno));
        say(2, line);
        return 1;
    }
    say(config->report, "ready\n");
    struct breach breach;
    int status = watch(config, engine, &breach);
    kill_all();
    char verdict[DETAIL_BYTES + 64];
    if (breach.limit == NULL)
        snprintf(verdict, sizeof verdict, "exit %d -\n", status);
    else
        snprintf(verdict, sizeof verdict, "exit %d %s %s\n", status, breach.limit, breach.detail);
    say(config->report, verdict);
    return status >= 0 ? status : 128 - status;
}

/* ---- the kept sandbox (keep=FD): a fresh game in the same sandbox, again and again ----
 *
 * bubblewrap's own set-up (namespaces, mounts, the mount table read at each) costs a
 * few milliseconds of CPU, as much as a whole game of an instant engine. Kept, the
 * sandbox is set up once per entrant and slot, and this process, still its process 1,
 * serves games: for each, the referee sends on the control socket one byte and four
 * descriptors (the engine's stdin, stdout and stderr, and the game's report pipe).
 * The game gets a process of its own that makes new PID, mount, IPC and network
 * namespaces, and in them, as their process 1, fresh /proc and fresh empty scratch file
 * systems, its loopback interface up,
 * a session keyring of its own and an emptied user keyring; it then drops its
 * privileges and is the warden of that one game (run_engine), reporting on the game's
 * pipe. When it ends, the kernel ends everything the game started with its PID
 * namespace, and its scratch and IPC objects with its other namespaces. This process
 * reaps, and ends with the sandbox when the referee closes the control socket.
 */

/* The four descriptors of a game request (0 at the socket's end or on an error). */
static int receive_game(int keep, int got[4]) {
    char byte;
    char control[CMSG_SPACE(4 * sizeof(int))];
    struct iovec data = {&byte, 1};
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = &data;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    ssize_t n;
    do n = recvmsg(keep, &message, MSG_CMSG_CLOEXEC);
    while (n < 0 && errno == EINTR);
    if (n <= 0) return -1;
    int count = 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&message); c != NULL; c = CMSG_NXTHDR(&message, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        int n_fds = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        int *fds = (int *)CMSG_DATA(c);
        for (int i = 0; i < n_fds; i++) {
            if (count < 4) got[count++] = fds[i];
            else close(fds[i]);
        }
    }
    if (count == 4 && byte == 'g' && !(message.msg_flags & MSG_CTRUNC)) return 4;
    for (int i = 0; i < count; i++) close(got[i]);
    return 0; /* a malformed request: ignored */
}

static void game_failed(const char *what) {
    char line[256];
    snprintf(line, sizeof line, "sandbox: cannot set up the game (%s: %s)\n", what, strerror(errno));
    say(2, line);
    _exit(127);
}

/* No capability left in the ambient, permitted, effective and inheritable sets; the
 * bounding set emptied where we may (it takes CAP_SETPCAP, which bwrap does not keep:
 * without a file capability, which bwrap's no_new_privs makes powerless anyway, the
 * bounding set grants nothing). */
static int drop_capabilities(void) {
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    for (int cap = 0; cap <= 63; cap++) prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    return (int)syscall(SYS_capset, &header, data);
}

/* `path` and its missing parents, each 0755 (bwrap makes a mount point's parents so:
 * the engine, another user in root mode, must be able to reach what is shown there). */
static int make_directories(const char *path) {
    char partial[4096];
    size_t length = strlen(path);
    if (length >= sizeof partial) return -1;
    for (size_t i = 1; i <= length; i++) {
        if (path[i] != '/' && path[i] != '\0') continue;
        memcpy(partial, path, i);
        partial[i] = '\0';
        if (mkdir(partial, 0755) == 0) {
            if (chmod(partial, 0755) != 0) return -1; /* the umask's bits back */
        } else if (errno != EEXIST) {
            return -1;
        }
    }
    return 0;
}

#define KEYCTL_JOIN_SESSION_KEYRING_ 1
#define KEYCTL_CLEAR_ 7
#define KEY_SPEC_USER_KEYRING_ (-4)
#define KEY_SPEC_USER_SESSION_KEYRING_ (-5)

/* One game, in a child of the keeper; never returns. */
static void play_game(struct config *config, char **argv, const char *cwd, int got[4]) {
    if (unshare(CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWNET) != 0) {
        dup2(got[2], 2);
        game_failed("unshare");
    }
    pid_t init = fork(); /* process 1 of the new PID namespace */
    if (init != 0) _exit(init < 0 ? 1 : 0);
    int high[4];
    for (int i = 0; i < 4; i++) high[i] = fcntl(got[i], F_DUPFD_CLOEXEC, config->report + 1);
    for (int i = 0; i < 4; i++)
        if (high[i] < 0) _exit(127);
    dup2(high[0], 0);
    dup2(high[1], 1);
    dup2(high[2], 2);
    dup2(high[3], config->report); /* close-on-exec off: set again below */
    fcntl(config->report, F_SETFD, FD_CLOEXEC);
    if (config->report > 3) syscall(SYS_close_range, 3U, (unsigned)config->report - 1, 0);
    syscall(SYS_close_range, (unsigned)config->report + 1, ~0U, 0);
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) game_failed("mount /");
    if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0)
        game_failed("mount /proc");
    /* What the sandbox shows inside a scratch file system (an engine's folder under /tmp)
     * is held before the fresh one covers it, and shown again on top, read-only, with
     * what is mounted inside it (the covers of hidden paths). */
    int shown[MAX_WATCH];
    for (int i = 0; i < config->n_show; i++)
        if ((shown[i] = open(config->show[i], O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
            game_failed(config->show[i]);
    char options[64];
    snprintf(options, sizeof options, "mode=1777,size=%lld", config->scratch);
    for (int i = 0; i < config->n_watch; i++)
        if (mount("tmpfs", config->watch[i], "tmpfs", MS_NOSUID | MS_NODEV, options) != 0)
            game_failed(config->watch[i]);
    for (int i = 0; i < config->n_show; i++) {
        if (make_directories(config->show[i]) != 0) game_failed(config->show[i]);
        char held[64];
        snprintf(held, sizeof held, "/proc/self/fd/%d", shown[i]);
        if (mount(held, config->show[i], NULL, MS_BIND | MS_REC, NULL) != 0 ||
            mount(NULL, config->show[i], NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV,
                  NULL) != 0)
            game_failed(config->show[i]);
        close(shown[i]);
    }
    if (chdir(cwd) != 0) game_failed("chdir");
    /* The loopback interface of the game's own network namespace, up as bwrap brings up
     * the sandbox's (the kernel gives it 127.0.0.1 and ::1). */
    int link = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    struct ifreq loopback;
    memset(&loopback, 0, sizeof loopback);
    strcpy(loopback.ifr_name, "lo");
    if (link < 0 || ioctl(link, SIOCGIFFLAGS, &loopback) != 0) game_failed("loopback");
    loopback.ifr_flags |= IFF_UP;
    if (ioctl(link, SIOCSIFFLAGS, &loopback) != 0) game_failed("loopback up");
    close(link);
    /* A session keyring of its own; the user keyring (per user namespace) emptied of what
     * an earlier game of the sandbox left there. Without keyrings (ENOSYS, a filter):
     * nothing to carry, nothing to do. */
    syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING_, NULL);
    if (config->drop && drop_privileges(config->drop_uid, config->drop_gid) != 0) game_failed("drop");
    if (drop_capabilities() != 0) game_failed("capabilities");
    syscall(SYS_keyctl, KEYCTL_CLEAR_, KEY_SPEC_USER_KEYRING_);
    syscall(SYS_keyctl, KEYCTL_CLEAR_, KEY_SPEC_USER_SESSION_KEYRING_);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    _exit(run_engine(config, argv));
}

/* Serve games until the referee closes the control socket (see above). */
static int keep(struct config *config, char **argv) {
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd) == NULL) strcpy(cwd, "/");
    fcntl(config->keep, F_SETFD, FD_CLOEXEC);
    signal(SIGPIPE, SIG_IGN);
    if (config->drop && forbid_user_namespaces() != 0) { /* each game drops to the user */
        say(2, "warden: cannot forbid user namespaces\n");
        return 1;
    }
    sigset_t child;
    sigemptyset(&child);
    sigaddset(&child, SIGCHLD);
    sigprocmask(SIG_BLOCK, &child, NULL);
    int reaped = signalfd(-1, &child, SFD_CLOEXEC | SFD_NONBLOCK);
    if (reaped < 0) return 1;
    /* Up: "ready" on the sandbox's own report pipe, as a sandbox of its own says it
     * (and nothing more there: each game reports on its own), and "up" on the socket. */
    fcntl(config->report, F_SETFD, FD_CLOEXEC);
    say(config->report, "ready\n");
    if (send(config->keep, "up\n", 3, MSG_NOSIGNAL) != 3) return 1;
    for (;;) {
        struct pollfd fds[2] = {{config->keep, POLLIN, 0}, {reaped, POLLIN, 0}};
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (fds[1].revents != 0) {
            struct signalfd_siginfo info;
            while (read(reaped, &info, sizeof info) > 0) {
            }
            while (waitpid(-1, NULL, WNOHANG) > 0) {
            }
        }
        if (fds[0].revents == 0) continue;
        int got[4];
        int n = receive_game(config->keep, got);
        if (n < 0) break; /* the referee is done with the sandbox, or gone */
        if (n == 0) continue;
        pid_t game = fork();
        if (game == 0) {
            close(reaped);
            close(config->keep);
            play_game(config, argv, cwd, got);
        }
        if (game < 0) say(got[2], "sandbox: cannot fork a game\n");
        for (int i = 0; i < 4; i++) close(got[i]);
    }
    kill_all();
    return 0;
}

int main(int argc, char **argv) {
    if (getpid() != 1) {
        say(2, "warden: not process 1 of a sandbox; refusing to run\n");
        return 2;
    }
    int split = -1;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0) {
            split = i;
            break;
        }
    if (split < 0) return bad_arguments("'--' is not in list");
    struct config config;
    if (parse_config(&config, argv + 1, split - 1) != 0) return 2;
    if (split + 1 >= argc) return bad_arguments("no engine command");
    if (config.keep >= 0) return keep(&config, argv + split + 1); /* report: each game's */
    int flags = fcntl(config.report, F_GETFD);
    if (flags < 0 || fcntl(config.report, F_SETFD, flags | FD_CLOEXEC) != 0)
        return bad_arguments("report %d is not open", config.report);
    if (config.drop && drop_privileges(config.drop_uid, config.drop_gid) != 0) {
        char line[128];
        snprintf(line, sizeof line, "warden: cannot drop privileges: %s\n", strerror(errno));
        say(2, line);
        return 1;
    }
    if (config.hold >= 0) {
        fcntl(config.hold, F_SETFD, FD_CLOEXEC);
        if (!wait_for_go(config.hold, config.report)) return 0; /* not used: no engine, no report */
    }
    return run_engine(&config, argv + split + 1);
}
