/* pub_fanout <bind-to> <message-size> <message-count> <subscribers>
 * Fan-out, publishing side: an XPUB binds, waits until <subscribers> subscriptions have
 * arrived (ZMQ_XPUB_VERBOSE, so each subscriber's one is seen), then publishes
 * <message-count> messages, one zmq_msg_t rebuilt per send as remote_thr does.
 * ZMQ_XPUB_NODROP makes a full subscriber pipe block the send instead of dropping, so
 * every subscriber gets every message and the figure is a delivery rate, not a drop rate.
 * Closes with the default linger, so everything is delivered. sub_fanout measures. */
#include "perf_common.h"

int main(int argc, char *argv[])
{
    int message_size, message_count, subscribers;
    perf_fan_args(argc, argv, "pub_fanout <bind-to> <message-size> <message-count> <subscribers>",
                  &message_size, &message_count, &subscribers);

    void *ctx = zmq_ctx_new();
    if (!ctx)
        perf_die("zmq_ctx_new");
    perf_io_threads(ctx);
    void *pub = zmq_socket(ctx, ZMQ_XPUB);
    if (!pub)
        perf_die("zmq_socket");
    int one = 1;
    if (zmq_setsockopt(pub, ZMQ_XPUB_VERBOSE, &one, sizeof one) != 0
        || zmq_setsockopt(pub, ZMQ_XPUB_NODROP, &one, sizeof one) != 0)
        perf_die("zmq_setsockopt");
    if (zmq_bind(pub, argv[1]) != 0)
        perf_die("zmq_bind");

    zmq_msg_t msg;
    if (zmq_msg_init(&msg) != 0)
        perf_die("zmq_msg_init");
    for (int i = 0; i != subscribers; i++)
        if (zmq_msg_recv(&msg, pub, 0) < 0)
            perf_die("zmq_msg_recv (subscription)");
    zmq_msg_close(&msg);

    for (int i = 0; i != message_count; i++) {
        if (zmq_msg_init_size(&msg, (size_t) message_size) != 0)
            perf_die("zmq_msg_init_size");
        if (zmq_msg_send(&msg, pub, 0) < 0)
            perf_die("zmq_msg_send");
    }

    zmq_close(pub);
    zmq_ctx_term(ctx);
    return 0;
}
