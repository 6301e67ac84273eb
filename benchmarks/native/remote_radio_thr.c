/* remote_radio_thr <connect-to> <message-size> <message-count>
 * remote_thr for a group pair (radio_common.h): RADIO or XPUB connects with ZMQ_XPUB_NODROP,
 * waits until the peer can receive (XPUB: its subscription; RADIO: RADIO_JOIN_WAIT_MS, none
 * over udp), and sends <message-count> single-frame messages (zmq_msg_init_size + the group
 * + zmq_msg_send, as remote_thr), then closes with the default linger. Prints nothing. */
#include "radio_common.h"

int main(int argc, char *argv[])
{
    if (argc != 4) {
        printf("usage: remote_radio_thr <connect-to> <message-size> <message-count>\n");
        return 1;
    }
    const char *connect_to = argv[1];
    int message_size = perf_parse_count(argv[2], "message-size");
    int message_count = perf_parse_count(argv[3], "message-count");

    void *ctx = zmq_ctx_new();
    if (!ctx)
        perf_die("zmq_ctx_new");
    void *remote = zmq_socket(ctx, RADIO_REMOTE_TYPE);
    if (!remote)
        perf_die("zmq_socket");
    radio_set_int(remote, ZMQ_XPUB_NODROP, 1, "zmq_setsockopt (ZMQ_XPUB_NODROP)");
    if (zmq_connect(remote, connect_to) != 0)
        perf_die("zmq_connect");
    radio_remote_wait(remote, connect_to);

    zmq_msg_t msg;
    for (int i = 0; i != message_count; i++) {
        if (zmq_msg_init_size(&msg, (size_t) message_size) != 0)
            perf_die("zmq_msg_init_size");
        radio_set_group(&msg);
        if (zmq_msg_send(&msg, remote, 0) < 0)
            perf_die("zmq_msg_send");
    }

    zmq_close(remote);
    zmq_ctx_term(ctx);
    return 0;
}
