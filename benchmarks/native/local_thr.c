/* local_thr <bind-to> <message-size> <message-count>
 * PULL binds and receives <message-count> messages. The clock starts when the
 * first message has arrived, so connection setup is not measured; as in
 * libzmq, the mean divides the full count by that interval. */
#include "perf_common.h"

int main(int argc, char *argv[])
{
    if (argc != 4) {
        printf("usage: local_thr <bind-to> <message-size> <message-count>\n");
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
    void *pull = zmq_socket(ctx, ZMQ_PULL);
    if (!pull)
        perf_die("zmq_socket");
    perf_curve_server(pull);
    if (zmq_bind(pull, bind_to) != 0)
        perf_die("zmq_bind");

    zmq_msg_t msg;
    if (zmq_msg_init(&msg) != 0)
        perf_die("zmq_msg_init");

    if (zmq_msg_recv(&msg, pull, 0) < 0)
        perf_die("zmq_msg_recv");
    if ((int) zmq_msg_size(&msg) != message_size) {
        fprintf(stderr, "message of incorrect size received\n");
        return 1;
    }

    void *watch = zmq_stopwatch_start();
    for (int i = 1; i != message_count; i++) {
        if (zmq_msg_recv(&msg, pull, 0) < 0)
            perf_die("zmq_msg_recv");
        if ((int) zmq_msg_size(&msg) != message_size) {
            fprintf(stderr, "message of incorrect size received\n");
            return 1;
        }
    }
    unsigned long elapsed = zmq_stopwatch_stop(watch);
    if (elapsed == 0)
        elapsed = 1;

    zmq_msg_close(&msg);

    unsigned long throughput =
        (unsigned long) ((double) message_count / (double) elapsed * 1000000);
    double megabits = (double) (throughput * message_size * 8) / 1000000;

    printf("message size: %d [B]\n", message_size);
    printf("message count: %d\n", message_count);
    printf("mean throughput: %d [msg/s]\n", (int) throughput);
    printf("mean throughput: %.3f [Mb/s]\n", megabits);

    zmq_close(pull);
    zmq_ctx_term(ctx);
    return 0;
}
