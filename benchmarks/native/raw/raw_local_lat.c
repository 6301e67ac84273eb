/* raw_local_lat <bind-to> <message-size> <roundtrip-count>
 * The raw floor of local_lat (see raw_common.h): accepts one stream and echoes
 * <roundtrip-count> length-prefixed messages (plus PERF_WARMUP), one write per reply. */
#include "raw_common.h"

int main(int argc, char *argv[])
{
    if (argc != 4) {
        printf("usage: raw_local_lat <bind-to> <message-size> <roundtrip-count>\n");
        return 1;
    }
    int message_size = raw_parse_count(argv[2], "message-size");
    int roundtrip_count = raw_parse_count(argv[3], "roundtrip-count");
    unsigned char *buffer = malloc((size_t) message_size + 1);
    static raw_reader reader;
    static raw_writer writer;
    if (!buffer)
        raw_die("malloc");
    reader.fd = writer.fd = raw_accept_one(argv[1]);
    int total = raw_warmup_count() + roundtrip_count;
    for (int i = 0; i != total; i++) {
        if (raw_recv(&reader, buffer, (size_t) message_size) != message_size) {
            fprintf(stderr, "message of incorrect size received (or stream ended early)\n");
            return 1;
        }
        raw_send(&writer, buffer, (size_t) message_size);
        raw_flush(&writer);
    }
    close(reader.fd);
    free(buffer);
    return 0;
}
