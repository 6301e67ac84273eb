/* inproc_lat <message-size> <roundtrip-count>
 * One process, like libzmq's perf/inproc_lat: the main thread binds REP to
 * inproc://lat_test and echoes; a worker thread (zmq_threadstart) connects REQ
 * and times the roundtrips from right after zmq_connect. The lines printed are
 * remote_lat's; the figure is one-way, elapsed / (2 * roundtrip-count). With
 * PERF_WARMUP (perf_common.h) that many untimed round trips come first. */
#include "perf_common.h"

static int message_size;
static int roundtrip_count;

static void worker(void *ctx)
{
    void *req = zmq_socket(ctx, ZMQ_REQ);
    if (!req)
        perf_die("zmq_socket");
    if (zmq_connect(req, "inproc://lat_test") != 0)
        perf_die("zmq_connect");

    zmq_msg_t msg;
    if (zmq_msg_init_size(&msg, (size_t) message_size) != 0)
        perf_die("zmq_msg_init_size");
    memset(zmq_msg_data(&msg), 0, (size_t) message_size);

    int warmup = perf_warmup_count();
    void *watch = NULL;
    for (int i = 0; i != warmup + roundtrip_count; i++) {
        if (i == warmup)
            watch = zmq_stopwatch_start();
        if (zmq_msg_send(&msg, req, 0) < 0)
            perf_die("zmq_msg_send");
        if (zmq_msg_recv(&msg, req, 0) < 0)
            perf_die("zmq_msg_recv");
        if ((int) zmq_msg_size(&msg) != message_size) {
            fprintf(stderr, "message of incorrect size received\n");
            exit(1);
        }
    }
    unsigned long elapsed = zmq_stopwatch_stop(watch);
    zmq_msg_close(&msg);

    double latency = (double) elapsed / (roundtrip_count * 2);
    printf("message size: %d [B]\n", message_size);
    printf("roundtrip count: %d\n", roundtrip_count);
    printf("average latency: %.3f [us]\n", latency);

    zmq_close(req);
}

int main(int argc, char *argv[])
{
    if (argc != 3) {
        printf("usage: inproc_lat <message-size> <roundtrip-count>\n");
        return 1;
    }
    message_size = perf_parse_count(argv[1], "message-size");
    roundtrip_count = perf_parse_count(argv[2], "roundtrip-count");
    if (roundtrip_count < 1) {
        fprintf(stderr, "roundtrip-count must be at least 1\n");
        return 1;
    }

    void *ctx = zmq_ctx_new();
    if (!ctx)
        perf_die("zmq_ctx_new");
    void *rep = zmq_socket(ctx, ZMQ_REP);
    if (!rep)
        perf_die("zmq_socket");
    if (zmq_bind(rep, "inproc://lat_test") != 0)
        perf_die("zmq_bind");

    void *thread = zmq_threadstart(worker, ctx);

    zmq_msg_t msg;
    if (zmq_msg_init(&msg) != 0)
        perf_die("zmq_msg_init");
    int total = perf_warmup_count() + roundtrip_count;
    for (int i = 0; i != total; i++) {
        if (zmq_msg_recv(&msg, rep, 0) < 0)
            perf_die("zmq_msg_recv");
        if ((int) zmq_msg_size(&msg) != message_size) {
            fprintf(stderr, "message of incorrect size received\n");
            return 1;
        }
        if (zmq_msg_send(&msg, rep, 0) < 0)
            perf_die("zmq_msg_send");
    }
    zmq_msg_close(&msg);

    zmq_threadclose(thread);
    zmq_close(rep);
    zmq_ctx_term(ctx);
    return 0;
}
