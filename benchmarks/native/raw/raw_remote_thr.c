/* raw_remote_thr <connect-to> <message-size> <message-count>
 * The raw floor of remote_thr (see raw_common.h): connects and sends <message-count>
 * length-prefixed messages through the batch, then closes.
 *
 * RAW_BUFS=n (default 1) sends from n distinct payload buffers in turn, each written once
 * before the clock's first message. With 1 the kernel copies from one buffer that stays in
 * the cache; a messaging library with a full send queue sends from as many buffers as the
 * queue holds (a high-water mark of 1,000 64 KiB messages is 64 MiB), which the cache does
 * not hold. RAW_BUFS=1000 is that cold floor. */
#include "raw_common.h"

int main(int argc, char *argv[])
{
    if (argc != 4) {
        printf("usage: raw_remote_thr <connect-to> <message-size> <message-count>\n");
        return 1;
    }
    int message_size = raw_parse_count(argv[2], "message-size");
    int message_count = raw_parse_count(argv[3], "message-count");
    int buffer_count = raw_env_count("RAW_BUFS", 1);
    if (buffer_count < 1)
        buffer_count = 1;
    unsigned char **payloads = calloc((size_t) buffer_count, sizeof *payloads);
    if (!payloads)
        raw_die("calloc");
    for (int b = 0; b != buffer_count; b++) {
        /* Written, so that each buffer has pages of its own (calloc's untouched pages may all
         * map the one zero page, which would stay cached). */
        payloads[b] = malloc((size_t) message_size + 1);
        if (!payloads[b])
            raw_die("malloc");
        memset(payloads[b], 1, (size_t) message_size + 1);
    }
    static raw_writer writer;
    writer.fd = raw_connect(argv[1]);
    for (int i = 0; i != message_count; i++)
        raw_send(&writer, payloads[i % buffer_count], (size_t) message_size);
    raw_flush(&writer);
    close(writer.fd);
    for (int b = 0; b != buffer_count; b++)
        free(payloads[b]);
    free(payloads);
    return 0;
}
