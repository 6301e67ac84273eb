/* remote_thr <connect-to> <message-size> <message-count>
 * PUSH connects and sends <message-count> messages of <message-size> bytes,
 * then closes with the default linger so every message is delivered before
 * the process exits. Prints nothing on success. */
#include "perf_common.h"

int main(int argc, char *argv[])
{
    if (argc != 4) {
        printf("usage: remote_thr <connect-to> <message-size> <message-count>\n");
        return 1;
    }
    const char *connect_to = argv[1];
    int message_size = perf_parse_count(argv[2], "message-size");
    int message_count = perf_parse_count(argv[3], "message-count");

    void *ctx = zmq_ctx_new();
    if (!ctx)
        perf_die("zmq_ctx_new");
    void *push = zmq_socket(ctx, ZMQ_PUSH);
    if (!push)
        perf_die("zmq_socket");
    perf_curve_client(push);
    if (zmq_connect(push, connect_to) != 0)
        perf_die("zmq_connect");

    zmq_msg_t msg;
    for (int i = 0; i != message_count; i++) {
        if (zmq_msg_init_size(&msg, (size_t) message_size) != 0)
            perf_die("zmq_msg_init_size");
        if (zmq_msg_send(&msg, push, 0) < 0)
            perf_die("zmq_msg_send");
    }

    /* Default linger (-1): zmq_ctx_term waits until the queue is flushed. */
    zmq_close(push);
    zmq_ctx_term(ctx);
    return 0;
}
