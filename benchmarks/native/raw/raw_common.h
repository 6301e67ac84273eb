/* The raw floor: what loopback TCP and Unix-domain sockets cost without any messaging
 * library. Four small programs (raw_local_thr, raw_remote_thr, raw_local_lat,
 * raw_remote_lat) take the command lines of the libzmq perf tools (endpoint, message
 * size, count), accept the same endpoints (tcp://HOST:PORT, ipc://PATH) and print the
 * same result lines, so compare.sh runs them as a third implementation.
 *
 * Wire format: each message is an 8-byte big-endian length followed by the payload.
 * Both directions go through a user-space batch of RAW_BATCH_SIZE bytes, the size of
 * libzmq's default encoder and decoder batches: a sender copies small messages into the
 * batch and writes it when full (or when the program flushes: once per message in the
 * latency tools); a message that does not fit is written straight from its buffer with
 * writev. A receiver reads up to a batch at a time and copies each payload out of it into
 * the message buffer; the rest of a large payload is read straight into that buffer.
 * Sockets are blocking, TCP sockets have TCP_NODELAY. Written for this project. */
#ifndef MANAGED_ZMQ_RAW_COMMON_H
#define MANAGED_ZMQ_RAW_COMMON_H

#define _GNU_SOURCE
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* Policy: libzmq's default in_batch_size / out_batch_size. */
#define RAW_BATCH_SIZE 8192
#define RAW_HEADER_SIZE 8
#define RAW_LISTEN_BACKLOG 16

static inline void raw_die(const char *what)
{
    fprintf(stderr, "error in %s: %s\n", what, strerror(errno));
    exit(1);
}

static inline int raw_parse_count(const char *text, const char *name)
{
    char *end = NULL;
    long value = strtol(text, &end, 10);
    if (end == text || *end != '\0' || value < 0 || value > 0x7fffffff) {
        fprintf(stderr, "invalid %s: %s\n", name, text);
        exit(1);
    }
    return (int) value;
}

/* The count in environment variable <name>, or <fallback> when it is unset or empty. */
static inline int raw_env_count(const char *name, int fallback)
{
    const char *value = getenv(name);
    return value != NULL && value[0] != '\0' ? raw_parse_count(value, name) : fallback;
}

/* PERF_WARMUP as in perf_common.h: untimed round trips before the latency clock starts. */
static inline int raw_warmup_count(void)
{
    return raw_env_count("PERF_WARMUP", 0);
}

static inline double raw_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec * 1e6 + (double) ts.tv_nsec / 1e3;
}

/* Resolves tcp://HOST:PORT or ipc://PATH into a socket address; returns the family. */
static inline int raw_address(const char *endpoint, struct sockaddr_storage *addr, socklen_t *len)
{
    memset(addr, 0, sizeof *addr);
    if (strncmp(endpoint, "ipc://", 6) == 0) {
        struct sockaddr_un *un = (struct sockaddr_un *) addr;
        const char *path = endpoint + 6;
        if (strlen(path) >= sizeof un->sun_path) {
            fprintf(stderr, "ipc path too long: %s\n", path);
            exit(1);
        }
        un->sun_family = AF_UNIX;
        strcpy(un->sun_path, path);
        *len = sizeof *un;
        return AF_UNIX;
    }
    if (strncmp(endpoint, "tcp://", 6) == 0) {
        char host[256];
        const char *colon = strrchr(endpoint + 6, ':');
        size_t host_len = colon ? (size_t) (colon - (endpoint + 6)) : 0;
        if (!colon || host_len == 0 || host_len >= sizeof host) {
            fprintf(stderr, "bad tcp endpoint: %s\n", endpoint);
            exit(1);
        }
        memcpy(host, endpoint + 6, host_len);
        host[host_len] = '\0';
        struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM };
        struct addrinfo *found = NULL;
        if (getaddrinfo(host, colon + 1, &hints, &found) != 0 || !found) {
            fprintf(stderr, "cannot resolve %s\n", endpoint);
            exit(1);
        }
        memcpy(addr, found->ai_addr, found->ai_addrlen);
        *len = found->ai_addrlen;
        freeaddrinfo(found);
        return AF_INET;
    }
    fprintf(stderr, "endpoint must be tcp://HOST:PORT or ipc://PATH: %s\n", endpoint);
    exit(1);
}

static inline void raw_nodelay(int fd, int family)
{
    int one = 1;
    if (family == AF_INET && setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0)
        raw_die("setsockopt TCP_NODELAY");
}

