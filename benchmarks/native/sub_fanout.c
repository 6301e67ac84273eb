/* sub_fanout <connect-to> <message-size> <message-count> <subscribers>
 * Fan-out, measuring side: <subscribers> SUB sockets in one context subscribe to
 * everything, connect, and each receives <message-count> messages. One thread serves
 * them all: it drains each socket without blocking in turn and blocks in zmq_poll only
 * when a whole pass found nothing. The clock starts at the first message; the figures are
 * published messages per second (each reaching every subscriber) and deliveries per
 * second (that times <subscribers>). */
#include "perf_common.h"

int main(int argc, char *argv[])
{
    int message_size, message_count, subscribers;
    perf_fan_args(argc, argv, "sub_fanout <connect-to> <message-size> <message-count> <subscribers>",
                  &message_size, &message_count, &subscribers);

    void *ctx = zmq_ctx_new();
    if (!ctx)
        perf_die("zmq_ctx_new");
    perf_io_threads(ctx);
    void **subs = calloc((size_t) subscribers, sizeof *subs);
    int *remaining = calloc((size_t) subscribers, sizeof *remaining);
    zmq_pollitem_t *items = calloc((size_t) subscribers, sizeof *items);
    if (!subs || !remaining || !items)
        perf_die("calloc");
    for (int i = 0; i != subscribers; i++) {
        subs[i] = zmq_socket(ctx, ZMQ_SUB);
        if (!subs[i])
            perf_die("zmq_socket");
        if (zmq_setsockopt(subs[i], ZMQ_SUBSCRIBE, "", 0) != 0)
            perf_die("zmq_setsockopt (ZMQ_SUBSCRIBE)");
        if (zmq_connect(subs[i], argv[1]) != 0)
            perf_die("zmq_connect");
        remaining[i] = message_count;
        items[i].socket = subs[i];
        items[i].events = ZMQ_POLLIN;
    }

    zmq_msg_t msg;
    if (zmq_msg_init(&msg) != 0)
        perf_die("zmq_msg_init");
    long long left = (long long) message_count * subscribers;
    void *watch = NULL;
    while (left > 0) {
        int progress = 0;
        for (int i = 0; i != subscribers; i++) {
            while (remaining[i] > 0) {
                if (zmq_msg_recv(&msg, subs[i], ZMQ_DONTWAIT) < 0) {
                    if (zmq_errno() != EAGAIN)
                        perf_die("zmq_msg_recv");
                    break;
                }
                if ((int) zmq_msg_size(&msg) != message_size) {
                    fprintf(stderr, "message of incorrect size received\n");
                    return 1;
                }
                if (!watch)
                    watch = zmq_stopwatch_start();
                remaining[i]--;
                left--;
                progress = 1;
            }
        }
        if (!progress && zmq_poll(items, subscribers, -1) < 0)
            perf_die("zmq_poll");
    }
    unsigned long elapsed = zmq_stopwatch_stop(watch);
    if (elapsed == 0)
        elapsed = 1;
    zmq_msg_close(&msg);

    double published = (double) message_count / (double) elapsed * 1000000;
    printf("message size: %d [B]\n", message_size);
    printf("message count: %d\n", message_count);
    printf("subscribers: %d\n", subscribers);
    printf("mean throughput: %d [msg/s]\n", (int) published);
    printf("deliveries: %.0f [msg/s]\n", published * subscribers);

    for (int i = 0; i != subscribers; i++)
        zmq_close(subs[i]);
    zmq_ctx_term(ctx);
    free(subs);
    free(remaining);
    free(items);
    return 0;
}
