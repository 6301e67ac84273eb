/* router_fanin <bind-to> <message-size> <message-count> <dealers>
 * Fan-in, measuring side: a ROUTER binds and receives <message-count> two-frame messages
 * [routing id][payload] from all dealers together (dealer_fanin). The clock starts at the
 * first message; the lines printed are local_thr's plus the dealer count. */
#include "perf_common.h"

int main(int argc, char *argv[])
{
    int message_size, message_count, dealers;
    perf_fan_args(argc, argv, "router_fanin <bind-to> <message-size> <message-count> <dealers>",
                  &message_size, &message_count, &dealers);

    void *ctx = zmq_ctx_new();
    if (!ctx)
        perf_die("zmq_ctx_new");
    perf_io_threads(ctx);
    void *router = zmq_socket(ctx, ZMQ_ROUTER);
    if (!router)
        perf_die("zmq_socket");
    if (zmq_bind(router, argv[1]) != 0)
        perf_die("zmq_bind");

    zmq_msg_t id, msg;
    if (zmq_msg_init(&id) != 0 || zmq_msg_init(&msg) != 0)
        perf_die("zmq_msg_init");
    void *watch = NULL;
    for (int i = 0; i != message_count; i++) {
        if (zmq_msg_recv(&id, router, 0) < 0)
            perf_die("zmq_msg_recv");
        if (!zmq_msg_more(&id)) {
            fprintf(stderr, "routing id frame without payload\n");
            return 1;
        }
        if (zmq_msg_recv(&msg, router, 0) < 0)
            perf_die("zmq_msg_recv");
        if ((int) zmq_msg_size(&msg) != message_size) {
            fprintf(stderr, "message of incorrect size received\n");
            return 1;
        }
        if (!watch)
            watch = zmq_stopwatch_start();
    }
    unsigned long elapsed = zmq_stopwatch_stop(watch);
    if (elapsed == 0)
        elapsed = 1;
    zmq_msg_close(&id);
    zmq_msg_close(&msg);

    unsigned long throughput = (unsigned long) ((double) message_count / (double) elapsed * 1000000);
    printf("message size: %d [B]\n", message_size);
    printf("message count: %d\n", message_count);
    printf("dealers: %d\n", dealers);
    printf("mean throughput: %d [msg/s]\n", (int) throughput);
    printf("mean throughput: %.3f [Mb/s]\n", (double) throughput * message_size * 8 / 1000000);

    zmq_close(router);
    zmq_ctx_term(ctx);
    return 0;
}
