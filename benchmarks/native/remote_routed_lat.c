/* remote_routed_lat <connect-to> <message-size> <roundtrip-count>
 * remote_lat for a routed pair (routed_common.h): CLIENT or DEALER connects and times the
 * round trips; as in remote_lat the clock starts right after connect and the result is
 * one-way latency, elapsed / (2 * roundtrip-count), after PERF_WARMUP untimed round trips. */
#include "routed_common.h"

int main(int argc, char *argv[])
{
    if (argc != 4) {
        printf("usage: remote_routed_lat <connect-to> <message-size> <roundtrip-count>\n");
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
    void *remote = zmq_socket(ctx, ROUTED_REMOTE_TYPE);
    if (!remote)
        perf_die("zmq_socket");
    if (zmq_connect(remote, connect_to) != 0)
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
        if (zmq_msg_send(&msg, remote, 0) < 0)
            perf_die("zmq_msg_send");
        if (zmq_msg_recv(&msg, remote, 0) < 0)
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

    zmq_close(remote);
    zmq_ctx_term(ctx);
    return 0;
}
