/* inproc_thr <message-size> <message-count>
 * One process, like libzmq's perf/inproc_thr: the main thread binds PULL to
 * inproc://thr_test; a worker thread (zmq_threadstart) connects PUSH and sends
 * <message-count> messages. The clock starts when the first message has
 * arrived; the lines printed are local_thr's. */
#include "perf_common.h"

static int message_size;
static int message_count;

static void worker(void *ctx)
{
    void *push = zmq_socket(ctx, ZMQ_PUSH);
    if (!push)
        perf_die("zmq_socket");
    if (zmq_connect(push, "inproc://thr_test") != 0)
        perf_die("zmq_connect");

    zmq_msg_t msg;
    for (int i = 0; i != message_count; i++) {
        if (zmq_msg_init_size(&msg, (size_t) message_size) != 0)
            perf_die("zmq_msg_init_size");
        if (zmq_msg_send(&msg, push, 0) < 0)
            perf_die("zmq_msg_send");
    }

    zmq_close(push);
}

int main(int argc, char *argv[])
{
    if (argc != 3) {
        printf("usage: inproc_thr <message-size> <message-count>\n");
        return 1;
    }
    message_size = perf_parse_count(argv[1], "message-size");
    message_count = perf_parse_count(argv[2], "message-count");
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
    if (zmq_bind(pull, "inproc://thr_test") != 0)
        perf_die("zmq_bind");

    void *thread = zmq_threadstart(worker, ctx);

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
    zmq_threadclose(thread);

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
