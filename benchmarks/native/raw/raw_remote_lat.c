/* raw_remote_lat <connect-to> <message-size> <roundtrip-count>
 * The raw floor of remote_lat (see raw_common.h): connects and times
 * <roundtrip-count> blocking request/echo round trips, one write per request. As in
 * remote_lat, the clock starts right after the connect and the figure is one-way:
 * elapsed / (2 * roundtrip-count). With PERF_WARMUP that many untimed round trips
 * come first. */
#include "raw_common.h"

int main(int argc, char *argv[])
{
    if (argc != 4) {
        printf("usage: raw_remote_lat <connect-to> <message-size> <roundtrip-count>\n");
        return 1;
    }
    int message_size = raw_parse_count(argv[2], "message-size");
    int roundtrip_count = raw_parse_count(argv[3], "roundtrip-count");
    if (roundtrip_count < 1) {
        fprintf(stderr, "roundtrip-count must be at least 1\n");
        return 1;
    }
    unsigned char *buffer = calloc(1, (size_t) message_size + 1);
    static raw_reader reader;
    static raw_writer writer;
    if (!buffer)
        raw_die("calloc");
    reader.fd = writer.fd = raw_connect(argv[1]);

    int warmup = raw_warmup_count();
    double start = 0;
    for (int i = 0; i != warmup + roundtrip_count; i++) {
        if (i == warmup)
            start = raw_now_us();
        raw_send(&writer, buffer, (size_t) message_size);
        raw_flush(&writer);
        if (raw_recv(&reader, buffer, (size_t) message_size) != message_size) {
            fprintf(stderr, "message of incorrect size received (or stream ended early)\n");
            return 1;
        }
    }
    double elapsed = raw_now_us() - start;

    printf("message size: %d [B]\n", message_size);
    printf("roundtrip count: %d\n", roundtrip_count);
    printf("average latency: %.3f [us]\n", elapsed / (roundtrip_count * 2.0));
    close(reader.fd);
    free(buffer);
    return 0;
}
