#define _GNU_SOURCE /* POLLRDHUP */
#include "CWaylandPresentation.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <wayland-client.h>

/* A client's socket connected to a listening Unix socket reports that
 * socket's bound path as its peer address (Linux copies the listener's
 * address onto the accepted end), so SDL's connection is the socket whose
 * peer is the server's path. `abstract`: the path in the abstract namespace
 * (a leading NUL), as Xlib connects first on Linux. */
static int peer_is(int fd, const char *path, int abstract) {
    struct sockaddr_un address;
    socklen_t length = sizeof address;
    memset(&address, 0, sizeof address);
    if (getpeername(fd, (struct sockaddr *)&address, &length) != 0 || address.sun_family != AF_UNIX) return 0;
    size_t offset = offsetof(struct sockaddr_un, sun_path);
    if (length <= offset) return 0;
    const char *name = address.sun_path;
    size_t name_length = length - offset;
    if (abstract) {
        if (name[0] != '\0') return 0;
        name++, name_length--;
    }
    size_t wanted = strlen(path);
    /* A path address may or may not count its closing NUL. */
    if (name_length > wanted && name[wanted] == '\0') name_length = wanted;
    return name_length == wanted && memcmp(name, path, wanted) == 0;
}

int cadence_server_socket_find(const char *path, unsigned long *inode) {
    DIR *descriptors = opendir("/proc/self/fd");
    if (descriptors == NULL) return -1;
    int found = -1;
    struct dirent *entry;
    while ((entry = readdir(descriptors)) != NULL) {
        char *end;
        long fd = strtol(entry->d_name, &end, 10);
        if (*end != '\0' || entry->d_name[0] == '\0' || fd == dirfd(descriptors)) continue;
        struct stat status;
        if (fstat((int)fd, &status) != 0 || !S_ISSOCK(status.st_mode)) continue;
        if ((peer_is((int)fd, path, 0) || peer_is((int)fd, path, 1)) && fd > found) {
            found = (int)fd;
            *inode = (unsigned long)status.st_ino;
        }
    }
    closedir(descriptors);
    return found;
}

int cadence_server_socket_closed(int fd, unsigned long inode) {
    struct stat status;
    if (fstat(fd, &status) != 0 || (unsigned long)status.st_ino != inode) return -1;
    /* Asks for nothing but the hang-up, which poll reports whatever is asked;
     * nothing is read, so SDL's own reads are untouched. */
    struct pollfd entry = {.fd = fd, .events = POLLRDHUP};
    if (poll(&entry, 1, 0) != 1) return 0;
    return (entry.revents & (POLLHUP | POLLRDHUP | POLLERR)) != 0;
}

/* Connects to `path`, or to the same name in the abstract namespace: the
 * answer where the listener is not in this process's network namespace. */
static int accepts(const char *path, int abstract) {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return 0;
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path + abstract, path, sizeof address.sun_path - 1 - abstract);
    socklen_t length = abstract ? (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(path)) : sizeof address;
    int accepted = connect(fd, (struct sockaddr *)&address, length) == 0 || errno == EAGAIN;
    close(fd);
    return accepted;
}

/* Whether the line of /proc/net/unix in `line` (`length` bytes, no newline)
 * is a socket bound to `path` or to its abstract twin ("@path"): -1 if not,
 * else 1 when it listens (the kernel's __SO_ACCEPTCON flag), 0 when not. */
static int listed(const char *line, size_t length, const char *path) {
    /* "Num: RefCount Protocol Flags Type St Inode Path": the flags are the
     * fourth field, the path the eighth (absent for an unbound socket). */
    size_t field = 0, at = 0, starts[8];
    while (at < length && field < 8) {
        while (at < length && line[at] == ' ') at++;
        if (at == length) break;
        starts[field++] = at;
        while (at < length && line[at] != ' ') at++;
    }
    if (field < 8) return -1;
    const char *name = line + starts[7];
    size_t name_length = length - starts[7], wanted = strlen(path);
    if (name_length == wanted + 1 && name[0] == '@') name++, name_length--;
    if (name_length != wanted || memcmp(name, path, wanted) != 0) return -1;
    unsigned long flags = 0;
    for (const char *digit = line + starts[3]; digit < line + length && *digit != ' '; digit++) {
        int value = *digit >= 'a' ? *digit - 'a' + 10 : *digit >= 'A' ? *digit - 'A' + 10 : *digit - '0';
        flags = flags * 16 + (unsigned long)value;
    }
    return (flags & 0x10000UL) != 0;
}

/* 1 when /proc/net/unix lists a listening socket bound to `path` (or its
 * abstract twin), 0 when it lists one bound there and none listens, -1 when
 * it lists none (the server may be in another network namespace, as in a
 * sandbox given only its socket) or cannot be read. Only open, read and
 * close: async-signal-safe, for the fault handler below. */
