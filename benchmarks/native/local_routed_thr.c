/* local_routed_thr <bind-to> <message-size> <message-count>
 * local_thr for a routed pair (routed_common.h): SERVER or ROUTER binds and receives
 * <message-count> messages from one CLIENT or DEALER. The clock starts when the first
 * message has arrived; the lines printed are local_thr's. */
#include "routed_common.h"

int main(int argc, char *argv[])
{
    if (argc != 4) {
        printf("usage: local_routed_thr <bind-to> <message-size> <message-count>\n");
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
    void *local = zmq_socket(ctx, ROUTED_LOCAL_TYPE);
    if (!local)
        perf_die("zmq_socket");
    if (zmq_bind(local, bind_to) != 0)
        perf_die("zmq_bind");

    zmq_msg_t id, msg;
    if (zmq_msg_init(&id) != 0 || zmq_msg_init(&msg) != 0)
        perf_die("zmq_msg_init");

    routed_recv(local, &id, &msg, message_size);
    void *watch = zmq_stopwatch_start();
    for (int i = 1; i != message_count; i++)
        routed_recv(local, &id, &msg, message_size);
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

    zmq_close(local);
    zmq_ctx_term(ctx);
    return 0;
}
