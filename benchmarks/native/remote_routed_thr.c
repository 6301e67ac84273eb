/* remote_routed_thr <connect-to> <message-size> <message-count>
 * remote_thr for a routed pair (routed_common.h): CLIENT or DEALER connects and sends
 * <message-count> single-frame messages (zmq_msg_init_size + zmq_msg_send, as remote_thr),
 * then closes with the default linger. Prints nothing on success. */
#include "routed_common.h"

int main(int argc, char *argv[])
{
    if (argc != 4) {
        printf("usage: remote_routed_thr <connect-to> <message-size> <message-count>\n");
        return 1;
    }
    const char *connect_to = argv[1];
    int message_size = perf_parse_count(argv[2], "message-size");
    int message_count = perf_parse_count(argv[3], "message-count");

    void *ctx = zmq_ctx_new();
    if (!ctx)
        perf_die("zmq_ctx_new");
    void *remote = zmq_socket(ctx, ROUTED_REMOTE_TYPE);
    if (!remote)
        perf_die("zmq_socket");
    if (zmq_connect(remote, connect_to) != 0)
        perf_die("zmq_connect");

    zmq_msg_t msg;
    for (int i = 0; i != message_count; i++) {
        if (zmq_msg_init_size(&msg, (size_t) message_size) != 0)
            perf_die("zmq_msg_init_size");
        if (zmq_msg_send(&msg, remote, 0) < 0)
            perf_die("zmq_msg_send");
    }

    zmq_close(remote);
    zmq_ctx_term(ctx);
    return 0;
}
