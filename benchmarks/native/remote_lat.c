/* remote_lat <connect-to> <message-size> <roundtrip-count>
 * REQ connects and times <roundtrip-count> request/reply roundtrips. As in
 * libzmq, the clock starts right after zmq_connect (before the first send)
 * and the reported figure is one-way: elapsed / (2 * roundtrip-count). With
 * PERF_WARMUP (perf_common.h) that many untimed round trips come first. */
#include "perf_common.h"

int main(int argc, char *argv[])
{
    if (argc != 4) {
        printf("usage: remote_lat <connect-to> <message-size> <roundtrip-count>\n");
        return 1;
    }
    const char *connect_to = argv[1];
    int message_size = perf_parse_count(argv[2], "message-size");
    int roundtrip_count = perf_parse_count(argv[3], "roundtrip-count");
    if (roundtrip_count < 1) {
        fprintf(stderr, "roundtrip-count must be at least 1\n");
        return 1;
    }

    void *ctx = zmq_ctx_new();
    if (!ctx)
        perf_die("zmq_ctx_new");
    void *req = zmq_socket(ctx, ZMQ_REQ);
    if (!req)
        perf_die("zmq_socket");
    perf_curve_client(req);
    if (zmq_connect(req, connect_to) != 0)
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
            return 1;
        }
    }
    unsigned long elapsed = zmq_stopwatch_stop(watch);

    zmq_msg_close(&msg);

    double latency = (double) elapsed / (roundtrip_count * 2);

    printf("message size: %d [B]\n", message_size);
    printf("roundtrip count: %d\n", roundtrip_count);
    printf("average latency: %.3f [us]\n", latency);

    zmq_close(req);
    zmq_ctx_term(ctx);
    return 0;
}