/* Binds, listens, accepts one peer and closes the listener (and unlinks an ipc path). */
static inline int raw_accept_one(const char *endpoint)
{
    struct sockaddr_storage addr;
    socklen_t len;
    int family = raw_address(endpoint, &addr, &len);
    int listener = socket(family, SOCK_STREAM, 0);
    if (listener < 0)
        raw_die("socket");
    int one = 1;
    if (family == AF_INET)
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(listener, (struct sockaddr *) &addr, len) != 0)
        raw_die("bind");
    if (listen(listener, RAW_LISTEN_BACKLOG) != 0)
        raw_die("listen");
    int fd = accept(listener, NULL, NULL);
    if (fd < 0)
        raw_die("accept");
    close(listener);
    if (family == AF_UNIX)
        unlink(((struct sockaddr_un *) &addr)->sun_path);
    raw_nodelay(fd, family);
    return fd;
}

static inline int raw_connect(const char *endpoint)
{
    struct sockaddr_storage addr;
    socklen_t len;
    int family = raw_address(endpoint, &addr, &len);
    int fd = socket(family, SOCK_STREAM, 0);
    if (fd < 0)
        raw_die("socket");
    if (connect(fd, (struct sockaddr *) &addr, len) != 0)
        raw_die("connect");
    raw_nodelay(fd, family);
    return fd;
}

/* ---- sending ---- */

typedef struct {
    int fd;
    size_t used;
    unsigned char batch[RAW_BATCH_SIZE];
} raw_writer;

static inline void raw_write_all(int fd, const unsigned char *data, size_t size)
{
    while (size > 0) {
        ssize_t n = send(fd, data, size, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            raw_die("send");
        }
        data += n;
        size -= (size_t) n;
    }
}

static inline void raw_flush(raw_writer *w)
{
    raw_write_all(w->fd, w->batch, w->used);
    w->used = 0;
}

static inline void raw_put_header(unsigned char *out, uint64_t size)
{
    for (int i = RAW_HEADER_SIZE - 1; i >= 0; i--) {
        out[i] = (unsigned char) size;
        size >>= 8;
    }
}

/* Queues one message; writes the batch when the message would not fit. */
static inline void raw_send(raw_writer *w, const unsigned char *payload, size_t size)
{
    if (RAW_HEADER_SIZE + size <= RAW_BATCH_SIZE) {
        if (w->used + RAW_HEADER_SIZE + size > RAW_BATCH_SIZE)
            raw_flush(w);
        raw_put_header(w->batch + w->used, size);
        memcpy(w->batch + w->used + RAW_HEADER_SIZE, payload, size);
        w->used += RAW_HEADER_SIZE + size;
        return;
    }
    /* Large: the header joins whatever is batched, the payload goes from its own buffer. */
    if (w->used + RAW_HEADER_SIZE > RAW_BATCH_SIZE)
        raw_flush(w);
    raw_put_header(w->batch + w->used, size);
    w->used += RAW_HEADER_SIZE;
    struct iovec iov[2] = {
        { .iov_base = w->batch, .iov_len = w->used },
        { .iov_base = (void *) payload, .iov_len = size },
    };
    int first = 0;
    while (first < 2) {
        ssize_t n = writev(w->fd, iov + first, 2 - first);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            raw_die("writev");
        }
        while (first < 2 && (size_t) n >= iov[first].iov_len) {
            n -= (ssize_t) iov[first].iov_len;
            first++;
        }
        if (first < 2) {
            iov[first].iov_base = (char *) iov[first].iov_base + n;
            iov[first].iov_len -= (size_t) n;
        }
    }
    w->used = 0;
}

/* ---- receiving ---- */

typedef struct {
    int fd;
    size_t start, end;
    unsigned char batch[RAW_BATCH_SIZE];
} raw_reader;

/* Refills the batch after moving unread bytes to its front; 0 at end of stream. */
static inline int raw_fill(raw_reader *r)
{
    if (r->start > 0) {
        memmove(r->batch, r->batch + r->start, r->end - r->start);
        r->end -= r->start;
        r->start = 0;
    }
    for (;;) {
        ssize_t n = recv(r->fd, r->batch + r->end, RAW_BATCH_SIZE - r->end, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            raw_die("recv");
        r->end += (size_t) n;
        return n > 0;
    }
}

/* Receives one message into out (capacity cap); returns its size, or -1 at end of stream. */
static inline long raw_recv(raw_reader *r, unsigned char *out, size_t cap)
{
    while (r->end - r->start < RAW_HEADER_SIZE)
        if (!raw_fill(r))
            return -1;
    uint64_t size = 0;
    for (int i = 0; i < RAW_HEADER_SIZE; i++)
        size = (size << 8) | r->batch[r->start + i];
    r->start += RAW_HEADER_SIZE;
    if (size > cap) {
        fprintf(stderr, "message of incorrect size received\n");
        exit(1);
    }
    size_t have = r->end - r->start;
    size_t take = have < size ? have : (size_t) size;
    memcpy(out, r->batch + r->start, take);
    r->start += take;
    while (take < size) {
        ssize_t n = recv(r->fd, out + take, (size_t) size - take, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            raw_die("recv");
        if (n == 0)
            return -1;
        take += (size_t) n;
    }
    return (long) size;
}

#endif