static int listed_listening(const char *path) {
    int fd = open("/proc/net/unix", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char buffer[4096];
    size_t held = 0;
    int found = -1, header = 1;
    for (;;) {
        ssize_t got = read(fd, buffer + held, sizeof buffer - held);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        held += (size_t)got;
        size_t start = 0;
        for (size_t i = 0; i < held; i++) {
            if (buffer[i] != '\n') continue;
            int verdict = header ? -1 : listed(buffer + start, i - start, path);
            header = 0;
            if (verdict > found) found = verdict;
            start = i + 1;
        }
        /* A line longer than the buffer (no path is) is dropped. */
        held = start == 0 && held == sizeof buffer ? 0 : held - start;
        memmove(buffer, buffer + start, held);
        if (found == 1) break;
    }
    close(fd);
    return found;
}

/* Read from the kernel's table of Unix sockets rather than by connecting:
 * an X server counts a connection that closes at once as a client, and one
 * started without -noreset (xvfb-run's) resets when its last client leaves,
 * dropping the game's own connection if it comes during the reset. */
int cadence_server_listening(const char *path) {
    int verdict = listed_listening(path);
    if (verdict >= 0) return verdict;
    return accepts(path, 0) || accepts(path, 1);
}

int cadence_wl_protocol_error(struct wl_display *display, char *interface, int length, uint32_t *object) {
    if (display == NULL || wl_display_get_error(display) == 0) return -1;
    /* The error number alone does not tell: the compositor's errors on
     * wl_display itself read as EINVAL, ENOMEM or EFAULT too. One it sent
     * names its object; libwayland's own failures name none. */
    const struct wl_interface *which = NULL;
    *object = 0;
    uint32_t code = wl_display_get_protocol_error(display, &which, object);
    if (which == NULL && *object == 0) return -1;
    snprintf(interface, (size_t)length, "%s", which != NULL ? which->name : "unknown");
    return (int)code;
}

/* -1: no guard; -2: the server was gone already; -3: the servers at
 * fault_paths, asked whether they still listen; else SDL's connection. */
static volatile sig_atomic_t fault_fd = -1;
static unsigned long fault_inode;
static char fault_paths[2][108];
static char fault_message[1024];
static struct sigaction fault_previous[2];

/* Whether a server the guard names no longer listens. */
static int fault_server_gone(void) {
    for (int i = 0; i < 2; i++) {
        if (fault_paths[i][0] != '\0' && !cadence_server_listening(fault_paths[i])) return 1;
    }
    return 0;
}

/* A fault with the connection closed: the driver crashed on it. Anything
 * else goes back to the handler before ours, and returning re-runs the
 * faulting instruction under it. Only async-signal-safe calls here. */
static void on_fault(int number, siginfo_t *info, void *context) {
    (void)info, (void)context;
    if (fault_fd == -2 || (fault_fd == -3 && fault_server_gone())
        || (fault_fd >= 0 && cadence_server_socket_closed(fault_fd, fault_inode) == 1)) {
        ssize_t written = write(STDERR_FILENO, fault_message, strlen(fault_message));
        (void)written;
        _exit(1);
    }
    sigaction(number, &fault_previous[number == SIGBUS], NULL);
}

/* The handler's own stack: a fault from a stack that overflowed (a driver
 * recursing on its broken connection) could not run it on the thread's. */
static char fault_stack[64 * 1024];

void cadence_fault_guard_begin_servers(const char *wayland, const char *x, const char *message) {
    snprintf(fault_paths[0], sizeof fault_paths[0], "%s", wayland != NULL ? wayland : "");
    snprintf(fault_paths[1], sizeof fault_paths[1], "%s", x != NULL ? x : "");
    cadence_fault_guard_begin(-3, 0, message);
}

void cadence_fault_guard_begin(int fd, unsigned long inode, const char *message) {
    snprintf(fault_message, sizeof fault_message, "%s", message);
    stack_t current;
    if (sigaltstack(NULL, &current) == 0 && (current.ss_flags & SS_DISABLE)) {
        stack_t own = {.ss_sp = fault_stack, .ss_size = sizeof fault_stack, .ss_flags = 0};
        sigaltstack(&own, NULL);
    }
    fault_inode = inode;
    fault_fd = fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_fault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, &fault_previous[0]);
    sigaction(SIGBUS, &action, &fault_previous[1]);
}

void cadence_fault_guard_end(void) {
    fault_fd = -1;
    sigaction(SIGSEGV, &fault_previous[0], NULL);
    sigaction(SIGBUS, &fault_previous[1], NULL);
}
