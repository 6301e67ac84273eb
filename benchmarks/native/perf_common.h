/* Shared helpers for the libzmq side of the Managed.Zmq benchmarks.
 * Written for this project; mirrors the command lines, output lines and
 * clock rules of libzmq's perf/ tools so results are comparable. */
#ifndef MANAGED_ZMQ_PERF_COMMON_H
#define MANAGED_ZMQ_PERF_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

static inline void perf_die(const char *what)
{
    fprintf(stderr, "error in %s: %s\n", what, zmq_strerror(zmq_errno()));
    exit(1);
}

/* Strict positive integer parse; libzmq uses atoi, we reject garbage instead. */
static inline int perf_parse_count(const char *text, const char *name)
{
    char *end = NULL;
    long value = strtol(text, &end, 10);
    if (end == text || *end != '\0' || value < 0 || value > 0x7fffffff) {
        fprintf(stderr, "invalid %s: %s\n", name, text);
        exit(1);
    }
    return (int) value;
}

/* Untimed round trips before a latency tool starts its clock (PERF_WARMUP=<count> in the
 * environment, arguments unchanged; default 0, libzmq's perf tools' figure). The echoing side
 * answers count + warm-up requests; the asking side times only the last count of them, so
 * the figure leaves out connecting and whatever a first message costs once. */
static inline int perf_warmup_count(void)
{
    const char *value = getenv("PERF_WARMUP");
    return value != NULL && value[0] != '\0' ? perf_parse_count(value, "PERF_WARMUP") : 0;
}

/* Opt-in CURVE (PERF_CURVE=1 in the environment, arguments unchanged): the local side
 * (binds) is the CURVE server, the remote side (connects) the client. Fixed key pairs:
 * the CURVE test key pairs of libzmq's own tests and documentation, in Z85. */
#define PERF_CURVE_SERVER_PUBLIC "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"
#define PERF_CURVE_SERVER_SECRET "JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6"
#define PERF_CURVE_CLIENT_PUBLIC "Yne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID"
#define PERF_CURVE_CLIENT_SECRET "D:)Q[IlAW!ahhC2ac:9*A}h:p?([4%wOTJ%JR%cs"

static inline int perf_curve_enabled(void)
{
    const char *value = getenv("PERF_CURVE");
    return value != NULL && value[0] != '\0' && strcmp(value, "0") != 0;
}

/* Call before zmq_bind. */
static inline void perf_curve_server(void *socket)
{
    if (!perf_curve_enabled())
        return;
    int one = 1;
    if (zmq_setsockopt(socket, ZMQ_CURVE_SERVER, &one, sizeof one) != 0
        || zmq_setsockopt(socket, ZMQ_CURVE_SECRETKEY, PERF_CURVE_SERVER_SECRET, 40) != 0)
        perf_die("zmq_setsockopt (CURVE server)");
}

/* Call before zmq_connect. */
static inline void perf_curve_client(void *socket)
{
    if (!perf_curve_enabled())
        return;
    if (zmq_setsockopt(socket, ZMQ_CURVE_SERVERKEY, PERF_CURVE_SERVER_PUBLIC, 40) != 0
        || zmq_setsockopt(socket, ZMQ_CURVE_PUBLICKEY, PERF_CURVE_CLIENT_PUBLIC, 40) != 0
        || zmq_setsockopt(socket, ZMQ_CURVE_SECRETKEY, PERF_CURVE_CLIENT_SECRET, 40) != 0)
        perf_die("zmq_setsockopt (CURVE client)");
}

/* Opt-in I/O thread count (PERF_IO_THREADS=n in the environment; libzmq's default is 1).
 * Call before the first socket is created. */
static inline void perf_io_threads(void *ctx)
{
    const char *value = getenv("PERF_IO_THREADS");
    if (value == NULL || value[0] == '\0')
        return;
    int threads = perf_parse_count(value, "PERF_IO_THREADS");
    if (zmq_ctx_set(ctx, ZMQ_IO_THREADS, threads) != 0)
        perf_die("zmq_ctx_set (ZMQ_IO_THREADS)");
}

/* The fan-out/fan-in tools' usage and arguments: <endpoint> <size> <count> <peers>. */
static inline void perf_fan_args(int argc, char *argv[], const char *usage,
                                 int *message_size, int *message_count, int *peers)
{
    if (argc != 5) {
        printf("usage: %s\n", usage);
        exit(1);
    }
    *message_size = perf_parse_count(argv[2], "message-size");
    *message_count = perf_parse_count(argv[3], "message-count");
    *peers = perf_parse_count(argv[4], "peer count");
    if (*message_count < 1 || *peers < 1) {
        fprintf(stderr, "message-count and the peer count must be at least 1\n");
        exit(1);
    }
}

#endif
