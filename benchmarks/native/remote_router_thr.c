/* remote_router_thr <connect-to> <message-size> <message-count>
 * remote_thr for ROUTER to ROUTER: a ROUTER with routing id "remote" and
 * ZMQ_ROUTER_MANDATORY connects, retries the first send until the peer
 * "local" is known (EHOSTUNREACH until the handshake is done), then sends
 * <message-count> messages [local][payload] and closes with the default
 * linger. Prints nothing on success. */
#define _POSIX_C_SOURCE 199309L
#include <errno.h>
#include <time.h>
#include "perf_common.h"

int main(int argc, char *argv[])
{
    if (argc != 4) {
        printf("usage: remote_router_thr <connect-to> <message-size> <message-count>\n");
        return 1;
    }
    const char *connect_to = argv[1];
    int message_size = perf_parse_count(argv[2], "message-size");
    int message_count = perf_parse_count(argv[3], "message-count");

    void *ctx = zmq_ctx_new();
    if (!ctx)
        perf_die("zmq_ctx_new");
    void *router = zmq_socket(ctx, ZMQ_ROUTER);
    if (!router)
        perf_die("zmq_socket");
    int mandatory = 1;
    if (zmq_setsockopt(router, ZMQ_ROUTING_ID, "remote", 6) != 0
        || zmq_setsockopt(router, ZMQ_ROUTER_MANDATORY, &mandatory, sizeof mandatory) != 0)
        perf_die("zmq_setsockopt");
    if (zmq_connect(router, connect_to) != 0)
        perf_die("zmq_connect");

    zmq_msg_t msg;
    for (int i = 0; i != message_count; i++) {
        while (zmq_send(router, "local", 5, ZMQ_SNDMORE) < 0) {
            if (i != 0 || zmq_errno() != EHOSTUNREACH)
                perf_die("zmq_send");
            struct timespec pause = {0, 1000000};
            nanosleep(&pause, NULL);
        }
        if (zmq_msg_init_size(&msg, (size_t) message_size) != 0)
            perf_die("zmq_msg_init_size");
        if (zmq_msg_send(&msg, router, 0) < 0)
            perf_die("zmq_msg_send");
    }

    zmq_close(router);
    zmq_ctx_term(ctx);
    return 0;
}
