/* raw_local_thr <bind-to> <message-size> <message-count>
 * The raw floor of local_thr (see raw_common.h): accepts one stream and receives
 * <message-count> length-prefixed messages. As in local_thr, the clock starts when the
 * first message has arrived and the mean divides the full count by that interval. */
#include "raw_common.h"

int main(int argc, char *argv[])
{
    if (argc != 4) {
        printf("usage: raw_local_thr <bind-to> <message-size> <message-count>\n");
        return 1;
    }
    int message_size = raw_parse_count(argv[2], "message-size");
    int message_count = raw_parse_count(argv[3], "message-count");
    if (message_count < 1) {
        fprintf(stderr, "message-count must be at least 1\n");
        return 1;
    }
    unsigned char *buffer = malloc((size_t) message_size + 1);
    static raw_reader reader;
    if (!buffer)
        raw_die("malloc");
    reader.fd = raw_accept_one(argv[1]);

    if (raw_recv(&reader, buffer, (size_t) message_size) != message_size) {
        fprintf(stderr, "message of incorrect size received\n");
        return 1;
    }
    double start = raw_now_us();
    for (int i = 1; i != message_count; i++) {
        if (raw_recv(&reader, buffer, (size_t) message_size) != message_size) {
            fprintf(stderr, "message of incorrect size received (or stream ended early)\n");
            return 1;
        }
    }
    double elapsed = raw_now_us() - start;
    if (elapsed < 1)
        elapsed = 1;

    unsigned long throughput = (unsigned long) ((double) message_count / elapsed * 1000000);
    printf("message size: %d [B]\n", message_size);
    printf("message count: %d\n", message_count);
    printf("mean throughput: %d [msg/s]\n", (int) throughput);
    printf("mean throughput: %.3f [Mb/s]\n", (double) throughput * message_size * 8 / 1000000);
    close(reader.fd);
    free(buffer);
    return 0;
}
