/* local_router_thr <bind-to> <message-size> <message-count>
 * local_thr for ROUTER to ROUTER: a ROUTER with routing id "local" binds and
 * receives <message-count> two-frame messages [peer-id][payload]. The clock
 * starts when the first message has arrived; the lines printed are local_thr's
 * and only the payload counts towards the size. */
#include "perf_common.h"

static void recv_message(void *router, zmq_msg_t *id, zmq_msg_t *msg, int message_size)
{
    if (zmq_msg_recv(id, router, 0) < 0)
        perf_die("zmq_msg_recv");
    if (!zmq_msg_more(id)) {
        fprintf(stderr, "routing id frame without payload\n");
        exit(1);
    }
    if (zmq_msg_recv(msg, router, 0) < 0)
        perf_die("zmq_msg_recv");
    if ((int) zmq_msg_size(msg) != message_size) {
        fprintf(stderr, "message of incorrect size received\n");
        exit(1);
    }
}

int main(int argc, char *argv[])
{
    if (argc != 4) {
        printf("usage: local_router_thr <bind-to> <message-size> <message-count>\n");
        return 1;
    }
    const char *bind_to = argv[1];
    int message_size = perf_parse_count(argv[2], "message-size");
    int message_count = perf_parse_count(argv[3], "message-count");
    if (message_count < 1) {
        fprintf(stderr, "message-count must be at least 1\n");
        return 1;
    }

    void *ctx = zmq_ctx_new();
    if (!ctx)
        perf_die("zmq_ctx_new");
    void *router = zmq_socket(ctx, ZMQ_ROUTER);
    if (!router)
        perf_die("zmq_socket");
    if (zmq_setsockopt(router, ZMQ_ROUTING_ID, "local", 5) != 0)
        perf_die("zmq_setsockopt");
    if (zmq_bind(router, bind_to) != 0)
        perf_die("zmq_bind");

    zmq_msg_t id, msg;
    if (zmq_msg_init(&id) != 0 || zmq_msg_init(&msg) != 0)
        perf_die("zmq_msg_init");

    recv_message(router, &id, &msg, message_size);
    void *watch = zmq_stopwatch_start();
    for (int i = 1; i != message_count; i++)
        recv_message(router, &id, &msg, message_size);
    unsigned long elapsed = zmq_stopwatch_stop(watch);
    if (elapsed == 0)
        elapsed = 1;

    zmq_msg_close(&id);
    zmq_msg_close(&msg);

    unsigned long throughput =
        (unsigned long) ((double) message_count / (double) elapsed * 1000000);
    double megabits = (double) (throughput * message_size * 8) / 1000000;

    printf("message size: %d [B]\n", message_size);
    printf("message count: %d\n", message_count);
    printf("mean throughput: %d [msg/s]\n", (int) throughput);
    printf("mean throughput: %.3f [Mb/s]\n", megabits);

    zmq_close(router);
    zmq_ctx_term(ctx);
    return 0;
}
