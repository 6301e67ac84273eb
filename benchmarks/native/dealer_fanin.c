/* dealer_fanin <connect-to> <message-size> <message-count> <dealers>
 * Fan-in, sending side: <dealers> DEALER sockets in one context connect, and one thread
 * sends <message-count> messages in turn over them (message i on dealer i mod <dealers>),
 * one zmq_msg_t rebuilt per send as remote_thr does. Closes with the default linger, so
 * everything is delivered. router_fanin measures. */
#include "perf_common.h"

int main(int argc, char *argv[])
{
    int message_size, message_count, dealers;
    perf_fan_args(argc, argv, "dealer_fanin <connect-to> <message-size> <message-count> <dealers>",
                  &message_size, &message_count, &dealers);

    void *ctx = zmq_ctx_new();
    if (!ctx)
        perf_die("zmq_ctx_new");
    perf_io_threads(ctx);
    void **sockets = calloc((size_t) dealers, sizeof *sockets);
    if (!sockets)
        perf_die("calloc");
    for (int i = 0; i != dealers; i++) {
        sockets[i] = zmq_socket(ctx, ZMQ_DEALER);
        if (!sockets[i])
            perf_die("zmq_socket");
        if (zmq_connect(sockets[i], argv[1]) != 0)
            perf_die("zmq_connect");
    }

    zmq_msg_t msg;
    for (int i = 0; i != message_count; i++) {
        if (zmq_msg_init_size(&msg, (size_t) message_size) != 0)
            perf_die("zmq_msg_init_size");
        if (zmq_msg_send(&msg, sockets[i % dealers], 0) < 0)
            perf_die("zmq_msg_send");
    }

    for (int i = 0; i != dealers; i++)
        zmq_close(sockets[i]);
    zmq_ctx_term(ctx);
    free(sockets);
    return 0;
}
