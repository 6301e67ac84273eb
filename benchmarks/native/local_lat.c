/* local_lat <bind-to> <message-size> <roundtrip-count>
 * REP binds and echoes <roundtrip-count> messages (plus PERF_WARMUP, see
 * perf_common.h) back to remote_lat. */
#include "perf_common.h"

int main(int argc, char *argv[])
{
    if (argc != 4) {
        printf("usage: local_lat <bind-to> <message-size> <roundtrip-count>\n");
        return 1;
    }
    const char *bind_to = argv[1];
    int message_size = perf_parse_count(argv[2], "message-size");
    int roundtrip_count = perf_parse_count(argv[3], "roundtrip-count");

    void *ctx = zmq_ctx_new();
    if (!ctx)
        perf_die("zmq_ctx_new");
    void *rep = zmq_socket(ctx, ZMQ_REP);
    if (!rep)
        perf_die("zmq_socket");
    perf_curve_server(rep);
    if (zmq_bind(rep, bind_to) != 0)
        perf_die("zmq_bind");

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
    zmq_close(rep);
    zmq_ctx_term(ctx);
    return 0;
}
