/* local_radio_thr <bind-to> <message-size> <message-count>
 * local_thr for a group pair (radio_common.h): DISH (joined to one group) or SUB binds and
 * receives up to <message-count> messages, stopping early when none has arrived for
 * RADIO_IDLE_MS (udp loses datagrams). The clock starts when the first message has arrived
 * and stops at the last one; the mean divides the messages received by that interval (the
 * first included, as local_thr counts it). Prints local_thr's lines, with "message count" the
 * messages received, and a "message loss" line. */
#include "radio_common.h"

static int receive_one(void *local, zmq_msg_t *msg, int flags, int message_size)
{
    if (zmq_msg_recv(msg, local, flags) < 0) {
        if (zmq_errno() != EAGAIN)
            perf_die("zmq_msg_recv");
        return 0;
    }
    if ((int) zmq_msg_size(msg) != message_size) {
        fprintf(stderr, "message of incorrect size received\n");
        exit(1);
    }
    return 1;
}

int main(int argc, char *argv[])
{
    if (argc != 4) {
        printf("usage: local_radio_thr <bind-to> <message-size> <message-count>\n");
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
    void *local = zmq_socket(ctx, RADIO_LOCAL_TYPE);
    if (!local)
        perf_die("zmq_socket");
    radio_local_setup(local);
    radio_set_int(local, ZMQ_RCVTIMEO, RADIO_FIRST_WAIT_MS, "zmq_setsockopt (ZMQ_RCVTIMEO)");
    if (zmq_bind(local, bind_to) != 0)
        perf_die("zmq_bind");

    zmq_msg_t msg;
    if (zmq_msg_init(&msg) != 0)
        perf_die("zmq_msg_init");

    if (!receive_one(local, &msg, 0, message_size)) {
        fprintf(stderr, "no message within %d ms\n", RADIO_FIRST_WAIT_MS);
        return 1;
    }
    radio_set_int(local, ZMQ_RCVTIMEO, RADIO_IDLE_MS, "zmq_setsockopt (ZMQ_RCVTIMEO)");

    void *watch = zmq_stopwatch_start();
    unsigned long elapsed = 0;
    int received = 1;
    while (received != message_count) {
        if (!receive_one(local, &msg, ZMQ_DONTWAIT, message_size)) {
            /* Ran dry: the clock reads here, just after the last message so far, and only here,
             * so a steady stream is not slowed by clock reads. */
            elapsed = zmq_stopwatch_intermediate(watch);
            if (!receive_one(local, &msg, 0, message_size))
                break; /* idle for RADIO_IDLE_MS: the sender is done, the rest was lost */
        }
        received++;
    }
    unsigned long total = zmq_stopwatch_stop(watch);
    if (received == message_count)
        elapsed = total;
    if (elapsed == 0)
        elapsed = 1;

    zmq_msg_close(&msg);

    unsigned long throughput = (unsigned long) ((double) received / (double) elapsed * 1000000);
    double megabits = (double) (throughput * message_size * 8) / 1000000;
    int lost = message_count - received;

    printf("message size: %d [B]\n", message_size);
    printf("message count: %d\n", received);
    printf("message loss: %d of %d (%.3f %%)\n", lost, message_count, 100.0 * lost / message_count);
    printf("mean throughput: %d [msg/s]\n", (int) throughput);
    printf("mean throughput: %.3f [Mb/s]\n", megabits);

    zmq_close(local);
    zmq_ctx_term(ctx);
    return 0;
}
